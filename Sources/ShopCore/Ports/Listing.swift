/// Output port of a listing (`shop orders`): told each order found, each number or reference
/// with no order, or the count; the wording (a line a person reads, JSON) belongs to the
/// adapter.
public protocol Listing: AnyObject {
  /// One order, in listing order.
  func list(_ order: Order) throws
  /// Every order of `history`, oldest first, exactly as visiting each with ``list(_:)``
  /// would list them, up to the same error; a listing may read them its own way (a file's
  /// JSON lines copied as they are checked). The default visits each.
  func listEvery(in history: any OrderHistory) throws
  /// A number asked for that has no order.
  func missing(_ number: Int)
  /// A reference asked for that no order holds.
  func missing(reference: Reference)
  /// How many orders are saved.
  func count(_ count: Int)
  /// Delivers what was listed so far; called at the end (`complete`), and after an error too,
  /// since what was listed before it is true; but what only frames a whole listing (a header
  /// before any order) is for a complete one.
  func deliver(complete: Bool) throws
}

extension Listing {
  public func listEvery(in history: any OrderHistory) throws {
    try history.readAll(list)
  }
}
