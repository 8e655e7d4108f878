/// The reading side of a store of orders: what `shop orders` and `shop summary` ask, in any of
/// their forms.
///
/// A store must give ``readAll(_:)``, which every other form can be made of; the others are
/// requirements with defaults (in `OrderHistory+Defaults.swift`) that read every order, so a
/// minimal store or a test's fake implements one method and is right. A store that can answer
/// a form faster (from the end of a file, by bisection, an index, one query) implements it
/// itself; its answer must be the default's, which the store contract in the tests
/// (`StoreContract`) checks.
///
/// Every call reads a snapshot: the orders saved when it started, none that a concurrent
/// writer adds (or a torn write it cuts) while it runs. Every form checks the numbering of
/// what it reads: orders run from ``Order/firstNumber`` up by one, and a gap, a repeat or a
/// record that is not an order throws an error naming where. A form that reads less than every
/// order checks what it reads and no more: the last orders follow each other, the order found
/// has the number asked for, the count matches the last number.
///
/// The visitor gets each order, and only the order: how a store keeps it is the store's own
/// business, and a listing that can use a store's stored form gets it at the edge. An order
/// that a void took back is marked with that void's number (``Order/voidedBy``).
public protocol OrderHistory: AnyObject {
  /// Visits every saved order, oldest first, as it reads them: memory does not grow with
  /// the number of orders, and what was visited before an error stays visited.
  func readAll(_ visit: (Order) throws -> Void) throws

  /// How many orders are saved (voids included: each is a record with its own number).
  func count() throws -> Int

  /// Visits the last `count` saved orders (all of them when there are fewer, none when
  /// `count` is 0 or less), oldest first. A store overrides it so that its cost does not grow
  /// with the number of orders saved before them.
  func last(_ count: Int, _ visit: (Order) throws -> Void) throws

  /// Visits the order numbered `number` and returns true, or returns false when none is saved.
  func order(
    numbered number: Int, _ visit: (Order) throws -> Void
  ) throws -> Bool

  /// Visits the saved orders placed in `range` (``TimeRange/contains(_:)``), oldest first,
  /// whether or not their times are in order; with `last`, only the newest `last` of them.
  func orders(
    in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void
  ) throws

  /// The sums of the orders placed in `range` (``Summary``), by the core's rule
  /// (``SummaryTally``), streamed: memory grows with the days or SKUs asked for, not with the
  /// orders.
  func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary

  /// Visits the order that holds `reference` and returns true, or returns false when none
  /// does. A store overrides it so that its cost does not grow with the number of orders.
  func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool
}
