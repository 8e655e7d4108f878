import ShopCore

/// A report a priced batch group (``PricedBatch``) can tell itself: it made no ``Order``, so it
/// tells each placed order by its number and payable, and only after the group is synced, as
/// ``PlaceOrder`` tells ``Outcome/placed(_:)``. A report that words anything else of a placed
/// order (JSON, with its items) is not one: its groups go the plain way.
public protocol PricedReport: Report {
  /// Whether placed orders are told at all; when not, the group is not read again for them.
  var tellsPlaced: Bool { get }
  /// The placed order `number`, which pays `payable`, worded as ``Report/report(_:line:)``
  /// words it.
  func placed(number: Int, payable: Int)
}

extension QuietReport: PricedReport {
  public var tellsPlaced: Bool { false }
  public func placed(number: Int, payable: Int) {}
}

extension TextReport: PricedReport {
  public var tellsPlaced: Bool { true }
}
