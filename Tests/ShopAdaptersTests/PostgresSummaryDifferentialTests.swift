import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The summary refuses exactly the rows a listing refuses, and sums what it accepts as the
/// file store sums the same orders: seeded random damage to every column of a table of
/// orders, refs and voids, then the listing and the summary (every grouping) over ranges that
/// take the damaged row in and leave it out.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresSummaryDifferentialTests {
  /// 2026-11-30T00:00:00Z.
  static let midnight: Int64 = 1_795_996_800

  /// Damage to the row `$N` (its number), as SQL; each either breaks a rule a listing checks
  /// or is one it takes (a time moved by whole seconds, another valid ref, a price kept
  /// consistent).
  static let damages: [String] = [
    "UPDATE shop_orders SET total = total + 1 WHERE number = $N",
    "UPDATE shop_orders SET payable = payable + 1 WHERE number = $N",
    "UPDATE shop_orders SET payable = payable - 1 WHERE number = $N",
    "UPDATE shop_orders SET total = -total, payable = -payable WHERE number = $N",
    "UPDATE shop_orders SET total = 251 WHERE number = $N",
    """
    UPDATE shop_orders SET items = '[{"sku":"pen","quantity":0,"price":30}]', total = 0, \
    payable = 0 WHERE number = $N
    """,
    """
    UPDATE shop_orders SET items = '[{"sku":"pen","quantity":1,"price":-30}]', \
    total = -30, payable = -30 WHERE number = $N
    """,
    """
    UPDATE shop_orders SET items = '[{"sku":"pen","quantity":1,"price":30},\
    {"sku":"pen","quantity":1,"price":30}]', total = 60, payable = 60 WHERE number = $N
    """,
    """
    UPDATE shop_orders SET items = '[{"sku":"pen","quantity":2,"price":30}]', total = 60, \
    payable = 60 WHERE number = $N
    """,
    "UPDATE shop_orders SET items = '[]', total = 0, payable = 0 WHERE number = $N",
    "UPDATE shop_orders SET items = '{\"sku\":\"pen\"}' WHERE number = $N",
    "UPDATE shop_orders SET items = items || '[7]' WHERE number = $N",
    "UPDATE shop_orders SET placed_at = 'infinity' WHERE number = $N",
    "UPDATE shop_orders SET placed_at = '-infinity' WHERE number = $N",
    "UPDATE shop_orders SET placed_at = placed_at + interval '0.5 s' WHERE number = $N",
    "UPDATE shop_orders SET placed_at = placed_at + interval '1 microsecond' WHERE number = $N",
    "UPDATE shop_orders SET placed_at = '12345-01-01 00:00:00+00' WHERE number = $N",
    "UPDATE shop_orders SET placed_at = placed_at - interval '3 days' WHERE number = $N",
    "UPDATE shop_orders SET ref = 'has space' WHERE number = $N",
    "UPDATE shop_orders SET ref = '' WHERE number = $N",
    "UPDATE shop_orders SET ref = 'fine-ref-$N' WHERE number = $N",
    "UPDATE shop_orders SET ref = NULL WHERE number = $N",
    "UPDATE shop_orders SET number = number + 1000 WHERE number = $N",
    // A void's rules: nothing in it, an earlier order that is one, not itself, not a void.
    "UPDATE shop_orders SET voids = number WHERE number = $N",
    "UPDATE shop_orders SET voids = 999 WHERE number = $N",
    "UPDATE shop_orders SET voids = number + 5000 WHERE number = $N",
    "UPDATE shop_orders SET voids = number - 1 WHERE number = $N AND number > 1001",
    """
    UPDATE shop_orders SET items = '[{"sku":"pen","quantity":1,"price":30}]', total = 30, \
    payable = 30 WHERE number = $N AND voids IS NOT NULL
    """,
    "UPDATE shop_orders SET total = 5 WHERE number = $N AND voids IS NOT NULL",
    "UPDATE shop_orders SET payable = 5 WHERE number = $N AND voids IS NOT NULL",
    "UPDATE shop_orders SET items = 'null' WHERE number = $N AND voids IS NOT NULL",
    """
    UPDATE shop_orders SET voids = NULL, items = '[{"sku":"pen","quantity":1,"price":30}]', \
    total = 30, payable = 30 WHERE number = $N AND voids IS NOT NULL
    """,
    // A void that takes back a void.
    """
    UPDATE shop_orders SET voids = (SELECT min(number) FROM shop_orders WHERE voids IS NOT NULL) \
    WHERE number = (SELECT max(number) FROM shop_orders WHERE voids IS NOT NULL)
    """,
    "DELETE FROM shop_orders WHERE number = $N",
  ]

  /// 40 orders an hour apart, about half with refs, and up to 6 voids among them.
  func seed(_ store: some Orders & OrderVoids) throws {
    var random = SplitMix(seed: 35)
    let skus = ["pen", "lamp", "ink-black", "Desk"]
    for index in 0..<46 {
      let time = Timestamp(secondsSince1970: Self.midnight - 7200 + Int64(index) * 3600)
      if index % 8 == 7 {
        let target = 1001 + Int(random.next() % UInt64(index))
        _ = try store.void(Draft(voiding: target, placedAt: time))
        continue
      }
      let lines = (0..<(index % 3 + 1)).map {
        OrderLine(
          sku: skus[(index + $0) % 4], quantity: Int(random.next() % 4) + 1,
          price: Int(random.next() % 400))
      }
      let reference = index % 2 == 0 ? Reference("r\(index)") : nil
      _ = try store.save([
        try #require(Draft(lines: lines, placedAt: time, reference: reference))
      ])
    }
  }

  static let ranges: [TimeRange] = [
    .all, TimeRange(since: Timestamp(secondsSince1970: midnight), until: nil),
    TimeRange(since: nil, until: Timestamp(secondsSince1970: midnight + 86400)),
  ]

  /// What a call answered: its value, or the error's status and words.
  enum Answer<Value> {
    case value(Value)
    case refused(ShopConventions.ExitStatus, String)
  }

  static func answer<Value>(_ call: () throws -> Value) -> Answer<Value> {
    do {
      return .value(try call())
    } catch let error as PostgresError {
      return .refused(error.status, error.message)
    } catch {
      return .refused(ShopConventions.ExitStatus.software, "\(error)")
    }
  }

  @Test func theSummaryRefusesWhatTheListingRefusesAndSumsAsAFile() throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try seed(PostgresOrders(uri: server.tcpURI(name)))
    try server.sql("CREATE TABLE pristine AS SELECT * FROM shop_orders", database: name)
    let voidRows = try server.sql(
      "SELECT number FROM shop_orders WHERE voids IS NOT NULL ORDER BY number", database: name
    ).split(separator: "\n").compactMap { Int($0) }
    #expect(voidRows.count >= 3)
    var random = SplitMix(seed: 3535)
    let folder = try TemporaryFolder()
    var refused = 0
    var accepted = 0
    for trial in 0..<(Self.damages.count * 2) {
      let damage = Self.damages[trial % Self.damages.count]
      // Half the trials damage a void row, half any row.
      let number =
        trial % 2 == 0 && damage.contains("voids")
        ? voidRows[Int(random.next() % UInt64(voidRows.count))]
        : 1001 + Int(random.next() % 46)
      try server.sql(
        "BEGIN; DELETE FROM shop_orders; INSERT INTO shop_orders SELECT * FROM pristine; COMMIT",
        database: name)
      // A damage the table's own constraints refuse (a second void of one order) is none.
      _ = try? server.sql(
        damage.replacingOccurrences(of: "$N", with: "\(number)"), database: name)
      let store = PostgresOrders(uri: server.tcpURI(name))
      // The same orders in a file, when the whole table lists: the file store's summaries.
      let file: FileOrders?
      if case .value(let all) = Self.answer({ try Self.listed(store, .all) }) {
        file = try Self.file(of: all, in: folder)
      } else {
        file = nil
      }
      for range in Self.ranges {
        let what = "\(damage) at \(number), \(range)"
        let listed = Self.answer { try Self.listed(store, range) }
        for grouping in [Summary.Grouping.none, .day, .sku] {
          let summed = Self.answer { try store.summary(of: range, by: grouping) }
          switch (listed, summed) {
          case (.refused(let status, let message), .refused(let status2, let message2)):
            #expect(status == .dataError && status2 == status, "\(what)")
            #expect(message2 == message, "\(what) \(grouping)")
            refused += 1
          case (.value(let orders), .value(let summary)):
            if let file {
              #expect(summary == (try file.summary(of: range, by: grouping)), "\(what)")
            } else {
              // The whole table does not list: the core's tally of what this range lists.
              var tally = SummaryTally(by: grouping)
              for order in orders { try tally.add(order) }
              #expect(summary == tally.summary, "\(what) \(grouping)")
            }
            accepted += 1
          default:
            Issue.record("\(what) \(grouping): listed \(listed), summed \(summed)")
          }
        }
      }
    }
    // The damage is of both kinds, and some of each is refused and some accepted.
    #expect(refused > 100 && accepted > 100, "\(refused) refused, \(accepted) accepted")
  }

  static func listed(_ store: PostgresOrders, _ range: TimeRange) throws -> [Order] {
    var orders: [Order] = []
    try store.orders(in: range, last: nil) { orders.append($0) }
    return orders
  }

  /// `orders`, as a full listing reads them (voided ones marked), in an orders file.
  static func file(of orders: [Order], in folder: TemporaryFolder) throws -> FileOrders {
    let path = folder.file("orders.jsonl")
    var bytes: [UInt8] = []
    var encoder = OrderJSON.Encoder()
    // The mark is a listing's, never the file's: the void is its only record there.
    for order in orders { encoder.append(order.voided(by: nil), to: &bytes) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return FileOrders(path: FilePath(path))
  }
}
