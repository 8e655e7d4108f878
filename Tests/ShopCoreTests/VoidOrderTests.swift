import ShopCore
import ShopTestSupport
import Testing

/// The void use case, through a small root of fakes, as the root (Sources/shop/Root.swift) builds the real one.
struct VoidOrderTests {
  let noon = Timestamp(secondsSince1970: 1_796_040_000)

  /// A store of three orders (1001 with ref web-1), the void use case over it, and its report.
  func makeRoot() throws -> (VoidOrder, FakeOrders, RecordingVoidReport) {
    let orders = FakeOrders()
    let place = PlaceOrder(
      catalog: FakeCatalog(prices: ["pen": 30, "lamp": 190]), orders: orders,
      clock: FixedClock(time: noon), report: SilentReport())
    _ = try place.place(try Cart(["pen": 2]), reference: Reference("web-1"))
    _ = try place.place(try Cart(["lamp": 1]))
    _ = try place.place(try Cart(["pen": 1, "lamp": 2]))
    let report = RecordingVoidReport()
    let later = FixedClock(time: Timestamp(secondsSince1970: noon.secondsSince1970 + 60))
    return (VoidOrder(orders: orders, clock: later, report: report), orders, report)
  }

  @Test func aVoidIsARecordNumberedAfterTheLastThatNamesTheOrder() throws {
    let (void, orders, report) = try makeRoot()
    let outcome = try void.void(1002)
    guard case .voided(let record) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(record.number == 1004 && record.voids == 1002 && record.lines.isEmpty)
    #expect(record.placedAt.secondsSince1970 == noon.secondsSince1970 + 60)
    #expect(orders.saved.count == 4 && orders.saved.last == record)
    #expect(report.outcomes == [outcome] && report.flushes == 1)
  }

  @Test func aSecondVoidOfAnOrderSavesNothingAndSaysItWasVoid() throws {
    let (void, orders, _) = try makeRoot()
    _ = try void.void(1002)
    let again = try void.void(1002)
    guard case .alreadyVoid(let order) = again else {
      Issue.record("\(again)")
      return
    }
    #expect(order.number == 1002 && order.voidedBy == 1004 && orders.saved.count == 4)
  }

  @Test func noSuchOrderAndAVoidOfAVoidAreRefused() throws {
    let (void, orders, _) = try makeRoot()
    for number in [0, 1000, 1005, Int.max, Int.min] {
      #expect(try void.void(number) == .noOrder(number))
    }
    _ = try void.void(1001)
    guard case .notAnOrder(let record) = try void.void(1004) else {
      Issue.record("a void of a void was not refused")
      return
    }
    #expect(record.voids == 1001 && orders.saved.count == 4)
  }

  @Test func aRefMakesARerunSafeAndIsHeldOnceForever() throws {
    let (void, orders, _) = try makeRoot()
    let undo = try #require(Reference("undo-1"))
    guard case .voided(let first) = try void.void(1003, reference: undo) else {
      Issue.record("not voided")
      return
    }
    #expect(first.reference == undo)
    // The rerun: the same order under the same ref.
    guard case .alreadyVoid(let order) = try void.void(1003, reference: undo) else {
      Issue.record("the rerun was not answered as already void")
      return
    }
    #expect(order.voidedBy == first.number)
    // The same ref for another order, or a ref an order holds: refused, nothing saved.
    #expect(try void.void(1002, reference: undo) == .conflict(undo, first))
    let web = try #require(Reference("web-1"))
    guard case .conflict(web, let held) = try void.void(1002, reference: web) else {
      Issue.record("an order's ref was taken by a void")
      return
    }
    #expect(held.number == 1001 && orders.saved.count == 4)
  }

  @Test func aFailedReportOfASavedVoidSaysWhatWasSaved() throws {
    let orders = FakeOrders()
    _ = try orders.place([
      try #require(Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: noon))
    ])
    let void = VoidOrder(orders: orders, clock: FixedClock(time: noon), report: FailingVoidReport())
    #expect {
      try void.void(1001)
    } throws: { error in
      (error as? ReportFailed)?.lastSaved == 1002
    }
    #expect(orders.saved.count == 2)
  }

  @Test func theSummaryCountsAVoidedOrderOnItsDayAndInNoSum() throws {
    let (void, orders, _) = try makeRoot()
    _ = try void.void(1003)
    var tally = SummaryTally(by: .none)
    var byDay = SummaryTally(by: .day)
    var bySKU = SummaryTally(by: .sku)
    let voided: [Int: Int] = [1003: 1004]
    for record in orders.saved {
      let marked = record.voided(by: voided[record.number])
      try tally.add(marked)
      try byDay.add(marked)
      try bySKU.add(marked)
    }
    #expect(tally.summary.totals == Summary.Totals(orders: 3, voided: 1, total: 250, payable: 250))
    #expect(byDay.summary.days.map(\.totals) == [tally.summary.totals])
    #expect(
      bySKU.summary.sales == [
        Summary.Sales(sku: "lamp", quantity: 1, revenue: 190, orders: 1),
        Summary.Sales(sku: "pen", quantity: 2, revenue: 60, orders: 1),
      ])
  }
}

final class FailingVoidReport: VoidReport {
  struct Failed: Error {}
  func report(_ outcome: VoidOutcome) {}
  func flush() throws { throw Failed() }
}
