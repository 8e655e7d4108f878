import Foundation
import ShopAdapters
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopCommandLine
@testable import shop

/// The composition root called in-process, as main.swift calls it, but with buffers for the
/// streams, a fixed clock, a private folder and HOME, and the environment as a dictionary:
/// for everything that needs no real process (usage errors, help, listings, location
/// precedence, `--explain`, JSON shapes). Paths given to it should be absolute, since the
/// test process's working folder is shared.
final class RootHarness {
  /// 2026-11-30T06:06:43Z, the README's time.
  static let time = Timestamp(secondsSince1970: 1_796_018_803)

  let folder: TemporaryFolder
  /// The clock's time for the next commands: ``time`` unless a test moves it.
  var now = RootHarness.time
  var home: String { folder.file("home") }
  var defaultOrders: String { home + "/.local/share/shop/orders.jsonl" }

  init() throws {
    folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  }

  /// Runs `shop arguments` through `runShop`, with `input` as standard input; the environment
  /// is HOME alone, plus `environment`. `libpq` is the library a PostgreSQL store would load.
  @discardableResult
  func run(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
    closed: (input: Bool, output: Bool) = (false, false), output: BufferSink = BufferSink(),
    streamsWriteTo files: [(stream: StandardStream, path: String)] = [],
    libpq: String = PostgresOrders.standardLibrary
  ) throws -> Run {
    try runBytes(
      arguments.map { Array($0.utf8) }, input: Array((input ?? "").utf8),
      environment: environment, closed: closed, output: output, streamsWriteTo: files,
      libpq: libpq)
  }

  /// Runs `shop` with arguments and standard input as raw bytes, invalid UTF-8 included.
  /// `files` are the regular files the root is told its standard streams write to, as
  /// main.swift tells it of `>> FILE` and `2>> FILE`; the buffers still take what is written.
  @discardableResult
  func runBytes(
    _ arguments: [[UInt8]], input: [UInt8] = [], environment: [String: String] = [:],
    closed: (input: Bool, output: Bool) = (false, false), output: BufferSink = BufferSink(),
    streamsWriteTo files: [(stream: StandardStream, path: String)] = [],
    libpq: String = PostgresOrders.standardLibrary
  ) throws -> Run {
    let errors = BufferSink()
    let identities = try files.map { stream, path in
      (stream: stream, file: try #require(try System.identity(of: FilePath(path)), "\(path)"))
    }
    let streams = StandardStreams(
      input: BufferSource(input), output: output, errors: errors,
      inputWasClosed: closed.input, outputWasClosed: closed.output, files: identities)
    let variables = ["HOME": home].merging(environment) { $1 }
    let status = runShop(
      arguments: arguments, environment: Environment(variables),
      streams: streams, clock: FixedClock(time: now), libpq: libpq)
    return Run(status: status.rawValue, stdout: output.text, stderr: errors.text)
  }

  @discardableResult
  func run(_ arguments: String...) throws -> Run {
    try run(arguments)
  }
}

extension RootHarness {
  /// The lines of the file at `path`.
  func lines(of path: String) throws -> [Substring] {
    try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
      .split(separator: "\n")
  }
}

extension Environment {
  /// The variables of `values`, as their UTF-8 bytes: a test's environment.
  init(_ values: [String: String]) {
    self.init { values[$0].map { Array($0.utf8) } }
  }
}
