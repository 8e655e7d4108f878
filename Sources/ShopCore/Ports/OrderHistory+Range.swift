/// What any store can do with the other forms of ``OrderHistory``; a store that can do it
/// faster (by bisecting a file, by one query) implements the requirement itself.
extension OrderHistory {
  /// Reads every order and keeps those in `range`: correct on any store, at the cost of a full
  /// read. With `last`, keeps only the newest `last` of them, in memory.
  public func orders(
    in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void
  ) throws {
    guard let last else {
      try readAll { order in
        if range.contains(order.placedAt) { try visit(order) }
      }
      return
    }
    guard last > 0 else { return }
    var newest = NewestOrders(keeping: last)
    try readAll { order in
      if range.contains(order.placedAt) { newest.add(order) }
    }
    try newest.visit(visit)
  }

  /// Sums the orders of `range` as they are read, by the core's rule (``SummaryTally``).
  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    var tally = SummaryTally(by: grouping)
    try orders(in: range, last: nil) { order in try tally.add(order) }
    return tally.summary
  }
}

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
