import Testing

@testable import ShopCore

/// The tally of `shop summary`: what is counted, what is summed, how rows are grouped.
struct TallyTests {
  /// 2026-11-30T00:00:00Z.
  let midnight: Int64 = 1_795_996_800

  func order(
    _ number: Int, _ items: KeyValuePairs<String, (Int, Int)>, at offset: Int64 = 0,
    voidedBy: Int? = nil
  ) throws -> Order {
    let lines = items.map { OrderLine(sku: $0.key, quantity: $0.value.0, price: $0.value.1) }
    let draft = try #require(
      Draft(lines: lines, placedAt: Timestamp(secondsSince1970: midnight + offset)))
    return Order(number: number, draft: draft).voided(by: voidedBy)
  }

  func tally(_ orders: [Order], by grouping: Summary.Grouping) throws -> Summary {
    var tally = SummaryTally(by: grouping)
    for order in orders { try tally.add(order) }
    return tally.summary
  }

  @Test func theTotalsAreCountsAndSumsOfTotalsAndPayables() throws {
    let orders = [
      try order(1001, ["pen": (2, 30)]),  // 60, pays 60
      try order(1002, ["lamp": (1, 190), "pen": (1, 30)]),  // 220, pays 198
      try order(1003, ["lamp": (1, 200)]),  // 200, pays 180
    ]
    let summary = try tally(orders, by: .none)
    #expect(summary.totals == Summary.Totals(orders: 3, voided: 0, total: 480, payable: 438))
    #expect(summary.totals.discount == 42)
    #expect(summary.days.isEmpty && summary.sales.isEmpty)
  }

  @Test func nothingTalliedIsAllZeros() throws {
    for grouping in [Summary.Grouping.none, .day, .sku] {
      let summary = try tally([], by: grouping)
      #expect(summary == Summary(totals: Summary.Totals()))
      #expect(summary.totals.discount == 0)
    }
  }

  /// A void record adds nothing; the order it took back is counted, and voided, in no sum and
  /// in no SKU's sales, on the day it was placed.
  @Test func aVoidedOrderIsCountedAsVoidedAndSummedNowhere() throws {
    let kept = try order(1001, ["pen": (1, 30)])
    let voided = try order(1002, ["lamp": (1, 190)], at: 86400, voidedBy: 1003)
    let record = Order(
      number: 1003,
      draft: Draft(voiding: 1002, placedAt: Timestamp(secondsSince1970: midnight + 2 * 86400)))
    let orders = [kept, voided, record]
    let totals = Summary.Totals(orders: 2, voided: 1, total: 30, payable: 30)
    #expect(try tally(orders, by: .none).totals == totals)
    let byDay = try tally(orders, by: .day)
    #expect(byDay.totals == totals)
    #expect(
      byDay.days == [
        Summary.Day(
          start: Timestamp(secondsSince1970: midnight),
          totals: Summary.Totals(orders: 1, total: 30, payable: 30)),
        Summary.Day(
          start: Timestamp(secondsSince1970: midnight + 86400),
          totals: Summary.Totals(orders: 1, voided: 1)),
      ])
    #expect(
      try tally(orders, by: .sku).sales == [
        Summary.Sales(sku: "pen", quantity: 1, revenue: 30, orders: 1)
      ])
  }

  /// Sales are by SKU in byte order (capitals first), before any order's discount, each order
  /// counted once per SKU it holds.
  @Test func salesAreBySKUInByteOrderBeforeDiscount() throws {
    let orders = [
      try order(1001, ["pen": (2, 30), "Lamp": (1, 190)]),
      try order(1002, ["pen": (1, 35), "ink": (3, 7)]),
      try order(1003, ["ink": (1, 7)]),
    ]
    #expect(
      try tally(orders, by: .sku).sales == [
        Summary.Sales(sku: "Lamp", quantity: 1, revenue: 190, orders: 1),
        Summary.Sales(sku: "ink", quantity: 4, revenue: 28, orders: 2),
        Summary.Sales(sku: "pen", quantity: 3, revenue: 95, orders: 2),
      ])
    // The revenue is the lines' sum; the discount of order 1001 (250 → 225) is in the totals.
    let totals = try tally(orders, by: .sku).totals
    #expect(totals.total == 313 && totals.payable == 288 && totals.discount == 25)
  }

  /// Days are UTC days, oldest first, whatever order the orders come in, and a day with no
  /// order has no row.
  @Test func daysAreUTCDaysOldestFirstWithNoEmptyDays() throws {
    let orders = [
      try order(1001, ["pen": (1, 30)], at: 3 * 86400 + 5),
      try order(1002, ["pen": (1, 30)], at: -1),
      try order(1003, ["pen": (1, 30)], at: 0),
      try order(1004, ["pen": (1, 30)], at: 86399),
    ]
    let days = try tally(orders, by: .day).days
    #expect(
      days.map(\.start.secondsSince1970) == [midnight - 86400, midnight, midnight + 3 * 86400])
    #expect(days.map(\.totals.orders) == [1, 2, 1])
  }

  /// The first sum past `Int.max` stops the tally at the order that took it there.
  @Test func aSumPastIntMaxNamesTheOrderThatTookItThere() throws {
    let big = Int.max / 2 + 1
    let two = [try order(1001, ["gold": (1, big)]), try order(1002, ["gold": (1, big)])]
    for grouping in [Summary.Grouping.none, .day, .sku] {
      #expect(throws: SummaryTooLarge(number: 1002)) { try tally(two, by: grouping) }
    }
    // A voided order is in no sum, so it can't take one past the limit.
    let oneVoided = [two[0], try order(1002, ["gold": (1, big)], voidedBy: 1003)]
    for grouping in [Summary.Grouping.none, .day, .sku] {
      #expect(try tally(oneVoided, by: grouping).totals.total == big)
    }
    #expect(SummaryTooLarge(number: 7).description.contains("order 7"))
  }
}
