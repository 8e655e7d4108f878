import ShopCore

/// A range of time, found by bisecting the file by offset on `placedAt`, as an order is found
/// by number: a range near the end of a million orders costs a few reads, not a scan.
///
/// This version stamps each order no earlier than the one before it, under the lock
/// (``ShopCore/Draft/stamped(notBefore:)``), so in a file it wrote the times never go down
/// and the bisection is exact. In a file whose times go down somewhere (two processes of an
/// older `shop` that raced, each stamping before it locked), the orders between the two
/// bisected ends are still each checked against the range: an order listed is always in it,
/// but one stored out of time order next to a bound may be left out.
extension FileOrders {
  public func orders(
    in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void
  ) throws {
    guard last.map({ $0 > 0 }) ?? true, var snapshot = try openSnapshot(strict: true) else {
      return
    }
    let start = try range.since.map { try firstLine(placedAtOrAfter: $0, in: snapshot) } ?? 0
    let end =
      try range.until.map { try firstLine(placedAtOrAfter: $0, in: snapshot) } ?? snapshot.end
    guard start < end else { return }
    let from =
      try last.map { try self.start(ofLast: $0, endingAt: end, notBefore: start, in: snapshot) }
      ?? start
    // A void of an order in the range may come after the range: to the snapshot's end.
    snapshot.voided = try voids(in: snapshot, from: from)
    let window = end == snapshot.end ? snapshot : snapshot.window(endingAt: end)
    try visitChecked(window, from: from) { order in
      if range.contains(order.placedAt) { try visit(order) }
    }
  }

  /// The offset of the first line whose order was placed at `time` or later (the end of the
  /// snapshot when none was).
  private func firstLine(placedAtOrAfter time: Timestamp, in snapshot: Snapshot) throws -> Int {
    try firstLine(in: snapshot) { $0.placedAt >= time }
  }
}
