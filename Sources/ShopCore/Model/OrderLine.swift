/// One item of an order, with the price it had when the order was placed.
public struct OrderLine: Equatable, Sendable {
  public let sku: String
  public let quantity: Int
  public let price: Int

  public init(sku: String, quantity: Int, price: Int) {
    self.sku = sku
    self.quantity = quantity
    self.price = price
  }
}
