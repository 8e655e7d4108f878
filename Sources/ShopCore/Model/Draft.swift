/// A priced order, or a void, that has no number yet: the store numbers it when it saves it.
public struct Draft: Equatable, Sendable {
  /// The items; none for a void.
  public let lines: [OrderLine]
  /// The sum of price × quantity, computed once with checked arithmetic; 0 for a void.
  public let total: Int
  public let placedAt: Timestamp
  /// The caller's name for the record, which a store holds at most once; nil for none.
  public let reference: Reference?
  /// For a void: the number of the order it takes back. Nil for an order.
  public let voids: Int?

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
    self.voids = nil
  }

  /// A void of order `number`: no items, no amounts; it takes the next number as any record.
  public init(voiding number: Int, placedAt: Timestamp, reference: Reference? = nil) {
    self.lines = []
    self.total = 0
    self.placedAt = placedAt
    self.reference = reference
    self.voids = number
  }

  /// Every member given, for ``stamped(notBefore:)``.
  init(lines: [OrderLine], total: Int, placedAt: Timestamp, reference: Reference?, voids: Int?) {
    self.lines = lines
    self.total = total
    self.placedAt = placedAt
    self.reference = reference
    self.voids = voids
  }
}
