/// One order request of a batch: the cart parsed from input line `line`, or why it is not one.
public struct Request: Sendable {
  public let line: Int?
  public let cart: Result<Cart, CartError>
  /// The `@REF` the line starts with; nil for none.
  public let reference: Reference?

  public init(line: Int?, cart: Result<Cart, CartError>, reference: Reference? = nil) {
    self.line = line
    self.cart = cart
    self.reference = reference
  }
}
