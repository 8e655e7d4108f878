/// The newest orders of those added, at most `limit` of them, kept in a ring: what a range
/// with `--last` keeps while it reads every order, in memory bounded by `limit`.
public struct NewestOrders {
  private let limit: Int
  private var orders: [Order] = []
  /// Where the oldest kept order is, once the ring is full.
  private var oldest = 0

  public init(keeping limit: Int) {
    self.limit = max(0, limit)
  }

  public mutating func add(_ order: Order) {
    guard limit > 0 else { return }
    if orders.count < limit {
      orders.append(order)
    } else {
      orders[oldest] = order
      oldest = (oldest + 1) % limit
    }
  }

  /// Visits the orders kept, oldest first.
  public func visit(_ visit: (Order) throws -> Void) rethrows {
    for index in 0..<orders.count { try visit(orders[(oldest + index) % orders.count]) }
  }
}
