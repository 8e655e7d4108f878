/// A priced order that has no number yet: the store numbers it when it saves it.
public struct Draft: Equatable, Sendable {
  public let lines: [OrderLine]
  /// The sum of price × quantity, computed once with checked arithmetic.
  public let total: Int
  public let placedAt: Timestamp
  /// The caller's name for the order, which a store holds at most once; nil for none.
  public let reference: Reference?

  /// Nil when the total does not fit in `Int`: a total is never allowed to wrap around.
  public init?(lines: [OrderLine], placedAt: Timestamp, reference: Reference? = nil) {
    var total = 0
    for line in lines {
      let (amount, productOverflow) = line.price.multipliedReportingOverflow(by: line.quantity)
      let (sum, sumOverflow) = total.addingReportingOverflow(amount)
      if productOverflow || sumOverflow { return nil }
      total = sum
    }
    self.lines = lines
    self.total = total
    self.placedAt = placedAt
    self.reference = reference
  }
}
