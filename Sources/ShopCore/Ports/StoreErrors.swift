/// The orders to save would be numbered past `Int.max`, the last number there is: nothing of
/// them is saved. `last` is the store's last order, which they were to follow.
public struct OrdersFull: Error, Equatable, CustomStringConvertible {
  public let last: Int

  public init(last: Int) {
    self.last = last
  }

  public var description: String {
    last == Int.max
      ? "order number \(last) is the last one this machine can count; nothing was saved"
      : "the last order is \(last), and these orders would be numbered past \(Int.max), the "
        + "last number this machine can count; nothing was saved"
  }
}

/// A single order whose total does not fit in `Int`: refused, never wrapped.
public struct OrderTooLarge: Error, Equatable, CustomStringConvertible {
  public init() {}

  public var description: String { "\(OrderTooLarge.reason); nothing was saved" }

  /// The words every report of such an order uses.
  public static let reason = "the order's total is too large to compute"
}
