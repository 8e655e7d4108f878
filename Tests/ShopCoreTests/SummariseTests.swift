import ShopTestSupport
import Testing

@testable import ShopCore

/// A history in an array, with the default range and summary of ``OrderHistory``.
final class ArrayHistory: OrderHistory {
  let orders: [Order]

  init(_ orders: [Order]) {
    self.orders = orders
  }

  func readAll(_ visit: (Order) throws -> Void) throws {
    for order in orders { try visit(order) }
  }

  func count() -> Int { orders.count }

  func last(_ count: Int, _ visit: (Order) throws -> Void) throws {
    for order in orders.suffix(count) { try visit(order) }
  }

  func order(numbered number: Int, _ visit: (Order) throws -> Void)
    throws -> Bool
  {
    guard let order = orders.first(where: { $0.number == number }) else { return false }
    try visit(order)
    return true
  }

  func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    guard let order = orders.first(where: { $0.reference == reference }) else { return false }
    try visit(order)
    return true
  }
}

/// A summary report that writes down what it is told.
final class RecordingSummaryReport: SummaryReport {
  private(set) var told: [(Summary, Summary.Grouping)] = []

  func report(_ summary: Summary, by grouping: Summary.Grouping) {
    told.append((summary, grouping))
  }
}

/// SplitMix64: the same numbers on every run and machine.
struct Seeded {
  var state: UInt64

  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}

struct SummariseTests {
  /// 2026-11-30T00:00:00Z.
  static let midnight: Int64 = 1_795_996_800

  /// `count` orders over three days, a few seconds to hours apart, never going back in time,
  /// some of them placed exactly at a midnight.
  static func orders(_ count: Int, seed: UInt64) -> [Order] {
    var random = Seeded(state: seed)
    var time = midnight - 3600
    var orders: [Order] = []
    let skus = ["pen", "lamp", "desk", "ink"]
    for index in 0..<count {
      time += Int64(random.next(4) == 0 ? 0 : random.next(9000))
      if index == count / 2 { time = midnight + 86400 }  // One order on the boundary itself.
      var lines: [OrderLine] = []
      for sku in skus where random.next(3) == 0 || lines.isEmpty && sku == "ink" {
        lines.append(OrderLine(sku: sku, quantity: random.next(5) + 1, price: random.next(300)))
      }
      guard
        let draft = Draft(lines: lines, placedAt: Timestamp(secondsSince1970: time))
      else { continue }
      orders.append(Order(number: Order.firstNumber + orders.count, draft: draft))
    }
    return orders
  }

  /// The sums the slow, obvious way.
  static func expected(_ orders: [Order], _ range: TimeRange) -> Summary {
    let kept = orders.filter { order in
      (range.since.map { order.placedAt.secondsSince1970 >= $0.secondsSince1970 } ?? true)
        && (range.until.map { order.placedAt.secondsSince1970 < $0.secondsSince1970 } ?? true)
    }
    func totals(_ orders: [Order]) -> Summary.Totals {
      Summary.Totals(
        orders: orders.count, total: orders.map(\.total).reduce(0, +),
        payable: orders.map(\.payable).reduce(0, +))
    }
    let dayNumbers = Set(kept.map { $0.placedAt.secondsSince1970 / 86400 }).sorted()
    let days = dayNumbers.map { day in
      Summary.Day(
        start: Timestamp(secondsSince1970: day * 86400),
        totals: totals(kept.filter { $0.placedAt.secondsSince1970 / 86400 == day }))
    }
    let skus = Set(kept.flatMap { $0.lines.map(\.sku) }).sorted()
    let sales = skus.map { sku in
      let lines = kept.flatMap { $0.lines.filter { $0.sku == sku } }
      return Summary.Sales(
        sku: sku, quantity: lines.map(\.quantity).reduce(0, +),
        revenue: lines.map { $0.price * $0.quantity }.reduce(0, +),
        orders: kept.filter { $0.lines.contains { $0.sku == sku } }.count)
    }
    return Summary(totals: totals(kept), days: days, sales: sales)
  }

