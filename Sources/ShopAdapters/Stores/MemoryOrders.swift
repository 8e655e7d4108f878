import ShopCore

/// Orders kept in memory for one run (`--memory`) or one test.
public final class MemoryOrders: Orders, OrderVoids, OrderHistory {
  private var orders: [Order] = []
  /// For each order a void took back, the void's number.
  private var voidedBy: [Int: Int] = [:]

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
      if let voided = order.voids { voidedBy[voided] = order.number }
      orders.append(order)
    }
    return plan.placements
  }

  public func void(_ draft: Draft) throws -> VoidOutcome {
    var target: Order?
    if let number = draft.voids { _ = try self.order(numbered: number) { target = $0 } }
    let holding = draft.reference.flatMap { references[$0].map(marked) }
    if let decided = VoidOutcome.plan(draft, target: target, holding: holding) { return decided }
    guard let placement = try place([draft]).first else { throw PlaceOrderError.storeSavedTooFew }
    return .voided(placement.order)
  }

  /// The order at `index`, marked with the void that took it back.
  private func marked(_ index: Int) -> Order {
    orders[index].voided(by: voidedBy[orders[index].number])
  }

  public func save(_ drafts: [Draft]) throws(OrdersFull) -> [Order] {
    try place(drafts).map(\.order)
  }

  public func readAll(_ visit: (Order) throws -> Void) throws {
    for index in orders.indices { try visit(marked(index)) }
  }

  public func count() -> Int {
    orders.count
  }

  public func last(_ count: Int, _ visit: (Order) throws -> Void)
    throws
  {
    for index in orders.indices.suffix(max(count, 0)) { try visit(marked(index)) }
  }

  public func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    guard let index = references[reference] else { return false }
    try visit(marked(index))
    return true
  }

  /// Order N sits at index N − 1001: numbers run from 1001 up by one, with no gap.
  public func order(
    numbered number: Int, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    let (index, overflow) = number.subtractingReportingOverflow(Order.firstNumber)
    guard !overflow, orders.indices.contains(index) else { return false }
    try visit(marked(index))
    return true
  }
}
