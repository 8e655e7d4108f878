/// A batch's groups, each placed and reported as ``PlaceOrder/place(_:)`` places a group of
/// requests: in input order, with one call to the store (one durable commit) per group. For a
/// path that prices a group another way (straight from a file's bytes): the outcome, the
/// reports and what is saved must be the same as the plain path's.
public protocol BatchGroups: AnyObject {
  /// Places the next group, or returns nil at the end of input.
  func placeNext() throws -> PlaceOrder.GroupResult?
}
