/// A placed order: numbered by the store, priced when it was placed.
public struct Order: Equatable, Sendable {
  /// The first order's number; each next order takes the previous number + 1.
  public static let firstNumber = 1001

  public let number: Int
  public let lines: [OrderLine]
  public let total: Int
  public let placedAt: Timestamp
  public let reference: Reference?

  public init(number: Int, draft: Draft) {
    self.number = number
    self.lines = draft.lines
    self.total = draft.total
    self.placedAt = draft.placedAt
    self.reference = draft.reference
  }

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
