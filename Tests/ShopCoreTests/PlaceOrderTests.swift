import ShopCore
import ShopTestSupport
import Testing

/// Each test builds its own small composition root from fakes, as `runShop` builds the real one.
struct PlaceOrderTests {
  let noon = Timestamp(secondsSince1970: 1_796_040_000)

  func makeRoot(
    prices: [String: Int] = ["pen": 30, "lamp": 190], report: any Report,
    orders: FakeOrders = FakeOrders()
  ) -> PlaceOrder {
    PlaceOrder(
      catalog: FakeCatalog(prices: prices), orders: orders, clock: FixedClock(time: noon),
      report: report)
  }

  @Test func theSeedScenarioLoudThenQuiet() throws {
    let loudReport = RecordingReport()
    let loud = makeRoot(report: loudReport)
    _ = try loud.place(Cart(["pen": 2, "lamp": 1]))
    _ = try loud.place(Cart(["chair": 1]))
    #expect(loudReport.outcomes.count == 2)
    guard case .placed(let order) = loudReport.outcomes.first?.outcome else {
      Issue.record("the first order was not placed")
      return
    }
    #expect(order.number == 1001)
    #expect(order.payable == 225)
    #expect(loudReport.outcomes.last?.outcome == .unknown(["chair"]))

    // A second root builds the same use case with a report that says nothing.
    let nightOrders = FakeOrders()
    let night = makeRoot(report: SilentReport(), orders: nightOrders)
    let outcome = try night.place(Cart(["lamp": 1]))
    #expect(nightOrders.saved.count == 1)
    #expect(outcome == .placed(try #require(nightOrders.saved.first)))
    #expect(nightOrders.saved.first?.number == 1001)
  }

  @Test(arguments: [(199, 199), (200, 180), (201, 181), (0, 0), (250, 225)])
  func discountStartsAtTwoHundred(total: Int, payable: Int) throws {
    let report = RecordingReport()
    let root = makeRoot(prices: ["thing": total], report: report)
    guard case .placed(let order) = try root.place(Cart(["thing": 1])) else {
      Issue.record("not placed")
      return
    }
    #expect(order.total == total)
    #expect(order.payable == payable)
  }

  @Test func numbersStartAt1001AndCountUp() throws {
    let orders = FakeOrders()
    let root = makeRoot(report: RecordingReport(), orders: orders)
    for _ in 0..<3 { _ = try root.place(Cart(["pen": 1])) }
    #expect(orders.saved.map(\.number) == [1001, 1002, 1003])
    #expect(Order.number(after: nil) == 1001)
    #expect(Order.number(after: Int.max) == nil)
  }

  @Test func duplicateSKUsAddUp() throws {
    let orders = FakeOrders()
    _ = try makeRoot(report: RecordingReport(), orders: orders).place(Cart(["pen": 1, "pen": 1]))
    #expect(orders.saved.first?.lines == [OrderLine(sku: "pen", quantity: 2, price: 30)])
    #expect(orders.saved.first?.total == 60)
  }

  @Test func unknownSKUsAreNamedOnceInTheGivenOrderAndNothingIsSaved() throws {
    let orders = FakeOrders()
    let report = RecordingReport()
    let outcome = try makeRoot(report: report, orders: orders)
      .place(Cart(["desk": 1, "pen": 1, "chair": 2, "desk": 3]))
    #expect(outcome == .unknown(["desk", "chair"]))
    #expect(report.outcomes.map(\.outcome) == [.unknown(["desk", "chair"])])
    #expect(orders.saved.isEmpty)
    #expect(orders.saveCalls == 0)
  }

  @Test func aTotalThatOverflowsIsRefusedNotTrapped() throws {
    let orders = FakeOrders()
    let report = RecordingReport()
    let root = makeRoot(prices: ["gold": Int.max, "pen": 30], report: report, orders: orders)
    #expect(try root.place(Cart(["gold": 2])) == .tooLarge)
    #expect(try root.place(Cart(["gold": 1, "pen": 1])) == .tooLarge)
    #expect(orders.saved.isEmpty)
    #expect(report.outcomes.isEmpty, "for one order the caller reports the error")
  }

  @Test func aBatchGroupIsOneSaveAndReportsEveryLineInOrder() throws {
    let orders = FakeOrders()
    let report = RecordingReport()
    let root = makeRoot(prices: ["pen": 30, "gold": Int.max], report: report, orders: orders)
    let requests = [
      Request(line: 1, cart: .success(try Cart(["pen": 1]))),
      Request(line: 2, cart: .failure(.badQuantity("'pen=0'"))),
      Request(line: 4, cart: .success(try Cart(["chair": 1]))),
      Request(line: 5, cart: .success(try Cart(["gold": 2]))),
      Request(line: 6, cart: .success(try Cart(["pen": 2]))),
    ]
    let rejected = try root.place(requests)
    #expect(rejected.rejected == 3)
    #expect(rejected.lastNumber == 1002)
    #expect(orders.saveCalls == 1)
    #expect(orders.saved.map(\.number) == [1001, 1002])
    #expect(report.outcomes.map(\.line) == [1, 2, 4, 5, 6])
    #expect(
      report.outcomes.map(\.outcome) == [
        .placed(orders.saved[0]), .malformed(.badQuantity("'pen=0'")), .unknown(["chair"]),
        .tooLarge, .placed(orders.saved[1]),
      ])
    #expect(report.flushes == 1)
  }

  @Test func aStoreThatFailsLeavesNothingReported() throws {
    let orders = FailingOrders()
    let report = RecordingReport()
    let root = PlaceOrder(
      catalog: FakeCatalog(prices: ["pen": 1]), orders: orders, clock: FixedClock(time: noon),
      report: report)
    #expect(throws: FakeStoreFull.self) { try root.place(Cart(["pen": 1])) }
    let group = [Request(line: 1, cart: .success(try Cart(["pen": 2])))]
    #expect(throws: FakeStoreFull.self) { try root.place(group) }
    // The store was asked each time, refused, and nothing reached the report.
    #expect(orders.saveCalls == 2)
    #expect(report.outcomes.isEmpty)
    #expect(report.flushes == 0)
  }
}

/// A store that refuses every save, and counts how often it was asked.
final class FailingOrders: Orders {
  private(set) var saveCalls = 0

  func place(_ drafts: [Draft]) throws -> [Placement] {
    saveCalls += 1
    throw FakeStoreFull()
  }

  /// Nothing is ever saved, so no reference is held.
  func order(holding reference: Reference) -> Order? { nil }
}
