import ShopCore

/// A range of time: the orders placed in it, the same set whatever the order of the stored
/// times, as a scan of every line filtered by time would find.
///
/// The fast path bisects, as an order is found by number, but only where the file proves its
/// times never go down: the record its writers keep (``TimeRuns``, ``timeRuns(of:)``) cuts the
/// file into runs of times that never go down, and the range is found in each run by
/// bisection, so a range near the end of a million orders costs a few reads, not a scan.
/// Without a record that matches the file as it is (a file an older `shop` or another program
/// wrote or edited, a file system without extended attributes), every line is read and
/// filtered: the same answer, at the cost of time.
///
/// This is the one place the file's ranges are read: `orders --since/--until`, with `--last`
/// and `--count`, and `summary` all come here.
extension FileOrders {
  public func orders(
    in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void
  ) throws {
    try orders(in: range, last: last, inPlace: nil, visit)
  }

  /// ``orders(in:last:_:)``, each line offered first to `inPlace` (a fast path's reader of
  /// lines as they lie, ``InPlace``): what it takes is checked by number and never parsed.
  func orders(
    in range: TimeRange, last: Int?, inPlace: InPlace?, _ visit: (Order) throws -> Void
  ) throws {
    guard last.map({ $0 > 0 }) ?? true, var snapshot = try openSnapshot(strict: true) else {
      return
    }
    let windows: [Range<Int>]
    if range.isAll {
      windows = [0..<snapshot.end]
    } else if let runs = timeRuns(of: snapshot) {
      windows = try runs.compactMap { run in try window(of: range, in: run, of: snapshot) }
    } else {
      try scan(snapshot, for: range, last: last, inPlace: inPlace, visit)
      return
    }
    // With `last`, the newest `last` of them: counted back from the last window's end.
    var first = 0
    var from = windows.first?.lowerBound ?? 0
    if let last {
      var wanted = last
      var index = windows.count
      while wanted > 0, index > 0 {
        index -= 1
        first = index
        from = windows[index].upperBound
        while wanted > 0, from > windows[index].lowerBound {
          from = try lineStart(before: from, notBefore: windows[index].lowerBound, in: snapshot)
          wanted -= 1
        }
      }
    }
    // A void of an order in the range may come after the range: to the snapshot's end.
    if first < windows.count { snapshot.voided = try voids(in: snapshot, from: from) }
    // Each window read and its numbering checked; across two that touch, too.
    var previous: Int?
    var previousEnd = -1
    for index in windows.indices.dropFirst(first) {
      let start = index == first ? from : windows[index].lowerBound
      let end = windows[index].upperBound
      let part = end == snapshot.end ? snapshot : snapshot.window(endingAt: end)
      let read = try visitChecked(
        part, from: start, following: start == previousEnd ? previous : nil, inPlace: inPlace
      ) { order in
        if range.contains(order.placedAt) { try visit(order) }
      }
      if let read { previous = read }
      previousEnd = end
    }
  }

  /// The lines of `run` (a run of times that never go down) placed in `range`: from the first
  /// placed at `since` or later to the first placed at `until` or later; nil when none are.
  private func window(of range: TimeRange, in run: Range<Int>, of snapshot: Snapshot) throws
    -> Range<Int>?
  {
    let part = run.upperBound == snapshot.end ? snapshot : snapshot.window(endingAt: run.upperBound)
    let start =
      try range.since.map { since in
        try firstLine(in: part, from: run.lowerBound) { $0.placedAt >= since }
      } ?? run.lowerBound
    let end =
      try range.until.map { until in
        try firstLine(in: part, from: start) { $0.placedAt >= until }
      } ?? run.upperBound
    return start < end ? start..<end : nil
  }

  /// The start of the line that ends just before `position` (a line's start, or the end of a
  /// snapshot whose last line lacks its newline), never before `floor`, a line's start.
  private func lineStart(before position: Int, notBefore floor: Int, in snapshot: Snapshot)
    throws(FileError) -> Int
  {
    guard position - 1 > floor else { return floor }
    return try snapshot.file.newline(before: position - 1, notBefore: floor).map { $0 + 1 }
      ?? floor
  }

  /// Every line read and filtered, its numbering checked from 1001 as a full listing checks
  /// it: for a file whose times are not proven in order.
  private func scan(
    _ snapshot: Snapshot, for range: TimeRange, last: Int?, inPlace: InPlace?,
    _ visit: (Order) throws -> Void
  ) throws {
    var snapshot = snapshot
    snapshot.voided = try voids(in: snapshot, from: 0)
    guard let last else {
      try visitChecked(snapshot, from: 0, inPlace: inPlace) { order in
        if range.contains(order.placedAt) { try visit(order) }
      }
      return
    }
    var newest = NewestOrders(keeping: last)
    try visitChecked(snapshot, from: 0) { order in
      if range.contains(order.placedAt) { newest.add(order) }
    }
    try newest.visit(visit)
  }
}
