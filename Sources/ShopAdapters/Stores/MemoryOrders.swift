import ShopCore

/// Orders kept in memory for one run (`--memory`) or one test.
public final class MemoryOrders: Orders, OrderHistory {
  private var orders: [Order] = []

  public init() {}

  private var references: [Reference: Int] = [:]

  public func place(_ drafts: [Draft]) throws(OrdersFull) -> [Placement] {
    let last = orders.last?.number
    let plan = Placement.plan(drafts, after: last, placedAt: orders.last?.placedAt) { reference in
      references[reference].map { orders[$0] }
    }
    guard let plan else { throw OrdersFull(last: last ?? 0) }
    for order in plan.new {
      if let reference = order.reference { references[reference] = orders.count }
      orders.append(order)
    }
    return plan.placements
  }

  public func save(_ drafts: [Draft]) throws(OrdersFull) -> [Order] {
    try place(drafts).map(\.order)
  }

  public func readAll(_ visit: (Order) throws -> Void) throws {
    for order in orders { try visit(order) }
  }

  public func count() -> Int {
    orders.count
  }

  public func last(_ count: Int, _ visit: (Order) throws -> Void)
    throws
  {
    for order in orders.suffix(max(count, 0)) { try visit(order) }
  }

  public func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    guard let index = references[reference] else { return false }
    try visit(orders[index])
    return true
  }

  /// Order N sits at index N − 1001: numbers run from 1001 up by one, with no gap.
  public func order(
    numbered number: Int, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    let (index, overflow) = number.subtractingReportingOverflow(Order.firstNumber)
    guard !overflow, orders.indices.contains(index) else { return false }
    try visit(orders[index])
    return true
  }
}
