import ShopCore
import Testing

/// The cart's own rules, whatever text it was parsed from.
struct CartTests {
  @Test func anItemAboveTheMaximumIsRefusedByTheCartItself() throws {
    var cart = Cart()
    #expect(throws: CartError.quantityTooLarge(sku: "pen", sum: Int.max)) {
      try cart.add(.init(sku: "pen", quantity: Int.max))
    }
    try cart.add(.init(sku: "pen", quantity: Cart.maximumQuantity))
    #expect(throws: CartError.quantityTooLarge(sku: "pen", sum: Cart.maximumQuantity + 1)) {
      try cart.add(.init(sku: "pen", quantity: 1))
    }
    #expect(try cart.items == [.init(sku: "pen", quantity: Cart.maximumQuantity)])
  }

  @Test(arguments: [0, -1, Int.min])
  func anItemBelowOneIsRefusedByTheItemItself(quantity: Int) {
    #expect(throws: CartError.badQuantity("'pen=\(quantity)'")) {
      try Cart.Item(sku: "pen", quantity: quantity)
    }
  }

  @Test func anItemIsOneToTheMaximum() {
    #expect(throws: CartError.quantityTooLarge(sku: "pen", sum: Cart.maximumQuantity + 1)) {
      try Cart.Item(sku: "pen", quantity: Cart.maximumQuantity + 1)
    }
    #expect(throws: Never.self) { try Cart.Item(sku: "pen", quantity: 1) }
    #expect(throws: Never.self) { try Cart.Item(sku: "pen", quantity: Cart.maximumQuantity) }
  }

  @Test func errorMessagesSayWhatIsWrong() {
    #expect(
      CartError.badQuantity("'pen=0'").description
        == "'pen=0': quantity must be a whole number from 1 to 1000000")
    #expect(CartError.notAnItem("'pen'").description == "'pen' is not an item: expected SKU=QTY")
  }
}
