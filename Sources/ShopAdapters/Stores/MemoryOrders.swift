import ShopCore

/// Orders kept in memory for one run (`--memory`) or one test.
public final class MemoryOrders: Orders, OrderHistory {
  private var orders: [Order] = []

  public init() {}

  public func save(_ drafts: [Draft]) throws(OrdersFull) -> [Order] {
    var saved: [Order] = []
    var last = orders.last?.number
    for draft in drafts {
      guard let number = Order.number(after: last) else { throw OrdersFull(last: last ?? 0) }
      let previous = saved.last?.placedAt ?? orders.last?.placedAt
      saved.append(Order(number: number, draft: draft.stamped(notBefore: previous)))
      last = number
    }
    orders.append(contentsOf: saved)
    return saved
  }

  public func readAll(_ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
    for order in orders { try visit(order, nil) }
  }

  public func count() -> Int {
    orders.count
  }

  public func last(_ count: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void)
    throws
  {
    for order in orders.suffix(max(count, 0)) { try visit(order, nil) }
  }

  /// Order N sits at index N − 1001: numbers run from 1001 up by one, with no gap.
  public func order(
    numbered number: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    let (index, overflow) = number.subtractingReportingOverflow(Order.firstNumber)
    guard !overflow, orders.indices.contains(index) else { return false }
    try visit(orders[index], nil)
    return true
  }
}
