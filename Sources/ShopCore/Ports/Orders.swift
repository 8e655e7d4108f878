/// Repository of placed orders.
///
/// Numbering is the core's rule (``Order/number(after:)``) but only the store can apply it
/// safely: reading the last number and saving the next orders must be one atomic step, or two
/// processes sharing a store would hand out the same number. References are checked in that
/// same step (``Placement/plan(_:after:existing:)``), or two processes placing one reference
/// would both save it.
public protocol Orders: AnyObject {
  /// Numbers the drafts in order after the last saved order and saves them, as one atomic
  /// step, but for a draft whose reference the store (or an earlier draft of the group)
  /// already holds: that one is saved not again but answered with the order holding it.
  ///
  /// A store whose ranges of time are found by position (the file) also stamps each order no
  /// earlier than the one saved before it, in the same step (``Draft/stamped(notBefore:)``).
  ///
  /// When it returns, the orders are durable: a crash afterwards cannot lose them, so they
  /// may be reported. When it throws, none of `drafts` is saved and earlier orders are intact.
  /// - Returns: one placement per draft, in the same order.
  func place(_ drafts: [Draft]) throws -> [Placement]

  /// The saved order that holds `reference`, or nil when none does; its cost does not grow
  /// with the number of orders saved. Asked for a request the catalog can't price: a retry
  /// asks for the same goods even after the catalog changed, and is answered by that order.
  func order(holding reference: Reference) throws -> Order?
}

extension Orders where Self: OrderHistory {
  /// A store that lists its history finds the order as ``OrderHistory`` does.
  public func order(holding reference: Reference) throws -> Order? {
    var found: Order?
    _ = try order(referenced: reference) { found = $0 }
    return found
  }
}

extension Orders {
  /// ``place(_:)`` for drafts without references: the order each became.
  public func save(_ drafts: [Draft]) throws -> [Order] {
    try place(drafts).map(\.order)
  }
}
