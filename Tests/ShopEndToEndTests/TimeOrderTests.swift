import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters
@testable import shop

/// Issue 30's reproductions of wrong history through the root: times that step back, and an
/// order stamped in the future.
struct TimeOrderTests {
  /// A file of `times`, as another program or an older `shop` wrote it.
  static func file(_ times: [Int64], at path: String) throws {
    var encoder = OrderJSON.Encoder()
    var bytes: [UInt8] = []
    for (index, time) in times.enumerated() {
      let draft = try #require(
        Draft(
          lines: [OrderLine(sku: "pen", quantity: 1, price: 30)],
          placedAt: Timestamp(secondsSince1970: time)))
      encoder.append(Order(number: 1001 + index, draft: draft), to: &bytes)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func day(_ seconds: Int64) -> String {
    var bytes: [UInt8] = []
    UTCTime.append(Timestamp(secondsSince1970: seconds / 86400 * 86400), to: &bytes)
    return String(decoding: bytes.prefix(10), as: UTF8.self)
  }

  /// 2,000 orders 300 s apart whose time steps back two days at order 2001: every day's range
  /// counts what `summary --by day` counts, and the days add up to every order, before and
  /// after a writer recorded the file's order.
  @Test func daysOfAFileWhoseTimeStepsBackAddUpToEveryOrder() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let start = RootHarness.time.secondsSince1970 - 10 * 86400
    var times = (0..<2000).map { start + Int64($0) * 300 }
    times += (0..<1000).map { times[1999] - 2 * 86400 + Int64($0) * 300 }
    try TimeOrderTests.file(times, at: orders)
    for pass in ["as written", "recorded by a writer"] {
      if pass == "recorded by a writer" {
        #expect(try shop.run("place", "-q", "--orders", orders, "pen=1").status == 0)
        times.append(RootHarness.time.secondsSince1970)
      }
      let byDay = try shop.run("summary", "--by", "day", "--json", "--orders", orders)
      #expect(byDay.status == 0, "\(byDay)")
      var counted = 0
      for day in Set(times.map { $0 / 86400 }).sorted() {
        let expected = times.filter { $0 / 86400 == day }.count
        let since = TimeOrderTests.day(day * 86400)
        let until = TimeOrderTests.day((day + 1) * 86400)
        let count = try shop.run(
          "orders", "--count", "--since", since, "--until", until, "--orders", orders)
        #expect(count.stdout == "\(expected)\n", "\(pass) \(since)")
        #expect(byDay.stdout.contains("\"day\":\"\(since)\",\"orders\":\(expected),"), "\(pass)")
        let summary = try shop.run(
          "summary", "--json", "--since", since, "--until", until, "--orders", orders)
        #expect(summary.stdout.contains("\"orders\":\(expected),"), "\(pass) \(summary)")
        counted += Int(count.stdout.dropLast()) ?? 0
      }
      #expect(counted == times.count, "\(pass)")
    }
  }

  /// A file whose last order says 9999-12-31T23:59:59Z: `place` and `batch` stamp the clock's
  /// time, and a range of today finds them.
  @Test func anOrderFromTheFutureDoesNotMoveTheNextOnesThere() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let now = RootHarness.time.secondsSince1970
    try TimeOrderTests.file([now - 3600, 253_402_300_799], at: orders)
    let placed = try shop.run("place", "--json", "--orders", orders, "pen=1")
    #expect(placed.stdout.contains("\"placedAt\":\"2026-11-30T06:06:43Z\""), "\(placed)")
    let batch = try shop.run(["batch", "-q", "--orders", orders], input: "pen=1\npen=2\n")
    #expect(batch.status == 0)
    let today = try shop.run(
      "orders", "--json", "--since", "2026-11-30", "--until", "2026-12-01", "--orders", orders)
    // Order 1001, an hour before, then the three new ones.
    #expect(
      today.stdout.split(separator: "\n").map { $0.contains("2026-11-30T06:06:43Z") }
        == [false, true, true, true], "\(today)")
    #expect(
      try shop.run("orders", "--count", "--since", "2026-11-30", "--orders", orders).stdout
        == "5\n")
    // Within the bound, a later time before is still taken: 200 s ahead, raised to it.
    let near = shop.folder.file("near.jsonl")
    try TimeOrderTests.file([now + 200], at: near)
    let raised = try shop.run("place", "--json", "--orders", near, "pen=1")
    #expect(raised.stdout.contains("\"placedAt\":\"2026-11-30T06:10:03Z\""), "\(raised)")
  }
}
