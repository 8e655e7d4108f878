import ShopCore
import ShopTestSupport
import Testing

/// The price of an order: the sum of price × quantity, checked, and 10% off (integer division)
/// from a total of 200 on.
struct PricingTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  /// Every total from 0 to 2,000 against the rule written out the long way.
  @Test func payableIsTheTotalBelow200AndTheTotalLessATenthFrom200On() {
    for total in 0...2000 {
      let expected = total < 200 ? total : total - total / 10
      #expect(Order.payable(total: total) == expected, "total \(total)")
      #expect(Order.payable(total: total) <= total)
    }
  }

  /// The boundary from both sides and exactly at it, and what integer division does to the
  /// tenth: it is rounded down, so the customer never pays a fraction.
  @Test(arguments: [
    (198, 198), (199, 199), (200, 180), (201, 181), (209, 189), (210, 189), (211, 190),
    (219, 198), (220, 198), (225, 203), (1000, 900), (1009, 909),
  ])
  func theDiscountBoundary(total: Int, payable: Int) throws {
    #expect(Order.payable(total: total) == payable)
    let draft = try #require(
      Draft(lines: [OrderLine(sku: "thing", quantity: 1, price: total)], placedAt: time))
    #expect(Order(number: 1001, draft: draft).payable == payable)
  }

  /// The discount is on the whole order, not on a line: two lines of 100 reach it together.
  @Test func theDiscountIsOnTheOrdersTotalNotOnALine() throws {
    let lines = [
      OrderLine(sku: "pen", quantity: 1, price: 100),
      OrderLine(sku: "ink", quantity: 1, price: 100),
    ]
    let draft = try #require(Draft(lines: lines, placedAt: time))
    #expect(draft.total == 200)
    #expect(Order(number: 1001, draft: draft).payable == 180)
    let fewer = try #require(Draft(lines: [lines[0]], placedAt: time))
    #expect(Order(number: 1001, draft: fewer).payable == 100)
  }

  /// Near `Int.max` the payable amount is computed without overflow and is still below the total.
  @Test(arguments: [Int.max, Int.max - 1, Int.max / 10 * 10, 1 << 62])
  func thePayableOfAHugeTotalDoesNotOverflow(total: Int) {
    let payable = Order.payable(total: total)
    #expect(payable == total - total / 10)
    #expect(payable < total && payable > 0)
  }

  @Test func aDraftsTotalIsTheSumOfPriceTimesQuantity() throws {
    var random = SplitMix(seed: 32)
    for _ in 0..<200 {
      let lines = (0..<random.next(below: 6) + 1).map { index in
        OrderLine(
          sku: "sku-\(index)", quantity: random.next(below: 1000) + 1,
          price: random.next(below: 100_000))
      }
      let draft = try #require(Draft(lines: lines, placedAt: time))
      #expect(draft.total == lines.reduce(0) { $0 + $1.price * $1.quantity })
      #expect(draft.lines == lines && draft.voids == nil && draft.reference == nil)
    }
    let free = try #require(
      Draft(lines: [OrderLine(sku: "leaflet", quantity: 3, price: 0)], placedAt: time))
    #expect(free.total == 0)
  }

  /// A product or a sum past `Int.max` is no draft at all, never a wrapped total.
  @Test func aTotalThatDoesNotFitIsNoDraft() {
    let exactly = [OrderLine(sku: "gold", quantity: 1, price: Int.max)]
    #expect(Draft(lines: exactly, placedAt: time)?.total == Int.max)
    let product = [OrderLine(sku: "gold", quantity: 2, price: Int.max / 2 + 1)]
    #expect(Draft(lines: product, placedAt: time) == nil)
    let sum = [
      OrderLine(sku: "gold", quantity: 1, price: Int.max),
      OrderLine(sku: "pen", quantity: 1, price: 1),
    ]
    #expect(Draft(lines: sum, placedAt: time) == nil)
    let justFits = [
      OrderLine(sku: "gold", quantity: 1, price: Int.max - 30),
      OrderLine(sku: "pen", quantity: 1, price: 30),
    ]
    #expect(Draft(lines: justFits, placedAt: time)?.total == Int.max)
  }

  /// The use case prices each item at the catalog's price when the order is placed, and the
  /// order keeps that price.
  @Test func anOrderKeepsThePriceItWasPlacedAt() throws {
    let orders = FakeOrders()
    let place = { (prices: [String: Int]) in
      PlaceOrder(
        catalog: FakeCatalog(prices: prices), orders: orders, clock: FixedClock(time: self.time),
        report: SilentReport())
    }
    _ = try place(["pen": 30, "lamp": 190]).place(try Cart(["lamp": 1, "pen": 1]))
    _ = try place(["pen": 35, "lamp": 150]).place(try Cart(["lamp": 1, "pen": 1]))
    #expect(
      orders.saved.map(\.lines) == [
        [
          OrderLine(sku: "lamp", quantity: 1, price: 190),
          OrderLine(sku: "pen", quantity: 1, price: 30),
        ],
        [
          OrderLine(sku: "lamp", quantity: 1, price: 150),
          OrderLine(sku: "pen", quantity: 1, price: 35),
        ],
      ])
    #expect(orders.saved.map(\.total) == [220, 185])
    #expect(orders.saved.map(\.payable) == [198, 185])
  }
}
