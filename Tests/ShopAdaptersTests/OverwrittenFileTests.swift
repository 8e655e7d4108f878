import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The orders file overwritten in place between two groups of a batch (`cp` or `truncate`
/// over it: the same inode, other lines). The path still names the file the writer holds, so
/// only its lines can tell that the orders reported are gone: the batch stops with 74 naming
/// the last one, and writes nothing more, on the fast path and the plain one alike.
struct OverwrittenFileTests {
  /// Gives `first`, then runs `between` and gives `rest`; says no input waits at the split,
  /// so the batch places what it has before it reads on.
  final class SplitSource: ByteSource {
    private var parts: [[UInt8]]
    private let between: () throws -> Void
    private var ran = false

    init(_ first: String, _ rest: String, between: @escaping () throws -> Void) {
      parts = [Array(first.utf8), Array(rest.utf8)]
      self.between = between
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
      if parts.count == 1, !ran {
        ran = true
        do { try between() } catch { throw SystemError(call: "between", code: 5) }
      }
      guard let part = parts.first else { return 0 }
      let count = min(buffer.count, part.count)
      part.withUnsafeBytes {
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count]))
      }
      parts[0].removeFirst(count)
      if parts[0].isEmpty { parts.removeFirst() }
      return count
    }

    func hasInputWaiting() -> Bool { parts.count > 1 || ran }
  }

  static let overwrites: [(String, @Sendable (String) -> String)] = [
    ("truncate", { _ in "" }),
    ("an older copy", { text in text.split(separator: "\n").prefix(3).map { $0 + "\n" }.joined() }),
    ("its lines rewritten", { $0.replacingOccurrences(of: "\"pen\"", with: "\"ink\"") }),
  ]

  /// Another writer's order after the batch's: the file still holds what was reported.
  static func appendingAnOrder(_ text: String) -> String {
    let second = text.split(separator: "\n")[1]
    return text + second.replacingOccurrences(of: #""number":1002"#, with: #""number":1006"#) + "\n"
  }

  @Test(arguments: [true, false], 0...overwrites.count)
  func aBatchWhoseFileIsOverwrittenStopsWith74AndWritesNothingMore(fast: Bool, which: Int)
    throws
  {
    let (name, overwrite) =
      which < Self.overwrites.count
      ? Self.overwrites[which] : ("another writer's order", Self.appendingAnOrder)
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let store = FileOrders(path: FilePath(path))
    let catalog = MemoryCatalog(entries: [(sku: "pen", price: 30), (sku: "ink", price: 30)])
    let report = QuietReport(errors: BufferOutput())
    let clock = FixedClock(time: Timestamp(secondsSince1970: 1_796_018_803))
    var left = ""
    let source = SplitSource(
      String(repeating: "@a pen=1\n", count: 1) + String(repeating: "pen=1\n", count: 4),
      String(repeating: "pen=2\n", count: 5)
    ) {
      let handle = try #require(FileHandle(forUpdatingAtPath: path))
      left = overwrite(try folder.read("orders.jsonl"))
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: Data(left.utf8))
      try handle.close()
    }
    let input = BatchInput(descriptor: source, name: "in", groupLines: 5)
    let batch = PricedBatchTests.batch(
      fast: fast, input, catalog: catalog, store: store, clock: clock, report: report)
    guard which < Self.overwrites.count else {
      #expect(try batch.run() == 0, "\(name)")
      let numbers = try folder.read("orders.jsonl").split(separator: "\n").map {
        try OrderJSON.order(from: Array($0.utf8)).number
      }
      #expect(numbers == Array(1001...1011), "\(name)")
      return
    }
    let stopped = try #require(throws: BatchStopped.self, "\(name)") { _ = try batch.run() }
    #expect(stopped.lastReported == 1005, "\(name)")
    let cause = try #require(stopped.cause as? FileError, "\(name)")
    guard case .replaced(_, _, let lastReported) = cause else {
      Issue.record("\(name): \(cause)")
      return
    }
    #expect(lastReported == 1005, "\(name)")
    #expect(cause.status == .ioError, "\(name)")
    #expect(try folder.read("orders.jsonl") == left, "\(name): nothing more written")
  }
  /// A batch whose reports so far were all of orders already placed (a rerun): those numbers
  /// are reported too, so a file emptied in place, or replaced by an empty one, stops it.
  @Test(arguments: [true, false], ["emptied in place", "replaced by an empty file"])
  func aRerunThatReportedOnlyOrdersAlreadyPlacedStopsToo(fast: Bool, how: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let catalog = MemoryCatalog(entries: [(sku: "pen", price: 30)])
    let time = Timestamp(secondsSince1970: 1_796_018_803)
    let draft = try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time,
        reference: Reference("a")))
    _ = try FileOrders(path: FilePath(path)).place([draft, draft])
    let store = FileOrders(path: FilePath(path))
    let source = SplitSource("@a pen=1\n", "pen=2\n") {
      if how == "emptied in place" {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.close()
      } else {
        try FileManager.default.removeItem(atPath: path)
        try Data().write(to: URL(fileURLWithPath: path))
      }
    }
    let batch = PricedBatchTests.batch(
      fast: fast, BatchInput(descriptor: source, name: "in", groupLines: 1), catalog: catalog,
      store: store, clock: FixedClock(time: time), report: QuietReport(errors: BufferOutput()))
    let stopped = try #require(throws: BatchStopped.self, "\(how)") { _ = try batch.run() }
    let cause = try #require(stopped.cause as? FileError, "\(how)")
    guard case .replaced(_, _, let lastReported) = cause else {
      Issue.record("\(how): \(cause)")
      return
    }
    #expect(lastReported == 1001, "\(how)")
    #expect(try folder.read("orders.jsonl") == "", "\(how): nothing written")
  }
}