  @Test(arguments: [0, 1, 2, 40, 400])
  func theSumsAreTheSumsOfTheOrdersInTheRange(count: Int) throws {
    let orders = SummariseTests.orders(count, seed: UInt64(count) + 7)
    let history = ArrayHistory(orders)
    var random = Seeded(state: 99)
    let times = orders.map(\.placedAt.secondsSince1970)
    let edges = [SummariseTests.midnight, SummariseTests.midnight + 86400] + times.prefix(5)
    var ranges = [TimeRange.all]
    for _ in 0..<30 {
      // Bounds on order times, on midnights, and anywhere; open on either side.
      func bound() -> Timestamp? {
        switch random.next(4) {
        case 0: return nil
        case 1:
          return edges.isEmpty ? nil : Timestamp(secondsSince1970: edges[random.next(edges.count)])
        default:
          return Timestamp(
            secondsSince1970: SummariseTests.midnight - 7200 + Int64(random.next(4 * 86400)))
        }
      }
      ranges.append(TimeRange(since: bound(), until: bound()))
    }
    for range in ranges {
      let expected = SummariseTests.expected(orders, range)
      #expect(try history.summary(of: range, by: .none).totals == expected.totals, "\(range)")
      let byDay = try history.summary(of: range, by: .day)
      #expect(byDay.days == expected.days, "\(range)")
      #expect(byDay.totals == expected.totals)
      #expect(byDay.sales.isEmpty)
      #expect(try history.summary(of: range, by: .sku).sales == expected.sales, "\(range)")
    }
  }

  @Test func aDayRunsFromItsMidnightUTCToTheNext() {
    let day = { (seconds: Int64) in Summary.day(of: Timestamp(secondsSince1970: seconds)) }
    let midnight = SummariseTests.midnight
    #expect(day(midnight) == Timestamp(secondsSince1970: midnight))
    #expect(day(midnight - 1) == Timestamp(secondsSince1970: midnight - 86400))
    #expect(day(midnight + 86399) == Timestamp(secondsSince1970: midnight))
    #expect(day(midnight + 86400) == Timestamp(secondsSince1970: midnight + 86400))
    // Before 1970 a day still starts at its midnight, not at the next one.
    #expect(day(-1) == Timestamp(secondsSince1970: -86400))
    #expect(day(-86400) == Timestamp(secondsSince1970: -86400))
  }

  @Test func twoOrdersEitherSideOfMidnightAreTwoDays() throws {
    let orders = [SummariseTests.midnight - 1, SummariseTests.midnight].enumerated().compactMap {
      index, time in
      Draft(
        lines: [OrderLine(sku: "lamp", quantity: 2, price: 190)],
        placedAt: Timestamp(secondsSince1970: time)
      ).map { Order(number: 1001 + index, draft: $0) }
    }
    let summary = try ArrayHistory(orders).summary(of: .all, by: .day)
    #expect(
      summary.days.map(\.start.secondsSince1970) == [
        SummariseTests.midnight - 86400, SummariseTests.midnight,
      ])
    #expect(
      summary.days.map(\.totals) == [
        Summary.Totals(orders: 1, total: 380, payable: 342),
        Summary.Totals(orders: 1, total: 380, payable: 342),
      ])
    #expect(summary.totals.discount == 76)
  }

  @Test func aSumTooLargeIsRefusedNamingTheOrderNeverWrapped() throws {
    let half = Int.max / 2 + 1
    let drafts = [half, half].compactMap {
      Draft(
        lines: [OrderLine(sku: "gold", quantity: 1, price: $0)],
        placedAt: Timestamp(secondsSince1970: 0))
    }
    let orders = drafts.enumerated().map { Order(number: 1001 + $0.offset, draft: $0.element) }
    for grouping in [Summary.Grouping.none, .day, .sku] {
      #expect(throws: SummaryTooLarge(number: 1002)) {
        try ArrayHistory(orders).summary(of: .all, by: grouping)
      }
    }
    #expect(SummaryTooLarge(number: 1002).status == .dataError)
    // One order alone fits.
    #expect(try ArrayHistory([orders[0]]).summary(of: .all, by: .sku).sales.first?.revenue == half)
  }

  @Test func aSKUListedTwiceInAStoredOrderCountsThatOrderOnce() throws {
    let lines = [
      OrderLine(sku: "pen", quantity: 1, price: 30), OrderLine(sku: "pen", quantity: 2, price: 30),
    ]
    let draft = try #require(Draft(lines: lines, placedAt: Timestamp(secondsSince1970: 0)))
    let sales = try ArrayHistory([Order(number: 1001, draft: draft)]).summary(of: .all, by: .sku)
      .sales
    #expect(sales == [Summary.Sales(sku: "pen", quantity: 3, revenue: 90, orders: 1)])
  }

  @Test func theUseCaseReportsWhatTheHistorySums() throws {
    let orders = SummariseTests.orders(50, seed: 3)
    let report = RecordingSummaryReport()
    let range = TimeRange(
      since: Timestamp(secondsSince1970: SummariseTests.midnight), until: nil)
    try Summarise(history: ArrayHistory(orders), report: report, by: .day).summarise(range)
    #expect(report.told.count == 1)
    #expect(report.told.first?.0 == SummariseTests.expected(orders, range).withoutSales)
    #expect(report.told.first?.1 == .day)
  }
}

