import ShopCore

/// A history that keeps each order as the line `shop orders --json` prints (the orders' JSON
/// Lines format, as `shop` writes it): while it visits an order, that line is there for a
/// listing to copy instead of encoding the order again. The core's port carries orders only;
/// this is how a store's stored form reaches a listing at the edge.
public protocol StoredOrderLines: AnyObject {
  /// The stored line of `order` (without its newline) while the store is visiting that order
  /// and holds it as `shop` writes it; nil otherwise. Valid only until the visit returns.
  func storedLine(of order: Order) -> UnsafeBufferPointer<UInt8>?

  /// Every order, oldest first, checked as ``ShopCore/OrderHistory/readAll(_:)`` checks it:
  /// `copy` gets the lines of orders held as `shop` writes them (their orders are not built),
  /// a run of one or more in a row at a time, each line with its newline but for the last
  /// line of a file that lacks it; `orders` each other order. Lines are valid only during the
  /// call.
  func readAllLines(
    _ copy: (UnsafeBufferPointer<UInt8>) throws -> Void, orders: (Order) throws -> Void
  ) throws
}
