import Foundation
import ShopTestSupport
import Testing

@testable import ShopCommandLine
@testable import shop

/// What `shop completions`, `shop manual` and `make install` produce, tried with the real
/// shells, groff and make.
struct GeneratedFilesTests {
  static let root = SourceTree.root

  /// A tool of the machine, or nil when it is not installed.
  static func tool(_ name: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Runs `path arguments` to completion in `shop`'s sandbox, with `shop` on the PATH.
  static func run(
    _ path: String, _ arguments: [String], in shop: Shop, environment: [String: String] = [:]
  ) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: shop.folder.path)
    let binaries = URL(fileURLWithPath: Shop.binary).deletingLastPathComponent().path
    process.environment = [
      "HOME": shop.home, "PATH": "\(binaries):/usr/bin:/bin", "LC_ALL": "C.UTF-8",
    ].merging(environment) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors, as: UTF8.self))
  }

  @Test func bashAcceptsTheScriptAndCompletesThroughItsFunction() throws {
    let bash = try #require(GeneratedFilesTests.tool("bash"))
    let shop = try Shop()
    let script = try shop.folder.write("shop.bash", try shop.run("completions", "bash").stdout)
    #expect(try GeneratedFilesTests.run(bash, ["-n", script], in: shop).status == 0)
    _ = try shop.folder.write("desks.csv", "SKU,Price\ndesk,5\ndeskmat,2\n")
    _ = try shop.folder.write("my desks.csv", "SKU,Price\ndesk,5\n")
    let cases: [([String], String)] = [
      // The catalog's name as typed, quotes and backslashes included, as bash hands it over.
      (["shop", "place", "--catalog", "\"my desks.csv\"", "de"], "desk="),
      (["shop", "place", "--catalog", "my\\ desks.csv", "de"], "desk="),
      (["shop", "pl"], "place"),
      (["shop", "place", "--qu"], "--quiet"),
      (["shop", "place", "la"], "lamp="),
      (["shop", "place", "pen=1", ""], "lamp= pen="),
      // A quantity follows SKU=, and bash splits there: nothing to offer.
      (["shop", "place", "pen", "="], ""),
      (["shop", "place", "pen", "=", "2"], ""),
      (["shop", "place", "--catalog", "desks.csv", "de"], "desk= deskmat="),
      (["shop", "place", "--catalog", "=", "desks.csv", "de"], "desk= deskmat="),
      (["shop", "place", "--catalog", "des"], "desks.csv"),
      (["shop", "batch", "des"], "desks.csv"),
      (["shop", "orders", "--orders", "desk"], "desks.csv"),
      (["shop", "help", "c"], "catalog completions"),
      (["shop", "completions", ""], "bash zsh fish"),
      (["shop", "--v"], "--version"),
      (["shop", "orders", "--c"], "--csv --count"),
      (["shop", "orders", "--co"], "--count"),
      (["shop", "summary", "--b"], "--by"),
      (["shop", "summary", "--by", ""], "day sku"),
    ]
    for (words, expected) in cases {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let call = """
        source \(script)
        COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _shop
        echo "${COMPREPLY[*]}"
        """
      let run = try GeneratedFilesTests.run(bash, ["-c", call], in: shop)
      #expect(run.stdout == expected + "\n", "\(words): \(run)")
      #expect(run.status == 0)
    }
    // Without --catalog on the line, the SKUs are those of $SHOP_CATALOG, as for placing.
    let call = """
      source \(script)
      COMP_WORDS=(shop place de); COMP_CWORD=2; _shop
      echo "${COMPREPLY[*]}"
      """
    let run = try GeneratedFilesTests.run(
      bash, ["-c", call], in: shop, environment: ["SHOP_CATALOG": "desks.csv"])
    #expect(run.stdout == "desk= deskmat=\n", "\(run)")
  }

  @Test func fishCompletesCommandsOptionsAndSKUs() throws {
    guard let fish = GeneratedFilesTests.tool("fish") else {
      print("skipped: fish is not installed")
      return
    }
    let shop = try Shop()
    let script = try shop.folder.write("shop.fish", try shop.run("completions", "fish").stdout)
    let cases = [("shop pl", "place"), ("shop place --qu", "--quiet"), ("shop place la", "lamp=")]
    for (line, expected) in cases {
      let run = try GeneratedFilesTests.run(
        fish, ["--no-config", "-c", "source \(script); complete -C '\(line)'"], in: shop)
      #expect(
        run.stdout.split(separator: "\n").map { $0.prefix { $0 != "\t" } } == [Substring(expected)],
        "\(line): \(run)")
    }
  }

  @Test func zshAcceptsTheScript() throws {
    guard let zsh = GeneratedFilesTests.tool("zsh") else {
      print("skipped: zsh is not installed")
      return
    }
    let shop = try Shop()
    let script = try shop.folder.write("_shop", try shop.run("completions", "zsh").stdout)
    let run = try GeneratedFilesTests.run(zsh, ["-n", script], in: shop)
    #expect(run.status == 0 && run.stderr == "", "\(run)")
  }

  @Test func theManualRendersWithoutAWarning() throws {
    let shop = try Shop()
    let manual = try shop.run("manual")
    #expect(manual.status == 0 && manual.stderr == "")
    #expect(manual.stdout.hasPrefix(".TH SHOP 1 "))
    guard let groff = GeneratedFilesTests.tool("groff") else {
      print("skipped: groff is not installed")
      return
    }
    let page = try shop.folder.write("shop.1", manual.stdout)
    let run = try GeneratedFilesTests.run(groff, ["-man", "-Tutf8", "-ww", "-z", page], in: shop)
    #expect(run.status == 0 && run.stderr == "", "\(run)")
    let text = try GeneratedFilesTests.run(groff, ["-man", "-Tascii", "-P-cbou", page], in: shop)
    for section in ["SYNOPSIS", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
      #expect(text.stdout.contains(section))
    }
    for status in ["0", "1", "64", "65", "66", "69", "70", "73", "74", "75"] {
      let tagged = text.stdout.split(separator: "\n").contains {
        $0 == "       \(status)" || $0.hasPrefix("       \(status) ")
      }
      #expect(tagged, "exit status \(status)")
    }
  }

  static let installed = [
    "bin/shop", "share/man/man1/shop.1", "share/bash-completion/completions/shop",
    "share/zsh/site-functions/_shop", "share/fish/vendor_completions.d/shop.fish",
    "share/doc/shop/LICENSE",
  ]

  /// `make install` or `make uninstall` with `PREFIX=prefix` and the binary the tests built.
  static func make(_ target: String, _ prefix: String, in shop: Shop, _ extra: [String] = [])
    throws -> Run
  {
    let make = try #require(GeneratedFilesTests.tool("make"))
    return try GeneratedFilesTests.run(
      make,
      ["-C", root.path, target, "PREFIX=\(prefix)", "SHOP_BIN=\(Shop.binary)"] + extra, in: shop)
  }

  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  @Test func makeInstallsEverythingUnderPrefixAndUninstallRemovesIt() throws {
    let shop = try Shop()
    let prefix = shop.folder.file("a/b")
    let installed = GeneratedFilesTests.installed.map { prefix + "/" + $0 }
    let install = try GeneratedFilesTests.make("install", prefix, in: shop)
    #expect(install.status == 0, "\(install)")
    for file in installed { #expect(GeneratedFilesTests.exists(file), "\(file)") }
    let version = try GeneratedFilesTests.run(installed[0], ["--version"], in: shop)
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("shop \(CommandLineDescription.shop.version) ("))
    #expect(try String(contentsOfFile: installed[1], encoding: .utf8) == shop.run("manual").stdout)
    let license = try String(contentsOfFile: installed[5], encoding: .utf8)
    #expect(license.hasPrefix("MIT License\n") && license.contains("the shop authors"))
    if GeneratedFilesTests.tool("strip") != nil {
      // Stripped: smaller than the binary the tests built, and with no symbol table left.
      let size = { (path: String) in
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      }
      #expect(try size(installed[0]) < size(Shop.binary), "\(install)")
      if let nm = GeneratedFilesTests.tool("nm") {
        let symbols = try GeneratedFilesTests.run(nm, [installed[0]], in: shop)
        #expect(symbols.stdout == "" && symbols.stderr.contains("no symbols"), "\(symbols)")
      }
    }
    // A second install (an upgrade) changes nothing of what uninstall removes.
    #expect(try GeneratedFilesTests.make("install", prefix, in: shop).status == 0)
    let uninstall = try GeneratedFilesTests.make("uninstall", prefix, in: shop)
    #expect(uninstall.status == 0, "\(uninstall)")
    for file in installed { #expect(!GeneratedFilesTests.exists(file), "\(file)") }
    // Every folder install made was left empty, so none is left, `a` included.
    #expect(!GeneratedFilesTests.exists(shop.folder.file("a")), "\(uninstall)")
    #expect(GeneratedFilesTests.exists(shop.folder.path))
  }

  /// Uninstall removes a folder only if install made it and nothing else is in it.
  @Test func uninstallKeepsFoldersItDidNotMakeOrThatHoldOtherFiles() throws {
    let shop = try Shop()
    let prefix = shop.folder.file("p")
    let files = FileManager.default
    try files.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try files.createDirectory(atPath: prefix + "/share/man/man1", withIntermediateDirectories: true)
    _ = try shop.folder.write("p/share/man/man1/other.1", ".TH OTHER 1\n")
    #expect(try GeneratedFilesTests.make("install", prefix, in: shop).status == 0)
    _ = try shop.folder.write("p/share/fish/vendor_completions.d/other.fish", "")
    let uninstall = try GeneratedFilesTests.make("uninstall", prefix, in: shop)
    #expect(uninstall.status == 0, "\(uninstall)")
    for kept in [
      "bin", "share/man/man1/other.1", "share/fish/vendor_completions.d/other.fish",
    ] {
      #expect(GeneratedFilesTests.exists(prefix + "/" + kept), "\(kept): \(uninstall)")
    }
    for removed in [
      "bin/shop", "share/man/man1/shop.1", "share/bash-completion", "share/zsh", "share/doc",
      "share/fish/vendor_completions.d/shop.fish",
    ] {
      #expect(!GeneratedFilesTests.exists(prefix + "/" + removed), "\(removed): \(uninstall)")
    }
    #expect(try files.contentsOfDirectory(atPath: prefix + "/bin") == [])
  }

  /// A staged install (DESTDIR, as a package is built) keeps no list of folders: the package
  /// manager owns them, and the list would name the build machine's.
  @Test func aStagedInstallRecordsNoFolders() throws {
    let shop = try Shop()
    let stage = shop.folder.file("stage")
    let install = try GeneratedFilesTests.make(
      "install", "/usr/local", in: shop, ["DESTDIR=\(stage)"])
    #expect(install.status == 0, "\(install)")
    let doc = stage + "/usr/local/share/doc/shop"
    #expect(try FileManager.default.contentsOfDirectory(atPath: doc) == ["LICENSE"])
    let uninstall = try GeneratedFilesTests.make(
      "uninstall", "/usr/local", in: shop, ["DESTDIR=\(stage)"])
    #expect(uninstall.status == 0, "\(uninstall)")
    #expect(!GeneratedFilesTests.exists(stage + "/usr/local/bin/shop"))
    #expect(GeneratedFilesTests.exists(stage + "/usr/local/bin"))
  }

  /// A machine without strip, or whose strip fails, still gets a working shop.
  @Test(arguments: ["/nonexistent/strip", "false"])
  func installWorksWhenStripIsMissingOrFails(strip: String) throws {
    let shop = try Shop()
    let prefix = shop.folder.file("p")
    let install = try GeneratedFilesTests.make("install", prefix, in: shop, ["STRIP=\(strip)"])
    #expect(install.status == 0, "\(install)")
    #expect(
      install.stderr.contains("shop is installed with its symbols")
        || install.stderr.contains("shop is not stripped"), "\(install)")
    let run = try GeneratedFilesTests.run(
      prefix + "/bin/shop", ["place", "--memory", "pen=1"], in: shop)
    #expect(run.stdout == "order 1001 for 30\n", "\(run)")
  }

}