extension Summary {
  var withoutSales: Summary { Summary(totals: totals, days: days) }
}

/// The range and the stamping rule that keeps a store's times in order.
struct TimeRangeTests {
  let time = Timestamp(secondsSince1970: 1_795_996_800)

  @Test func aRangeHoldsItsStartAndNotItsEnd() {
    let later = Timestamp(secondsSince1970: time.secondsSince1970 + 60)
    let range = TimeRange(since: time, until: later)
    #expect(range.contains(time))
    #expect(range.contains(Timestamp(secondsSince1970: later.secondsSince1970 - 1)))
    #expect(!range.contains(later))
    #expect(!range.contains(Timestamp(secondsSince1970: time.secondsSince1970 - 1)))
    #expect(TimeRange(since: nil, until: later).contains(Timestamp(secondsSince1970: .min)))
    #expect(TimeRange(since: time, until: nil).contains(Timestamp(secondsSince1970: .max)))
    #expect(TimeRange.all.isAll && !range.isAll)
  }

  @Test func aDraftIsStampedNoEarlierThanTheOrderBeforeIt() throws {
    let draft = try #require(
      Draft(lines: [OrderLine(sku: "pen", quantity: 2, price: 30)], placedAt: time))
    let earlier = Timestamp(secondsSince1970: time.secondsSince1970 - 5)
    let later = Timestamp(secondsSince1970: time.secondsSince1970 + 5)
    #expect(draft.stamped(notBefore: nil) == draft)
    #expect(draft.stamped(notBefore: earlier) == draft)
    #expect(draft.stamped(notBefore: time) == draft)
    let raised = draft.stamped(notBefore: later)
    #expect(raised.placedAt == later)
    #expect(raised.lines == draft.lines && raised.total == draft.total)
  }

  @Test(arguments: [1, 2, 7, 39, 40, 1000])
  func theNewestOfARangeAreTheLastOfItsOrders(last: Int) throws {
    let orders = SummariseTests.orders(60, seed: 11)
    let history = ArrayHistory(orders)
    let range = TimeRange(
      since: Timestamp(secondsSince1970: SummariseTests.midnight),
      until: Timestamp(secondsSince1970: SummariseTests.midnight + 86400))
    let inRange = orders.filter { range.contains($0.placedAt) }
    var listed: [Int] = []
    try history.orders(in: range, last: last) { order in listed.append(order.number) }
    #expect(listed == inRange.suffix(last).map(\.number))
    var all: [Int] = []
    try history.orders(in: range, last: nil) { order in all.append(order.number) }
    #expect(all == inRange.map(\.number))
  }
}
