import ShopCore

/// The record of where the file's times go down (``TimeRuns``): read by ranges, kept by
/// writers. Derived, so it can cost time and never an answer: one that is missing, damaged,
/// or made for other bytes (another file, or this one before any write that did not record
/// itself) is ignored, and the range scans every line.
extension FileOrders {
  /// The extended attribute of the orders file that holds its ``TimeRuns``. Who may write
  /// it may write the orders: it adds no one who can make a range wrong.
  static let timeOrderAttribute = "user.shop.time-order"

  /// The runs of `snapshot`, when a record proves them: it matches the file as it is now
  /// (read after the snapshot's ends, so the snapshot is a prefix of the bytes described).
  func timeRuns(of snapshot: Snapshot) -> [Range<Int>]? {
    let descriptor = snapshot.file.descriptor
    guard
      let bytes = descriptor.attribute(
        named: FileOrders.timeOrderAttribute, limit: TimeRuns.maximumBytes),
      let record = TimeRuns(decoding: bytes), !record.unordered,
      let now = try? descriptor.version(), now == record.version, snapshot.end <= now.size
    else { return nil }
    return record.runs(upTo: snapshot.end)
  }

  /// The record of the locked `file` before a writer appends to it: the one it holds when it
  /// matches, else one made anew by reading every line that stays (a torn tail is cut), once
  /// the writer has shown it can write one. Nil when it can't: nothing is recorded, and
  /// ranges scan.
  func timeRunsBeforeAppend(to file: LineFile, ends: Ends) -> TimeRuns? {
    let descriptor = file.descriptor
    guard let version = try? descriptor.version() else { return nil }
    // A record matches only the file as its writer left it: whole lines, no tail.
    if let bytes = descriptor.attribute(
      named: FileOrders.timeOrderAttribute, limit: TimeRuns.maximumBytes),
      let record = TimeRuns(decoding: bytes), record.version == version
    {
      return record
    }
    guard
      (try? descriptor.setAttribute(
        named: FileOrders.timeOrderAttribute, to: TimeRuns.placeholder(for: version).encoded))
        != nil
    else { return nil }
    var record = TimeRuns(version: version)
    let snapshot = Snapshot(file: file, ends: ends, limit: nil)
    let end = ends.linesEnd ?? 0
    do {
      try snapshot.window(endingAt: end).lines(from: 0, firstLine: 1) { offset, number, bytes in
        record.append(
          time: try parse(bytes, line: number, in: snapshot).0.placedAt
            .secondsSince1970, at: offset)
        return true
      }
      // A last line missing only its newline stays, and is described too.
      if case .whole(let order) = ends.tail {
        record.append(time: order.placedAt.secondsSince1970, at: end)
      }
    } catch {
      // A line that is not an order: no run can be proven; the readers' scan will say why.
      record.markUnordered()
    }
    return record
  }

  /// Records `runs` for `file` as it is now, after the writer's append and sync. A failure
  /// leaves a record that no longer matches, which costs ranges time only.
  func record(_ runs: TimeRuns, for file: LineFile) {
    guard let version = try? file.descriptor.version() else { return }
    var runs = runs
    runs.version = version
    try? file.descriptor.setAttribute(named: FileOrders.timeOrderAttribute, to: runs.encoded)
  }
}
