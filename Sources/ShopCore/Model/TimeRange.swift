/// The orders placed from `since` (included) up to `until` (left out): `--since 2026-12-01
/// --until 2026-12-02` is the one day of December 1st, and consecutive ranges never overlap.
/// A nil bound is open.
public struct TimeRange: Equatable, Sendable {
  public let since: Timestamp?
  public let until: Timestamp?

  /// Every order.
  public static let all = TimeRange(since: nil, until: nil)

  public init(since: Timestamp?, until: Timestamp?) {
    self.since = since
    self.until = until
  }

  public var isAll: Bool { since == nil && until == nil }

  public func contains(_ time: Timestamp) -> Bool {
    if let since, time < since { return false }
    if let until, time >= until { return false }
    return true
  }
}

extension Timestamp: Comparable {
  public static func < (left: Timestamp, right: Timestamp) -> Bool {
    left.secondsSince1970 < right.secondsSince1970
  }
}

extension Draft {
  /// This draft, stamped no earlier than `previous` (the time of the order saved before it).
  ///
  /// The clock is read before the store's lock is taken, so of two processes the one that
  /// locks second may hold the earlier time. A store applies this rule under its lock, so the
  /// times of its orders never go down as their numbers go up, and a range can be found by
  /// bisecting on time as an order is found by bisecting on number.
  public func stamped(notBefore previous: Timestamp?) -> Draft {
    guard let previous, previous > placedAt else { return self }
    return Draft(
      lines: lines, total: total, placedAt: previous, reference: reference, voids: voids)
  }
}
