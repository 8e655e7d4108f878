import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Synchronization
import Testing

@testable import ShopAdapters

/// `orders(in:last:)` and `summary` on the file, bisected by time, against the obvious answer:
/// the orders read one by one and filtered.
struct OrderRangeTests {
  /// 2026-11-30T00:00:00Z.
  static let midnight: Int64 = 1_795_996_800

  /// Times that never go down, a few seconds to an hour apart, some repeated, some on a
  /// midnight.
  static func times(_ count: Int, seed: UInt64) -> [Int64] {
    var state = seed
    func next(_ bound: Int) -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int64((state >> 33) % UInt64(bound))
    }
    var time = midnight - 36000
    return (0..<count).map { index in
      time += next(5) == 0 ? 0 : next(60)
      if index == count / 3 { time = max(time, midnight + 86400) }
      return time
    }
  }

  static func draft(at time: Int64, quantity: Int = 1) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: quantity, price: 30)],
        placedAt: Timestamp(secondsSince1970: time)))
  }

  /// A file of orders at `times`, written by `shop`'s own store.
  static func file(_ times: [Int64], in folder: TemporaryFolder) throws -> FileOrders {
    let store = FileOrders(path: folder.file("orders.jsonl"))
    let drafts = try times.enumerated().map { try draft(at: $1, quantity: $0 % 9 + 1) }
    if !drafts.isEmpty { _ = try store.save(drafts) }
    return FileOrders(path: folder.file("orders.jsonl"))
  }

  static func listed(_ history: any OrderHistory, _ range: TimeRange, last: Int? = nil) throws
    -> [Int]
  {
    var numbers: [Int] = []
    try history.orders(in: range, last: last) { order in numbers.append(order.number) }
    return numbers
  }

  static func expected(_ times: [Int64], _ range: TimeRange) -> [Int] {
    times.enumerated().filter { range.contains(Timestamp(secondsSince1970: $0.element)) }.map {
      1001 + $0.offset
    }
  }

  @Test(arguments: [0, 1, 2, 30, 200])
  func aRangeOfTheFileIsTheOrdersPlacedInIt(count: Int) throws {
    let folder = try TemporaryFolder()
    let times = OrderRangeTests.times(count, seed: UInt64(count))
    let store = try OrderRangeTests.file(times, in: folder)
    let memory = MemoryOrders()
    if count > 0 { _ = try memory.save(times.map { try OrderRangeTests.draft(at: $0) }) }
    // Bounds on the orders' own times, a second either side, midnights, and far outside.
    var bounds: [Int64?] = [nil, .min / 2, .max / 2, OrderRangeTests.midnight]
    for index in stride(from: 0, to: count, by: max(1, count / 40)) {
      bounds += [times[index], times[index] - 1, times[index] + 1]
    }
    var state: UInt64 = 5
    for _ in 0..<60 {
      state = state &* 6_364_136_223_846_793_005 &+ 1
      let since = bounds[Int((state >> 20) % UInt64(bounds.count))]
      let until = bounds[Int((state >> 40) % UInt64(bounds.count))]
      let range = TimeRange(
        since: since.map(Timestamp.init(secondsSince1970:)),
        until: until.map(Timestamp.init(secondsSince1970:)))
      let expected = OrderRangeTests.expected(times, range)
      #expect(try OrderRangeTests.listed(store, range) == expected, "\(range)")
      #expect(try OrderRangeTests.listed(memory, range) == expected, "\(range)")
      for last in [1, 3, 150] {
        #expect(
          try OrderRangeTests.listed(store, range, last: last) == Array(expected.suffix(last)),
          "\(range) last \(last)")
      }
    }
  }

  @Test func theStoreStampsEachOrderNoEarlierThanTheOneBeforeIt() throws {
    let folder = try TemporaryFolder()
    let store = FileOrders(path: folder.file("orders.jsonl"))
    let time = OrderRangeTests.midnight
    // A process that read the clock first but locked second: its time is raised, not kept.
    _ = try store.save([try OrderRangeTests.draft(at: time + 100)])
    let saved = try store.save([
      try OrderRangeTests.draft(at: time), try OrderRangeTests.draft(at: time + 50),
      try OrderRangeTests.draft(at: time + 200),
    ])
    #expect(saved.map(\.placedAt.secondsSince1970) == [time + 100, time + 100, time + 200])
    var stored: [Int64] = []
    try FileOrders(path: folder.file("orders.jsonl")).readAll { order in
      stored.append(order.placedAt.secondsSince1970)
    }
    #expect(stored == [time + 100, time + 100, time + 100, time + 200])
    let memory = MemoryOrders()
    _ = try memory.save([try OrderRangeTests.draft(at: time + 100)])
    #expect(
      try memory.save([try OrderRangeTests.draft(at: time)]).first?.placedAt.secondsSince1970
        == time + 100)
  }

  @Test func writersThatReadTheClockOutOfOrderStillStoreTimesInOrder() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let failures = Atomic<Int>(0)
    // Each worker's clock runs backwards, as a process that locks late would see it, and the
    // workers' clocks differ by less than the bound on a raise.
    DispatchQueue.concurrentPerform(iterations: 6) { worker in
      let store = FileOrders(path: path)
      for round in 0..<20 {
        let time = OrderRangeTests.midnight + Int64(20 * worker - 5 * round)
        guard let draft = try? OrderRangeTests.draft(at: time),
          (try? store.save([draft, draft])) != nil
        else {
          failures.add(1, ordering: .relaxed)
          continue
        }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    var times: [Int64] = []
    try FileOrders(path: path).readAll { order in times.append(order.placedAt.secondsSince1970) }
    #expect(times.count == 240)
    #expect(times == times.sorted())
    // A time is only ever raised to one some clock gave, never invented.
    let given = Set(
      (0..<6).flatMap { worker in
        (0..<20).map { OrderRangeTests.midnight + Int64(20 * worker - 5 * $0) }
      })
    #expect(Set(times).isSubset(of: given))
  }

  /// A later order's time is raised to it only within ``Timestamp/maximumRaise``: past it (a
  /// clock that was ahead, a hand edit, the last second of 9999), the clock's time is kept, the
  /// times step back once, and ranges still find every order.
  @Test(
    arguments: [
      (0, true), (1, true), (Timestamp.maximumRaise, true), (Timestamp.maximumRaise + 1, false),
      (86400 * 2, false), (253_402_300_799 - OrderRangeTests.midnight, false),
    ] as [(Int64, Bool)])
  func aTimeFarAheadIsNotRaisedTo(ahead: Int64, raised: Bool) throws {
    let folder = try TemporaryFolder(on: .disk)
    let now = OrderRangeTests.midnight
    let store = try OrderRangeTests.handWritten(
      [(1001, now - 60), (1002, now + ahead)], in: folder)
    let saved = try store.save([
      try OrderRangeTests.draft(at: now), try OrderRangeTests.draft(at: now + 1),
    ])
    let stamped = raised ? [now + ahead, now + max(ahead, 1)] : [now, now + 1]
    #expect(saved.map(\.placedAt.secondsSince1970) == stamped)
    let memory = MemoryOrders()
    _ = try memory.save([try OrderRangeTests.draft(at: now + ahead)])
    #expect(
      try memory.save([try OrderRangeTests.draft(at: now)]).map(\.placedAt.secondsSince1970)
        == [raised ? now + ahead : now])
    // Today's range holds the new orders, whatever came before them.
    let today = TimeRange(
      since: Timestamp(secondsSince1970: now), until: Timestamp(secondsSince1970: now + 86400))
    let times = [now - 60, now + ahead] + stamped
    #expect(try OrderRangeTests.listed(store, today) == OrderRangeTests.expected(times, today))
    #expect(try OrderRangeTests.listed(store, today).suffix(2) == [1003, 1004])
    #expect(try UnsortedTimesTests.bisects(store))
  }

  /// Lines as an older `shop` could have written them, times as given.
  static func handWritten(_ entries: [(number: Int, time: Int64)], in folder: TemporaryFolder)
    throws -> FileOrders
  {
    var encoder = OrderJSON.Encoder()
    var bytes: [UInt8] = []
    for entry in entries {
      let order = Order(number: entry.number, draft: try draft(at: entry.time))
      encoder.append(order, to: &bytes)
    }
    let path = folder.file("orders.jsonl")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return FileOrders(path: path)
  }

  @Test func aRangeChecksTheNumberingOfWhatItReads() throws {
    let time = OrderRangeTests.midnight
    let cases: [([(Int, Int64)], TimeRange, Int, String)] = [
      // A gap inside the range.
      (
        [(1001, time), (1002, time + 10), (1004, time + 20)],
        TimeRange(since: Timestamp(secondsSince1970: time + 5), until: nil), 3,
        "order 1004 follows order 1002: numbers must go up by one"
      ),
      // A repeat inside the range.
      (
        [(1001, time), (1002, time + 10), (1002, time + 20), (1003, time + 30)],
        TimeRange(since: nil, until: Timestamp(secondsSince1970: time + 25)), 3,
        "order 1002 follows order 1002: numbers must go up by one"
      ),
      // From the first line, the numbering must start at 1001.
      (
        [(1002, time), (1003, time + 10)],
        TimeRange(since: nil, until: Timestamp(secondsSince1970: time + 25)), 1,
        "the first order is 1002, not 1001"
      ),
    ]
    for (entries, range, line, reason) in cases {
      let folder = try TemporaryFolder()
      let store = try OrderRangeTests.handWritten(
        entries.map { (number: $0.0, time: $0.1) }, in: folder)
      let error = FileError.badData(
        FilePath(folder.file("orders.jsonl")), line: line, reason: reason)
      #expect(throws: error) { try OrderRangeTests.listed(store, range) }
      #expect(throws: error) { try store.summary(of: range, by: .none) }
    }
    // A last line that is not an order is 65 at its line, by the rule every reader shares.
    let folder = try TemporaryFolder()
    let store = try OrderRangeTests.handWritten(
      [(1001, time), (1002, time + 10)], in: folder)
    let path = folder.file("orders.jsonl")
    let good = try folder.read("orders.jsonl")
    try Data((good + "{oops}\n").utf8).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: FileError.badData(
        FilePath(path), line: 3, reason: "the last order is unreadable (not a JSON object)")
    ) {
      try OrderRangeTests.listed(
        store, TimeRange(since: Timestamp(secondsSince1970: time), until: nil))
    }
  }

  @Test func onAnOlderFileWhoseTimesGoBackARangeIsExact() throws {
    let folder = try TemporaryFolder()
    // Every 7th order was stored with a time 30 seconds earlier than the one before it.
    var entries: [(number: Int, time: Int64)] = []
    var time = OrderRangeTests.midnight
    for index in 0..<700 {
      time += 20
      entries.append((1001 + index, index % 7 == 6 ? time - 30 : time))
    }
    let store = try OrderRangeTests.handWritten(entries, in: folder)
    for start in stride(from: 0, to: 700, by: 47) {
      for length: Int64 in [1, 20, 45, 2000, 100_000] {
        let since = entries[start].time
        let range = TimeRange(
          since: Timestamp(secondsSince1970: since),
          until: Timestamp(secondsSince1970: since + length))
        let listed = try OrderRangeTests.listed(store, range)
        let expected = entries.filter { range.contains(Timestamp(secondsSince1970: $0.time)) }
          .map(\.number)
        #expect(listed == expected, "\(range)")
      }
    }
  }

  @Test func aMissingFileAnEmptyFileAndATornTailHoldNoRange() throws {
    let folder = try TemporaryFolder()
    let range = TimeRange(since: Timestamp(secondsSince1970: 0), until: nil)
    let missing = FileOrders(path: folder.file("none.jsonl"))
    #expect(try OrderRangeTests.listed(missing, range).isEmpty)
    #expect(try missing.summary(of: range, by: .sku) == Summary(totals: Summary.Totals()))
    let empty = FileOrders(path: try folder.write("empty.jsonl", ""))
    #expect(try OrderRangeTests.listed(empty, .all).isEmpty)
    let store = try OrderRangeTests.file([OrderRangeTests.midnight], in: folder)
    let handle = try #require(FileHandle(forWritingAtPath: folder.file("orders.jsonl")))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"number":1002,"items":[{"sku":"pe"#.utf8))
    try handle.close()
    #expect(try OrderRangeTests.listed(store, range) == [1001])
    #expect(try OrderRangeTests.listed(store, range, last: 5) == [1001])
  }
}
