/// The reading side of a store of orders: what `shop orders` lists, in any of its forms.
///
/// Every call reads a snapshot: the orders saved when it started, none that a concurrent
/// writer adds (or a torn write it cuts) while it runs. Every form checks the numbering of
/// what it reads: orders run from ``Order/firstNumber`` up by one, and a gap, a repeat or a
/// record that is not an order throws an error naming
/// where. The forms whose cost must not grow with the store (`count`, `last`, `order`) check
/// what they read and no more: the last orders follow each other, the order found has the
/// number asked for, the count matches the last number.
///
/// The visitor gets each order, and only the order: how a store keeps it is the store's own
/// business, and a listing that can use a store's stored form gets it at the edge.
public protocol OrderHistory: AnyObject {
  /// Visits every saved order, oldest first, as it reads them: memory does not grow with
  /// the number of orders, and what was visited before an error stays visited.
  func readAll(_ visit: (Order) throws -> Void) throws

  /// How many orders are saved.
  func count() throws -> Int

  /// Visits the last `count` saved orders (all of them when there are fewer), oldest first.
  /// Its cost does not grow with the number of orders saved before them.
  func last(_ count: Int, _ visit: (Order) throws -> Void) throws

  /// Visits the order numbered `number` and returns true, or returns false when none is saved.
  func order(
    numbered number: Int, _ visit: (Order) throws -> Void
  ) throws -> Bool

  /// Visits the saved orders placed in `range`, oldest first; with `last`, only the newest
  /// `last` of them. The numbering of what it reads is checked as ``last(_:_:)`` checks it.
  func orders(
    in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void
  ) throws

  /// The sums of the orders placed in `range` (``Summary``), streamed: memory grows with the
  /// days or SKUs asked for, not with the orders.
  func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary

  /// Visits the order that holds `reference` and returns true, or returns false when none
  /// does. Its cost does not grow with the number of orders saved.
  func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool
}
