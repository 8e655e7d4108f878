/// A placed order, or a void that takes one back: both are records numbered by the store in
/// one sequence, as an invoice and the credit note that cancels it share one numbering.
public struct Order: Equatable, Sendable {
  /// The first order's number; each next order takes the previous number + 1.
  public static let firstNumber = 1001

  public let number: Int
  /// The items; none for a void.
  public let lines: [OrderLine]
  public let total: Int
  public let placedAt: Timestamp
  public let reference: Reference?
  /// For a void: the number of the order it takes back. Nil for an order.
  public let voids: Int?
  /// For an order a void took back: that void's number, as the store read it when it read
  /// this order; nil for an order not voided (or a void). Set by readers, never stored on the
  /// order's own record: the void is the only record of it.
  public private(set) var voidedBy: Int?

  public init(number: Int, draft: Draft) {
    self.number = number
    self.lines = draft.lines
    self.total = draft.total
    self.placedAt = draft.placedAt
    self.reference = draft.reference
    self.voids = draft.voids
    self.voidedBy = nil
  }

  /// Whether this record is a void, not an order.
  public var isVoid: Bool { voids != nil }

  /// This order, marked as taken back by void `number` (nil: not voided).
  public func voided(by number: Int?) -> Order {
    var marked = self
    marked.voidedBy = isVoid ? nil : number
    return marked
  }

  /// The same record, whatever a reader found of a void that took it back: what a store
  /// compares with a record it wrote.
  public var unmarked: Order { voided(by: nil) }

  /// What the customer pays: 10% off (integer division) when the total is 200 or more.
  public var payable: Int { Order.payable(total: total) }

  public static func payable(total: Int) -> Int {
    total >= 200 ? total - total / 10 : total
  }

  /// The number that follows `last` (nil: no order yet), or nil when it would not fit in `Int`.
  public static func number(after last: Int?) -> Int? {
    guard let last else { return firstNumber }
    let (next, overflow) = last.addingReportingOverflow(1)
    return overflow ? nil : next
  }
}
