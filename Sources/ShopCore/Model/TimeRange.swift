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

extension Timestamp {
  /// The most a store raises a clock's time to the order before it: 300 seconds. The clock is
  /// read before the store's lock is taken, so of two processes the one that locks second
  /// may hold the earlier time, by the wait for the lock (or by two machines' clocks that
  /// differ a little); within the bound, the time is raised and the times stay in order.
  /// An order before it that is later still was stamped by a wrong clock (one ahead, a hand
  /// edit, `9999-12-31`): raising to it would move every later order there, so the clock's
  /// time is kept and the store's times step back once, which ranges read right.
  public static let maximumRaise: Int64 = 300

  /// `self`, a clock's time, as a store stamps it after an order placed at `previous`: raised
  /// to `previous` when that is later by at most ``maximumRaise`` seconds, else kept.
  public func stamped(notBefore previous: Timestamp?) -> Timestamp {
    guard let previous, previous > self,
      case (let ahead, false) = previous.secondsSince1970.subtractingReportingOverflow(
        secondsSince1970),
      ahead <= Timestamp.maximumRaise
    else { return self }
    return previous
  }
}

extension Draft {
  /// This draft, stamped no earlier than `previous` (the time of the order saved before it)
  /// when that is at most ``Timestamp/maximumRaise`` seconds later, by
  /// ``Timestamp/stamped(notBefore:)``. A store applies this rule under its lock, so the
  /// times of its orders go down only where a clock was wrong by more than that.
  public func stamped(notBefore previous: Timestamp?) -> Draft {
    let time = placedAt.stamped(notBefore: previous)
    guard time != placedAt else { return self }
    return Draft(lines: lines, total: total, placedAt: time, reference: reference, voids: voids)
  }
}
