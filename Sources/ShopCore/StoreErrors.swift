/// The last order's number is `Int.max`: no next number exists, so nothing more can be saved.
public struct OrdersFull: Error, Equatable, CustomStringConvertible {
  public let last: Int

  public init(last: Int) {
    self.last = last
  }

  public var description: String {
    "order number \(last) is the last one this machine can count; nothing was saved"
  }
}

/// A single order whose total does not fit in `Int`: refused, never wrapped.
public struct OrderTooLarge: Error, Equatable, CustomStringConvertible {
  public init() {}

  public var description: String { "\(OrderTooLarge.reason); nothing was saved" }

  /// The words every report of such an order uses.
  public static let reason = "the order's total is too large to compute"
}
