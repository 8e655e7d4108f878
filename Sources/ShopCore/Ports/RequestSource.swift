/// Where a batch's order requests come from: a group at a time, in input order. What the
/// requests are read from (a file, a pipe, a test's array) is the adapter's business.
public protocol RequestSource: AnyObject {
  /// The next group of requests, or nil at the end of input. Each group is placed with one
  /// call to the store (one durable commit) before the next is asked for, so a slow source
  /// sees each group's reports before it sends more.
  func nextGroup() throws -> [Request]?
}
