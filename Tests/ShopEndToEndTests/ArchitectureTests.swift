import Foundation
import ShopTestSupport
import Testing

/// The lesson `shop` teaches, checked on its own sources, in the spirit of ArchUnit: only the
/// composition root (`Sources/shop`) builds an adapter or a use case, and the core imports
/// nothing. The adapters and use cases are found in the sources, not listed here, so a new one
/// is held to the rule without a change to this test.
struct ArchitectureTests {
  struct SourceFile {
    let path: String
    /// The text without its comments, so that a doc comment naming ``PlaceOrder`` is no call.
    let code: String
  }

  /// The Swift files under `folder` (a path from the package's folder), comments removed.
  static func files(under folder: String) throws -> [SourceFile] {
    let base = SourceTree.root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    var found: [SourceFile] = []
    while let path = walker.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
      let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.firstRange(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
      }.joined(separator: "\n")
      found.append(SourceFile(path: "\(folder)/\(path)", code: code))
    }
    return found.sorted { $0.path < $1.path }
  }

  /// The names of the types declared in `files`, with what each declaration says it conforms
  /// to (`class FileOrders: Orders, OrderHistory` and `extension FileOrders: OrderVoids`).
  static func declarations(in files: [SourceFile]) -> [(name: String, conformances: [String])] {
    let declaration =
      /(?:class|struct|enum|actor|extension)\s+(\w+)(?:<[^>{]*>)?\s*:\s*([^{]+)\{/
    return files.flatMap { file in
      file.code.matches(of: declaration).map { match in
        let conformances = match.output.2.split(whereSeparator: { ", \n&".contains($0) })
          .map(String.init)
        return (String(match.output.1), conformances)
      }
    }
  }

  /// The core's ports: its protocols.
  static func ports() throws -> Set<String> {
    let core = try files(under: "Sources/ShopCore")
    return Set(core.flatMap { $0.code.matches(of: /protocol\s+(\w+)/).map { String($0.output.1) } })
  }

  /// The use cases: the types of `Sources/ShopCore/UseCases` that hold a port or take one
  /// (`private let orders: any Orders`), not the errors and results declared beside them.
  static func useCases() throws -> Set<String> {
    let ports = try ports()
    var names: Set<String> = []
    for file in try files(under: "Sources/ShopCore/UseCases") {
      // Each top-level declaration, up to the next one.
      let parts = file.code.split(separator: /\n(?=\S)/)
      for part in parts {
        guard let name = part.firstMatch(of: /^public\s+(?:final\s+)?(?:struct|class)\s+(\w+)/)
        else { continue }
        let held = Set(part.matches(of: /:\s*any\s+(\w+)/).map { String($0.output.1) })
        if !held.isDisjoint(with: ports) { names.insert(String(name.output.1)) }
      }
    }
    return names
  }

  /// The adapters: the types of `Sources/ShopAdapters` that conform to a port of the core.
  static func adapters() throws -> Set<String> {
    let ports = try ports()
    let declared = declarations(in: try files(under: "Sources/ShopAdapters"))
    return Set(declared.filter { !ports.isDisjoint(with: $0.conformances) }.map(\.name))
  }

  /// Every place in `Sources` outside the root where `names` are constructed, as
  /// `PATH:LINE: NAME(`.
  static func constructions(of names: Set<String>) throws -> [String] {
    var found: [String] = []
    for folder in [
      "Sources/ShopCore", "Sources/ShopConventions", "Sources/ShopAdapters",
      "Sources/ShopCommandLine",
    ] {
      for file in try files(under: folder) {
        for (number, line) in file.code.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        {
          for match in line.matches(of: /(?:^|[^\w.])(\w+)\s*\(/)
          where names.contains(String(match.output.1)) {
            found.append("\(file.path):\(number + 1): \(match.output.1)(")
          }
        }
      }
    }
    return found
  }

  @Test func theScanFindsTheAdaptersAndUseCases() throws {
    let adapters = try ArchitectureTests.adapters()
    let useCases = try ArchitectureTests.useCases()
    for adapter in [
      "FileOrders", "MemoryOrders", "PostgresOrders", "FileCatalog", "MemoryCatalog",
      "TextReport", "QuietReport", "JSONReport", "OrderListing", "SummaryListing",
      "PricedBatch", "SystemClock",
    ] {
      #expect(adapters.contains(adapter), "\(adapter) is not found as an adapter")
    }
    for useCase in ["PlaceOrder", "PlaceBatch", "ListOrders", "Summarise"] {
      #expect(useCases.contains(useCase), "\(useCase) is not found as a use case")
    }
  }

  /// "A common mistake: creating an adapter inside a use case, even once." Nor inside another
  /// adapter, nor the command line: every part is built in `Sources/shop`.
  @Test func onlyTheRootBuildsAdaptersAndUseCases() throws {
    let built = try ArchitectureTests.constructions(
      of: try ArchitectureTests.adapters().union(try ArchitectureTests.useCases()))
    #expect(built.isEmpty, "built outside the root:\n\(built.joined(separator: "\n"))")
  }

  /// The core knows no file, terminal or library: not even the Swift standard library is
  /// imported by name.
  @Test func theCoreImportsNothing() throws {
    let imports = try ArchitectureTests.files(under: "Sources/ShopCore").flatMap { file in
      file.code.split(separator: "\n").filter { $0.contains(/^\s*(@\w+\s+)*import\s/) }.map {
        "\(file.path): \($0)"
      }
    }
    #expect(imports.isEmpty, "ShopCore imports:\n\(imports.joined(separator: "\n"))")
  }

  /// The command line knows no adapter: it reads arguments into values the root builds from,
  /// and shares with the adapters only the conventions below both. Each layer imports what is
  /// listed here and nothing else, so `import ShopAdapters` in the command line fails.
  @Test(arguments: [
    ("Sources/ShopCommandLine", ["ShopCore", "ShopConventions"]),
    ("Sources/ShopConventions", ["ShopCore"]),
  ])
  func aLayerImportsOnlyWhatIsBelowIt(folder: String, allowed: [String]) throws {
    let files = try ArchitectureTests.files(under: folder)
    #expect(!files.isEmpty, "no Swift files under \(folder)")
    let imports = files.flatMap { file in
      file.code.split(separator: "\n").compactMap { line in
        line.firstMatch(of: /^\s*(?:@\w+\s+)*import\s+(?:\w+\s+)?(\w+)/).map {
          (file.path, String(line), String($0.output.1))
        }
      }
    }
    let forbidden = imports.filter { !allowed.contains($0.2) }.map { "\($0.0): \($0.1)" }
    #expect(
      forbidden.isEmpty,
      "\(folder) may import only \(allowed):\n\(forbidden.joined(separator: "\n"))")
  }
}
