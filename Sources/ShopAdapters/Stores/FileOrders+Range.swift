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
    in range: TimeRange, last: Int?, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws {
    guard last.map({ $0 > 0 }) ?? true, let snapshot = try openSnapshot(strict: true) else {
      return
    }
    let start = try range.since.map { try firstLine(placedAtOrAfter: $0, in: snapshot) } ?? 0
    let end =
      try range.until.map { try firstLine(placedAtOrAfter: $0, in: snapshot) } ?? snapshot.end
    guard start < end else { return }
    var from = start
    if let last {
      // Back from the end of the range past `last` newlines, never before its start.
      var position = end
      var newlines = 0
      while newlines <= last, position > start,
        let newline = try newline(before: position, in: snapshot.file)
      {
        newlines += 1
        position = newline
      }
      from = newlines > last ? position + 1 : start
    }
    // From the first line the numbering is known to start at 1001; from a later one, only the
    // lines read can be checked against each other, as `last` does.
    var checking = from == 0
    var previous: Int?
    let window = end == snapshot.end ? snapshot : snapshot.window(endingAt: end)
    try lines(of: window, from: from, firstLine: from == 0 ? 1 : nil) { offset, number, bytes in
      let (order, stored) = try parse(bytes, line: number, at: offset, in: snapshot)
      if checking, order.number != Order.number(after: previous) {
        let line = try number ?? lineNumber(at: offset, in: snapshot.file)
        try checkNumber(order.number, after: previous, line: line)
      }
      checking = true
      previous = order.number
      if range.contains(order.placedAt) { try visit(order, stored) }
      return true
    }
  }

  /// The offset of the first line whose order was placed at `time` or later (the end of the
  /// snapshot when none was): a bisection by offset, then a scan of the last small stretch.
  /// Every line it reads is parsed as strictly as any reader parses it.
  private func firstLine(placedAtOrAfter time: Timestamp, in snapshot: Snapshot) throws -> Int {
    var low = 0  // Every line that starts before `low` was placed before `time`.
    var high = snapshot.end  // No line that starts in low..<high is known yet.
    var found = snapshot.end  // The first line known to be placed at `time` or later.
    // Down to one block: every line of the stretch left is parsed in full.
    while high - low > 4096 {
      let middle = low + (high - low) / 2
      let lineStart = try newline(after: middle - 2, before: high, in: snapshot.file).map {
        $0 + 1
      }
      guard let lineStart, lineStart < high else {
        high = middle
        continue
      }
      let (bytes, lineEnd) = try line(at: lineStart, in: snapshot)
      let order = try bytes.withUnsafeBufferPointer { line throws(FileError) in
        try parse(line, line: nil, at: lineStart, in: snapshot).0
      }
      if order.placedAt < time {
        low = lineEnd
      } else {
        high = lineStart
        found = lineStart
      }
    }
    try lines(of: snapshot, from: low, firstLine: low == 0 ? 1 : nil) { offset, number, bytes in
      guard offset < high else { return false }
      let (order, _) = try parse(bytes, line: number, at: offset, in: snapshot)
      guard order.placedAt < time else {
        found = offset
        return false
      }
      return true
    }
    return found
  }
}
