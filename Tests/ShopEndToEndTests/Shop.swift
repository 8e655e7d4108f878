import Foundation
import ShopTestSupport

/// What one run of the binary did.
struct Run: CustomStringConvertible {
  let status: Int32
  let stdout: String
  let stderr: String

  var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// The built `shop` binary in a private sandbox: its own HOME, no XDG or SHOP variables from
/// the machine, so no test can read or write the real home folder.
final class Shop {
  /// `shop` is built next to the test bundle, in the same products folder.
  static let binary: String = {
    let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return tests.deletingLastPathComponent().appendingPathComponent("shop").path
  }()

  let folder: TemporaryFolder
  var home: String { folder.file("home") }
  var defaultOrders: String { home + "/.local/share/shop/orders.jsonl" }
  private var runs = 0

  init() throws {
    folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  }

  /// Runs `shop arguments` to completion, with `input` on standard input (empty if nil).
  @discardableResult
  func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:])
    throws -> Run
  {
    let process = try start(arguments, input: input.map { Data($0.utf8) }, environment: environment)
    process.process.waitUntilExit()
    return process.finish()
  }

  @discardableResult
  func run(_ arguments: String...) throws -> Run {
    try run(arguments)
  }

  func start(_ arguments: [String], input: Data?, environment: [String: String] = [:]) throws
    -> Started
  {
    runs += 1
    let stdout = folder.file("stdout.\(runs)")
    let stderr = folder.file("stderr.\(runs)")
    let stdin = folder.file("stdin.\(runs)")
    try (input ?? Data()).write(to: URL(fileURLWithPath: stdin))
    try Data().write(to: URL(fileURLWithPath: stdout))
    try Data().write(to: URL(fileURLWithPath: stderr))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Shop.binary)
    process.arguments = arguments
    process.environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C"].merging(
      environment
    ) { $1 }
    process.standardInput = FileHandle(forReadingAtPath: stdin)
    process.standardOutput = FileHandle(forWritingAtPath: stdout)
    process.standardError = FileHandle(forWritingAtPath: stderr)
    try process.run()
    return Started(process: process, stdout: stdout, stderr: stderr)
  }

  struct Started {
    let process: Process
    let stdout: String
    let stderr: String

    func finish() -> Run {
      func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
      }
      let status =
        process.terminationReason == .uncaughtSignal
        ? 128 + process.terminationStatus : process.terminationStatus
      return Run(status: status, stdout: read(stdout), stderr: read(stderr))
    }
  }

  func lines(of path: String) throws -> [Substring] {
    try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
      .split(separator: "\n")
  }
}
