/// One order request of a batch: the cart parsed from input line `line`, or why it is not one.
public struct Request: Sendable {
  public let line: Int?
  public let cart: Result<Cart, CartError>

  public init(line: Int?, cart: Result<Cart, CartError>) {
    self.line = line
    self.cart = cart
  }
}
