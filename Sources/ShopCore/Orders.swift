/// Repository of placed orders.
///
/// Numbering is the core's rule (``Order/number(after:)``) but only the store can apply it
/// safely: reading the last number and saving the next orders must be one atomic step, or two
/// processes sharing a store would hand out the same number.
public protocol Orders: AnyObject {
  /// Numbers `drafts` in order after the last saved order and saves them, as one atomic step.
  ///
  /// A store whose ranges of time are found by position (the file) also stamps each order no
  /// earlier than the one saved before it, in the same step (``Draft/stamped(notBefore:)``).
  ///
  /// When it returns, the orders are durable: a crash afterwards cannot lose them, so they
  /// may be reported. When it throws, none of `drafts` is saved and earlier orders are intact.
  /// - Returns: one order per draft, in the same order.
  func save(_ drafts: [Draft]) throws -> [Order]
}
