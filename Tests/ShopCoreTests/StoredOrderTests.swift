import ShopCore
import Testing

/// The rules every store checks a stored order against, and numbers its drafts by.
struct StoredOrderTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func stored(
    _ lines: [OrderLine], total: Int, payable: Int, number: Int = 1001
  ) -> Result<Order, Order.StoredProblem> {
    Result { () throws(Order.StoredProblem) in
      try Order(
        stored: number, lines: lines, total: total, payable: payable, placedAt: time,
        reference: Reference("web-1"))
    }
  }

  /// Every total around the discount's threshold, with one payable right and its neighbours
  /// wrong, and totals one off the sum of the items.
  @Test func aStoredOrderIsAcceptedOnlyWithItsOwnTotalAndPayable() throws {
    for price in 0...250 {
      let lines = [OrderLine(sku: "pen", quantity: 1, price: price)]
      let total = price
      let payable = Order.payable(total: total)
      let order = try stored(lines, total: total, payable: payable).get()
      #expect(order.total == total && order.payable == payable && order.lines == lines)
      #expect(order.reference == Reference("web-1") && order.placedAt == time)
      for wrong in [payable - 1, payable + 1] {
        #expect(stored(lines, total: total, payable: wrong) == .failure(.totalsDoNotMatch))
      }
      for wrong in [total - 1, total + 1] {
        let payable = Order.payable(total: wrong)
        #expect(stored(lines, total: wrong, payable: payable) == .failure(.totalsDoNotMatch))
      }
    }
  }

  @Test func aStoredOrderNeedsANumberFrom1001ItemsAndATotalThatFits() {
    let pen = OrderLine(sku: "pen", quantity: 2, price: 30)
    #expect(stored([pen], total: 60, payable: 60, number: 1000) == .failure(.numberBelowFirst))
    #expect(stored([pen], total: 60, payable: 60, number: Int.min) == .failure(.numberBelowFirst))
    #expect((try? stored([pen], total: 60, payable: 60, number: Int.max).get())?.number == Int.max)
    #expect(stored([], total: 0, payable: 0) == .failure(.badItems))
    let free = OrderLine(sku: "pen", quantity: 0, price: 30)
    #expect(stored([free], total: 0, payable: 0) == .failure(.badItems))
    let negative = OrderLine(sku: "pen", quantity: 1, price: -30)
    #expect(stored([negative], total: -30, payable: -30) == .failure(.badItems))
    let huge = OrderLine(sku: "pen", quantity: 2, price: Int.max)
    #expect(stored([huge], total: Int.max, payable: Int.max) == .failure(.totalsDoNotMatch))
    // The number is checked first: a reader reports it before anything else is read.
    #expect(stored([], total: 1, payable: 2, number: 7) == .failure(.numberBelowFirst))
  }

  @Test func aNumberFollowsOnlyTheOneBeforeItByOne() {
    #expect(Order.isNumber(1001, after: nil))
    for wrong in [1000, 1002, Int.max, Int.min, 0] { #expect(!Order.isNumber(wrong, after: nil)) }
    for previous in [1001, 4711, Int.max - 1] {
      #expect(Order.isNumber(previous + 1, after: previous))
      for wrong in [previous, previous - 1] + (previous < Int.max - 1 ? [previous + 2] : []) {
        #expect(!Order.isNumber(wrong, after: previous))
      }
    }
    for number in [Int.min, 1001, Int.max] { #expect(!Order.isNumber(number, after: Int.max)) }
  }

  @Test func draftsAreNumberedInTurnAfterTheLastUpToIntMax() throws {
    let drafts = try (1...3).map { quantity in
      try #require(
        Draft(lines: [OrderLine(sku: "pen", quantity: quantity, price: 30)], placedAt: time))
    }
    #expect(try Order.numbered(drafts, after: nil).map(\.number) == [1001, 1002, 1003])
    #expect(try Order.numbered(drafts, after: 4711).map(\.number) == [4712, 4713, 4714])
    #expect(try Order.numbered(drafts, after: nil).map(\.lines) == drafts.map(\.lines))
    #expect(try Order.numbered([], after: Int.max).isEmpty)
    #expect(try Order.numbered(drafts, after: Int.max - 3).last?.number == Int.max)
    // The store's last order, which the drafts were to follow.
    #expect(throws: OrdersFull(last: Int.max - 2)) {
      try Order.numbered(drafts, after: Int.max - 2)
    }
    #expect(throws: OrdersFull(last: Int.max)) { try Order.numbered(drafts, after: Int.max) }
  }
}
