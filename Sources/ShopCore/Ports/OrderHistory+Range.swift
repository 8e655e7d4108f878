/// What any store can do with the other forms of ``OrderHistory``; a store that can do it
/// faster (by bisecting a file, by one query) implements the requirement itself.
extension OrderHistory {
  /// Reads every order and keeps those in `range`: correct on any store, at the cost of a full
  /// read. With `last`, keeps only the newest `last` of them, in memory.
  public func orders(
    in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void
  ) throws {
    guard let last else {
      try readAll { order in
        if range.contains(order.placedAt) { try visit(order) }
      }
      return
    }
    guard last > 0 else { return }
    var newest: [Order] = []
    var oldest = 0  // Where the oldest kept order is, once `newest` is full.
    try readAll { order in
      guard range.contains(order.placedAt) else { return }
      if newest.count < last {
        newest.append(order)
      } else {
        newest[oldest] = order
        oldest = (oldest + 1) % last
      }
    }
    for index in 0..<newest.count { try visit(newest[(oldest + index) % newest.count]) }
  }

  /// Sums the orders of `range` as they are read, by the core's rule (``SummaryTally``).
  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    var tally = SummaryTally(by: grouping)
    try orders(in: range, last: nil) { order in try tally.add(order) }
    return tally.summary
  }
}
