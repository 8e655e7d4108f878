/// The last order's number is `Int.max`: no next number exists, so nothing more can be saved.
public struct OrdersFull: ShopError, Equatable {
  public let last: Int

  public init(last: Int) {
    self.last = last
  }

  public var status: ExitStatus { .dataError }

  public var message: String {
    "order number \(last) is the last one this machine can count; nothing was saved"
  }
}

/// A single order whose total does not fit in `Int`: refused, never wrapped.
public struct OrderTooLarge: ShopError, Equatable {
  public init() {}

  public var status: ExitStatus { .dataError }

  public var message: String { "\(OrderTooLarge.reason); nothing was saved" }

  /// The words every report of such an order uses.
  public static let reason = "the order's total is too large to compute"
}
