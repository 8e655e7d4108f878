import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Ranges and the summary asked of a real server, against sums computed here from what
/// `readAll` reads back.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresHistoryTests {
  /// 2026-11-30T00:00:00Z.
  static let midnight: Int64 = 1_795_996_800

  /// A database holding orders an hour or so apart over three days, some stored with an
  /// earlier time than the order before them (PostgreSQL keeps times as they come).
  func store() throws -> (PostgresServer, String, PostgresOrders, [Order]) {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let store = PostgresOrders(uri: server.tcpURI(name))
    var drafts: [Draft] = []
    let skus = ["pen", "lamp", "ink-black", "Desk"]
    for index in 0..<90 {
      let time = Self.midnight - 7200 + Int64(index) * 3000 - (index % 7 == 3 ? 5000 : 0)
      let lines = (0..<(index % 3 + 1)).map {
        OrderLine(sku: skus[(index + $0) % 4], quantity: index % 5 + 1, price: 30 + 40 * $0)
      }
      drafts.append(
        try #require(Draft(lines: lines, placedAt: Timestamp(secondsSince1970: time))))
    }
    _ = try store.save(drafts)
    var orders: [Order] = []
    try store.readAll { order in orders.append(order) }
    return (server, name, store, orders)
  }

  static func ranges() -> [TimeRange] {
    let at = { (seconds: Int64) in Timestamp(secondsSince1970: midnight + seconds) }
    return [
      .all, TimeRange(since: at(0), until: nil), TimeRange(since: nil, until: at(86400)),
      TimeRange(since: at(0), until: at(86400)), TimeRange(since: at(-1), until: at(1)),
      TimeRange(since: at(86400 * 10), until: nil),
      TimeRange(since: at(3000 * 5), until: at(3000 * 9)),
    ]
  }

  @Test func aRangeIsTheOrdersPlacedInItWhateverTheirOrder() throws {
    let (_, _, store, orders) = try store()
    for range in Self.ranges() {
      let expected = orders.filter { range.contains($0.placedAt) }
      var listed: [Order] = []
      try store.orders(in: range, last: nil) { order in listed.append(order) }
      #expect(listed == expected, "\(range)")
      for last in [1, 4, 1000] {
        var newest: [Int] = []
        try store.orders(in: range, last: last) { order in newest.append(order.number) }
        #expect(newest == expected.suffix(last).map(\.number), "\(range) last \(last)")
      }
    }
  }

  @Test func theSummaryIsTheSumOfTheOrdersInTheRange() throws {
    let (_, _, store, orders) = try store()
    for range in Self.ranges() {
      let kept = orders.filter { range.contains($0.placedAt) }
      let totals = Summary.Totals(
        orders: kept.count, total: kept.map(\.total).reduce(0, +),
        payable: kept.map(\.payable).reduce(0, +))
      let plain = try store.summary(of: range, by: .none)
      #expect(plain == Summary(totals: totals), "\(range)")
      let byDay = try store.summary(of: range, by: .day)
      let days = Set(kept.map { $0.placedAt.secondsSince1970 / 86400 }).sorted()
      #expect(byDay.totals == totals)
      #expect(byDay.days.map(\.start.secondsSince1970) == days.map { $0 * 86400 }, "\(range)")
      for day in byDay.days {
        let those = kept.filter {
          $0.placedAt.secondsSince1970 / 86400 * 86400 == day.start.secondsSince1970
        }
        #expect(day.totals.orders == those.count)
        #expect(day.totals.total == those.map(\.total).reduce(0, +))
        #expect(day.totals.payable == those.map(\.payable).reduce(0, +))
      }
      let bySKU = try store.summary(of: range, by: .sku)
      #expect(bySKU.totals == totals)
      // Sorted as Swift sorts (bytes): "Desk" before "ink-black", whatever the collation.
      let skus = Set(kept.flatMap { $0.lines.map(\.sku) }).sorted()
      #expect(bySKU.sales.map(\.sku) == skus, "\(range)")
      for sales in bySKU.sales {
        let lines = kept.flatMap { $0.lines.filter { $0.sku == sales.sku } }
        #expect(sales.quantity == lines.map(\.quantity).reduce(0, +))
        #expect(sales.revenue == lines.map { $0.quantity * $0.price }.reduce(0, +))
        #expect(sales.orders == kept.filter { $0.lines.contains { $0.sku == sales.sku } }.count)
      }
      // The server's sums are the core's, order for order.
      var tally = SummaryTally(by: .sku)
      for order in kept { try tally.add(order) }
      #expect(bySKU == tally.summary)
    }
  }

  @Test func anEmptyTableSumsToZero() throws {
    let server = try PostgresServer.shared.get()
    let store = PostgresOrders(uri: server.tcpURI(try server.makeDatabase()))
    #expect(try store.summary(of: .all, by: .day) == Summary(totals: Summary.Totals()))
    var listed = 0
    try store.orders(in: .all, last: 3) { _ in listed += 1 }
    #expect(listed == 0)
  }

  @Test func aBrokenNumberingIs65ForARangeAndTheSummary() throws {
    let (server, name, store, _) = try store()
    try server.sql("DELETE FROM shop_orders WHERE number = 1040", database: name)
    let range = TimeRange(since: Timestamp(secondsSince1970: Self.midnight), until: nil)
    for grouping in [Summary.Grouping.none, .day, .sku] {
      let error = try #require(throws: PostgresError.self) {
        try store.summary(of: range, by: grouping)
      }
      #expect(error.status == .dataError)
      #expect(error.message.contains("89 orders run from 1001 to 1090"), "\(error.message)")
    }
    let error = try #require(throws: PostgresError.self) {
      try store.orders(in: range, last: nil) { _ in }
    }
    #expect(error.status == .dataError)
  }

  /// A number no row has, below the last, is a gap in the numbering: 65 naming the rows
  /// around it, as the file store names its line; past the last it is "no order".
  @Test func aNumberInAGapIs65AndOnePastTheLastIsNoOrder() throws {
    let (server, name, store, _) = try store()
    try server.sql(
      "DELETE FROM shop_orders WHERE number = 1040 OR number BETWEEN 1060 AND 1062",
      database: name)
    for (number, message) in [
      (1040, "order 1041 follows 1039: order 1040 is missing"),
      (1061, "order 1063 follows 1059: orders 1060…1062 are missing"),
    ] {
      let error = try #require(throws: PostgresError.self) {
        try store.order(numbered: number) { _ in }
      }
      #expect(error.status == .dataError)
      #expect(error.message.contains(message), "\(error.message)")
    }
    for number in [1039, 1041, 1063, 1090] {
      var found: [Int] = []
      #expect(try store.order(numbered: number) { found.append($0.number) })
      #expect(found == [number])
    }
    for number in [1000, 1091, Int.max] {
      #expect(try !store.order(numbered: number) { _ in })
    }
  }

  @Test func sumsPastTheLargestIntegerAre65NotWrapped() throws {
    let server = try PostgresServer.shared.get()
    let store = PostgresOrders(uri: server.tcpURI(try server.makeDatabase()))
    let half = Int.max / 2 + 1
    let draft = try #require(
      Draft(
        lines: [OrderLine(sku: "gold", quantity: 1, price: half)],
        placedAt: Timestamp(secondsSince1970: Self.midnight)))
    let small = try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: 1, price: 30)],
        placedAt: Timestamp(secondsSince1970: Self.midnight)))
    _ = try store.save([small, draft, small, draft, small])
    for grouping in [Summary.Grouping.none, .day, .sku] {
      let error = try #require(throws: PostgresError.self) {
        try store.summary(of: .all, by: grouping)
      }
      #expect(error.status == .dataError)
      // As the file store says it: the order whose sum went past the largest integer.
      #expect(
        error.message.hasSuffix("the sums are too large to compute from order 1004 on"),
        "\(grouping): \(error.message)")
    }
  }

  /// One order whose SKU's revenue alone passes the largest integer, its total stored by hand
  /// (so not the items'): every summary refuses it as the listing does, never sums it.
  @Test func aSKUsRevenuePastTheLargestIntegerIsRefusedAsTheListingRefusesIt() throws {
    let (server, name, store, _) = try store()
    try server.sql(
      "UPDATE shop_orders SET items = '[{\"sku\":\"pen\",\"quantity\":2,\"price\":"
        + "\(Int.max / 2 + 1)}]' WHERE number IN (1045, 1060)", database: name)
    let listed = #expect(throws: PostgresError.self) { try store.readAll { _ in } }
    for grouping in [Summary.Grouping.none, .day, .sku] {
      let error = try #require(throws: PostgresError.self) {
        try store.summary(of: .all, by: grouping)
      }
      #expect(error.status == .dataError)
      #expect(error.message == listed?.message, "\(grouping)")
      #expect(error.message.hasSuffix("order 1045: total or payable does not match the items"))
    }
  }

  /// Numberings that are not shop's, of one order and of more: the count's words fit it.
  @Test(arguments: [([5], "1 order, numbered 5: "), ([5, 6], "2 orders run from 5 to 6: ")])
  func aBrokenNumberingIsToldInWordsThatFitTheCount(rows: [Int], says: String) throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.createShopTable(database: name)
    try server.insertOrders(rows, database: name)
    let store = PostgresOrders(uri: server.tcpURI(name))
    let reads: [(String, () throws -> Void)] = [
      ("count", { _ = try store.count() }),
      ("range", { try store.orders(in: .all, last: nil) { _ in } }),
      ("summary", { _ = try store.summary(of: .all, by: .none) }),
      ("summary by sku", { _ = try store.summary(of: .all, by: .sku) }),
    ]
    for (what, read) in reads {
      let error = #expect(throws: PostgresError.self, "\(what)") { try read() }
      #expect(error?.message.contains(says) == true, "\(what): \(String(describing: error))")
    }
  }

  /// Items no listing takes, stored by hand: the summary by SKU, which sums the items' own
  /// numbers, refuses each with 65 and the listing's reason, as every listing does.
  @Test(arguments: [
    #"[{"sku":"pen","quantity":1.5,"price":30}]"#, #"[{"sku":"pen","quantity":1.0,"price":30}]"#,
    #"[{"sku":"pen","quantity":"2","price":30}]"#, #"[{"sku":"pen","quantity":0,"price":30}]"#,
    #"[{"sku":"pen","quantity":2000000,"price":30}]"#, #"[{"sku":"pen","quantity":2,"price":-1}]"#,
    #"[{"sku":"pen","quantity":2,"price":1e400}]"#, #"[{"sku":"pen","quantity":2}]"#,
    #"[{"sku":"pen","quantity":2,"price":30}, 7]"#, #"{"sku":"pen"}"#, "[]",
    #"[{"sku":"p n","quantity":1,"price":30}]"#, #"[{"sku":"","quantity":1,"price":30}]"#,
    #"[{"sku":5,"quantity":1,"price":30}]"#, #"[{"sku":"pén","quantity":1,"price":30}]"#,
    #"[{"quantity":1,"price":30}]"#,
    #"[{"sku":"\#(String(repeating: "a", count: 65))","quantity":1,"price":30}]"#,
    #"[{"sku":"pen","quantity":1,"price":30}, {"sku":"pen","quantity":1,"price":30}]"#,
    #"[{"sku":"pen","quantity":1,"price":30}, {"sku":"ink","quantity":2,"price":5}, "#
      + #"{"sku":"pen","quantity":3,"price":30}]"#,
  ])
  func aStoredItemNoListingTakesIs65ForTheSummaryBySKU(items: String) throws {
    let (server, name, store, _) = try store()
    try server.sql(
      "UPDATE shop_orders SET items = '\(items)' WHERE number = 1045", database: name)
    let listed = #expect(throws: PostgresError.self, "\(items)") { try store.readAll { _ in } }
    let summed = #expect(throws: PostgresError.self, "\(items)") {
      _ = try store.summary(of: .all, by: .sku)
    }
    #expect(summed?.status == .dataError, "\(items): \(String(describing: summed))")
    #expect(summed?.message == listed?.message, "\(items)")
    #expect(summed?.message.contains("order 1045: ") == true, "\(String(describing: summed))")
    if items.components(separatedBy: #""pen""#).count > 2 {
      #expect(
        summed?.message.contains("the items hold 'pen' twice, which no cart does") == true,
        "\(String(describing: summed))")
    }
  }

  /// Times no listing takes, stored by hand, and what every reader that meets one must say.
  static let badTimes: [(time: String, says: String)] = [
    ("2026-12-01 23:59:59.6+00", "placed_at has a fraction of a second"),
    ("2026-11-30 12:00:00.000001+00", "placed_at has a fraction of a second"),
    ("2026-11-30 12:00:00.5+00", "placed_at has a fraction of a second"),
    ("infinity", "placed_at is not a finite time"),
    ("-infinity", "placed_at is not a finite time"),
    ("0044-03-15 BC", "placed_at is outside the years 0000 to 9999"),
    ("12345-01-01 00:00:00+00", "placed_at is outside the years 0000 to 9999"),
  ]

  @Test(arguments: 0..<badTimes.count)
  func aStoredTimeNoListingTakesIs65ForEveryReaderThatMeetsIt(index: Int) throws {
    let (time, says) = Self.badTimes[index]
    let (server, name, store, _) = try store()
    try server.sql(
      "UPDATE shop_orders SET placed_at = '\(time)', ref = 'bad' WHERE number = 1045",
      database: name)
    let reads: [(String, () throws -> Void)] = [
      ("all", { try store.readAll { _ in } }), ("last", { try store.last(50) { _ in } }),
      ("number", { _ = try store.order(numbered: 1045) { _ in } }),
      ("ref", { _ = try store.order(referenced: #require(Reference("bad"))) { _ in } }),
      ("range", { try store.orders(in: .all, last: nil) { _ in } }),
      ("range last", { try store.orders(in: .all, last: 50) { _ in } }),
      ("summary", { _ = try store.summary(of: .all, by: .none) }),
      ("summary by day", { _ = try store.summary(of: .all, by: .day) }),
      ("summary by sku", { _ = try store.summary(of: .all, by: .sku) }),
    ]
    for (what, read) in reads {
      let error = #expect(throws: PostgresError.self, "\(time) \(what)") { try read() }
      #expect(error?.status == .dataError, "\(time) \(what): \(String(describing: error))")
      #expect(
        error?.message.contains("order 1045: \(says)") == true,
        "\(time) \(what): \(String(describing: error))")
    }
    // A range that leaves the row out lists and sums without it.
    let before = TimeRange(since: nil, until: Timestamp(secondsSince1970: Self.midnight))
    if time.hasPrefix("2026") {
      var listed = 0
      try store.orders(in: before, last: nil) { _ in listed += 1 }
      #expect(try store.summary(of: before, by: .day).totals.orders == listed)
    }
  }
}
