import ShopConventions
import ShopCore

/// Ranges of time and the summary, each asked of the server: a `WHERE` on `placed_at`, which
/// needs no order of times in the table (the server's clock readings are taken before its
/// lock, as the file's are, and are kept as they are).
///
/// The numbering is checked over the whole table, as `count` checks it: 1001… with no gap
/// means the smallest number is 1001 and the largest 1000 + the count (the primary key
/// forbids a repeat). A range lists each of its rows checked as strictly as `readAll` does,
/// and the summary sums what that listing lists, so the two refuse the same rows.
extension PostgresOrders {
  /// `$1` and `$2`: the range's bounds in seconds since 1970, NULL when open.
  private static let inRange = """
    ($1::pg_catalog.int8 IS NULL OR placed_at >= to_timestamp($1)) \
    AND ($2::pg_catalog.int8 IS NULL OR placed_at < to_timestamp($2))
    """

  private static func bounds(_ range: TimeRange) -> [PostgresParameter] {
    [range.since, range.until].map { bound in
      bound.map { PostgresParameter(Int(truncatingIfNeeded: $0.secondsSince1970)) }
        ?? PostgresParameter()
    }
  }

  public func orders(
    in range: TimeRange, last: Int?,
    _ visit: (Order) throws -> Void
  ) throws {
    if let last, last <= 0 { return }
    // The numbering of the whole table, checked before any row is listed; no table, or an
    // empty one, lists nothing.
    guard try count() > 0 else { return }
    var sql = "SELECT \(readColumns) WHERE \(Self.inRange)"
    var parameters = Self.bounds(range)
    if let last {
      sql = "SELECT * FROM (\(sql) ORDER BY number DESC LIMIT $3) AS last ORDER BY number"
      parameters.append(PostgresParameter(last))
    } else {
      sql += " ORDER BY number"
    }
    try withExistingTable(missing: ()) { connection in
      try connection.stream(sql, parameters) { row in
        try visit(try Self.order(in: row, 0, place: connection.place))
      }
    }
  }

  /// The range's rows, streamed through the listing's own check of each row
  /// (``order(in:_:place:)``) and tallied by the core's rule (``SummaryTally``): the summary
  /// refuses exactly the rows a listing refuses, with the listing's words, and its sums are the
  /// file store's. Memory grows with the days or SKUs, not with the rows (single-row mode).
  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    var tally = SummaryTally(by: grouping)
    do {
      try orders(in: range, last: nil) { order in try tally.add(order) }
    } catch let tooLarge as SummaryTooLarge {
      // As the file store says it: the order whose sum went past the largest integer.
      throw PostgresError.badData(try connect().place, tooLarge.description)
    }
    return tally.summary
  }
}
