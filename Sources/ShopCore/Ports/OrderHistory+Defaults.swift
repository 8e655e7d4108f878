/// Every form of ``OrderHistory`` made of ``OrderHistory/readAll(_:)``: correct on any store
/// that reads its orders right, at the cost of a full read, in memory bounded by what is
/// kept. A store that can do one faster implements the requirement itself.
extension OrderHistory {
  public func count() throws -> Int {
    var count = 0
    try readAll { _ in count += 1 }
    return count
  }

  public func last(_ count: Int, _ visit: (Order) throws -> Void) throws {
    guard count > 0 else { return }
    var newest = NewestOrders(keeping: count)
    try readAll { order in newest.add(order) }
    try newest.visit(visit)
  }

  /// The order is visited once the whole history is read and checked.
  public func order(numbered number: Int, _ visit: (Order) throws -> Void) throws -> Bool {
    try first(where: { $0.number == number }, visit)
  }

  /// The order is visited once the whole history is read and checked.
  public func order(referenced reference: Reference, _ visit: (Order) throws -> Void)
    throws -> Bool
  {
    try first(where: { $0.reference == reference }, visit)
  }

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
    var newest = NewestOrders(keeping: last)
    try readAll { order in
      if range.contains(order.placedAt) { newest.add(order) }
    }
    try newest.visit(visit)
  }

  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    var tally = SummaryTally(by: grouping)
    try orders(in: range, last: nil) { order in try tally.add(order) }
    return tally.summary
  }

  private func first(where matches: (Order) -> Bool, _ visit: (Order) throws -> Void) throws
    -> Bool
  {
    var found: Order?
    try readAll { order in
      if found == nil, matches(order) { found = order }
    }
    guard let found else { return false }
    try visit(found)
    return true
  }
}
