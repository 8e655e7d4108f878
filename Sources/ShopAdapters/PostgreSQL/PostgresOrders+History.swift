import ShopConventions
import ShopCore

/// Ranges of time and the summary, each asked of the server: a `WHERE` on `placed_at`, which
/// needs no order of times in the table (the server's clock readings are taken before its
/// lock, as the file's are, and are kept as they are).
///
/// The numbering is checked over the whole table, as `count` checks it: 1001… with no gap
/// means the smallest number is 1001 and the largest 1000 + the count (the primary key
/// forbids a repeat). A range lists each of its rows checked as strictly as `readAll` does;
/// the summary is one query whose sums the server computes from the stored columns.
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

  /// One query: the whole table's count and ends (the numbering check), the range's sums,
  /// the first order in it whose time no listing takes (by SKU, also whose item), and its
  /// rows by day or SKU; the rows
  /// are few (days, SKUs), so they come in one result.
  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    let rows: String
    switch grouping {
    case .none:
      rows = ""
    case .day:
      rows = """
        UNION ALL
        SELECT 1, floor(extract(epoch FROM placed_at) / 86400)::pg_catalog.int8::pg_catalog.text, NULL, NULL, NULL,
          count(*), coalesce(sum(total) FILTER (WHERE NOT voided), 0),
          coalesce(sum(payable) FILTER (WHERE NOT voided), 0), NULL, NULL,
          count(*) FILTER (WHERE voided)
        FROM kept WHERE NOT bad GROUP BY 2
        """
    case .sku:
      // Revenue in numeric, so a product or a sum past bigint is told, not an error.
      rows = """
        UNION ALL
        SELECT 1, item->>'sku', NULL, NULL, NULL, sum((item->>'quantity')::pg_catalog.numeric),
          sum((item->>'quantity')::pg_catalog.numeric * (item->>'price')::pg_catalog.numeric),
          count(DISTINCT number), NULL, NULL, NULL
        FROM kept, \(Self.items) AS item
        WHERE NOT bad AND NOT voided AND \(Self.itemFits) GROUP BY 2
        """
    }
    let answered = try withExistingTable(missing: nil) {
      connection -> (PostgresConnection, PostgresResult)? in
      // The numbering is checked by the query itself, over the whole table.
      try prepareToRead(on: connection, numbering: false)
      // Built after the check, which says whether the table has `voids`.
      let sql = """
        WITH kept AS (\(keptSQL(bad: true)))
        SELECT 0, NULL::pg_catalog.text, (SELECT count(*) FROM \(Self.table)),
          (SELECT coalesce(min(number), 1001) FROM \(Self.table)),
          (SELECT coalesce(max(number), 1000) FROM \(Self.table)),
          (SELECT count(*) FROM kept),
          (SELECT coalesce(sum(total), 0) FROM kept WHERE NOT voided),
          (SELECT coalesce(sum(payable), 0) FROM kept WHERE NOT voided),
          (SELECT min(number) FROM kept WHERE bad),
          \(grouping == .sku ? Self.badItem : "NULL"),
          (SELECT count(*) FROM kept WHERE voided)
        \(rows)
        """
      return (connection, try connection.run(sql, Self.bounds(range)))
    }
    // No table: no orders, as a missing orders file has none.
    guard let (connection, result) = answered else {
      return Summary(totals: Summary.Totals())
    }
    // A time or an item no listing takes: the listing's own check of that row says why.
    if let totals = (0..<result.rows).first(where: { result.integer($0, 0) == 0 }),
      let number = result.integer(totals, 8) ?? result.integer(totals, 9)
    {
      let row = try connection.run(
        "SELECT \(readColumns) WHERE number = $1", [PostgresParameter(number)],
        needs: Needs.select)
      _ = try Self.order(in: row, 0, place: connection.place)
      throw PostgresError.badData(
        connection.place, "order \(number): it is not an order shop writes")
    }
    do {
      return try Self.summary(from: result, grouping, place: connection.place)
    } catch is SumsTooLarge {
      // Only now, on the way to the error: the order whose sum went past the largest
      // integer, as the file store names it.
      let found = try connection.run(
        Self.firstOverflow(grouping, kept: keptSQL(bad: false)), Self.bounds(range),
        needs: Needs.select)
      let reason = found.integer(0, 0).map { "\(Self.tooLarge) from order \($0) on" }
      throw PostgresError.badData(connection.place, reason ?? Self.tooLarge)
    }
  }

  private static let tooLarge = "the sums are too large to compute"

  /// The orders of the range, voids left out (a void holds no item and no amount), each with
  /// whether a void took it back (`voided`), which keeps it out of every sum; with `bad`,
  /// whether its time is one no listing takes. A table made before voids has none.
  private func keptSQL(bad: Bool) -> String {
    let voided =
      hasVoids
      ? "EXISTS (SELECT 1 FROM \(Self.table) AS v WHERE v.voids = \(Self.table).number)"
      : "false"
    return "SELECT number, placed_at, items, total, payable, "
      + (bad ? "\(Self.badTime) AS bad, " : "") + "\(voided) AS voided FROM \(Self.table) "
      + "WHERE \(Self.inRange)" + (hasVoids ? " AND voids IS NULL" : "")
  }

  /// A sum of the summary's answer does not fit in an `Int`.
  private struct SumsTooLarge: Error {}

  /// The first order of the range, by number, at which a running sum the file store keeps
  /// leaves the 64-bit integers: the totals and payables, and with `--by` each day's, or each
  /// SKU's quantity and revenue (the items were found to fit before this is asked). NULL for
  /// none.
  private static func firstOverflow(_ grouping: Summary.Grouping, kept: String) -> String {
    var sums = """
      SELECT number, sum(total) OVER (ORDER BY number) AS a, sum(payable) OVER (ORDER BY number) AS b
      FROM kept WHERE NOT voided
      """
    switch grouping {
    case .none:
      break
    case .day:
      sums += """

        UNION ALL
        SELECT number, sum(total) OVER w, sum(payable) OVER w FROM kept WHERE NOT voided
        WINDOW w AS (PARTITION BY floor(extract(epoch FROM placed_at) / 86400) ORDER BY number)
        """
    case .sku:
      sums += """

        UNION ALL
        SELECT number, sum(q) OVER w, sum(q * p) OVER w
        FROM (SELECT number, item->>'sku' AS sku, (item->>'quantity')::pg_catalog.numeric AS q,
          (item->>'price')::pg_catalog.numeric AS p FROM kept, jsonb_array_elements(kept.items) AS item
          WHERE NOT voided) i
        WINDOW w AS (PARTITION BY sku ORDER BY number)
        """
    }
    return """
      WITH kept AS (\(kept)),
      sums AS (\(sums))
      SELECT min(number) FROM sums
      WHERE a NOT BETWEEN \(Int.min) AND \(Int.max) OR b NOT BETWEEN \(Int.min) AND \(Int.max)
      """
  }

  /// An item a listing takes, in SQL, for `--by sku`, which sums the items' own numbers: an
  /// object whose SKU is a string that is a SKU (letters and digits of ASCII, `-`, `_`, `.`),
  /// whose quantity is a whole number from 1 to the largest a cart holds and whose
  /// price is a whole number from 0 to the largest `int8` (jsonb keeps `1.0` as written); the
  /// casts only once the text is digits, as a CASE promises.
  private static let itemFits = """
    (CASE WHEN jsonb_typeof(item->'sku') = 'string' \
    AND (item->>'sku') COLLATE "C" ~ '^[A-Za-z0-9._-]{1,\(SKU.maximumLength)}$' \
    AND jsonb_typeof(item->'quantity') = 'number' \
    AND (item->>'quantity') ~ '^[1-9][0-9]{0,6}$' \
    AND jsonb_typeof(item->'price') = 'number' AND (item->>'price') ~ '^(0|[1-9][0-9]{0,18})$' \
    THEN (item->>'quantity')::pg_catalog.int8 <= \(Cart.maximumQuantity) \
    AND (item->>'price')::pg_catalog.numeric <= \(Int.max) ELSE false END)
    """

  /// The first order of the range, its time good, that holds an item no listing takes, or
  /// whose items repeat a SKU (which no cart does, and every listing refuses).
  private static let badItem = """
    (SELECT min(number) FROM kept WHERE NOT bad \
    AND (EXISTS (SELECT 1 FROM \(items) AS item WHERE NOT coalesce(\(itemFits), false)) \
    OR EXISTS (SELECT 1 FROM \(items) AS item GROUP BY item->>'sku' HAVING count(*) > 1)))
    """

  /// Each item of a kept row; items that are no list of items, or an empty one, are one
  /// item that fits nothing, so the row is found bad rather than the query failing.
  private static let items = """
    jsonb_array_elements(CASE WHEN jsonb_typeof(kept.items) <> 'array' THEN '[null]'::pg_catalog.jsonb \
    WHEN jsonb_array_length(kept.items) = 0 THEN '[null]'::pg_catalog.jsonb ELSE kept.items END)
    """

  /// A `placed_at` no listing takes, in SQL: not finite, a fraction of a second, or outside
  /// the years 0000 to 9999, as ``order(in:_:place:)`` checks it.
  private static let badTime = """
    NOT (isfinite(placed_at) AND date_trunc('second', placed_at) = placed_at \
    AND placed_at >= to_timestamp(\(UTCTime.seconds.lowerBound)) \
    AND placed_at <= to_timestamp(\(UTCTime.seconds.upperBound)))
    """

  private static func summary(
    from result: PostgresResult, _ grouping: Summary.Grouping, place: PostgresPlace
  ) throws -> Summary {
    let tooLarge = SumsTooLarge()
    // Rows of a UNION come in no promised order: the totals are the row of kind 0.
    let rows = 0..<result.rows
    guard let totals = rows.first(where: { result.integer($0, 0) == 0 }),
      let count = result.integer(totals, 2), let first = result.integer(totals, 3),
      let last = result.integer(totals, 4)
    else { throw PostgresError.badData(place, "the summary has no totals") }
    try checkCount(count, first: first, last: last, place: place)
    func numbers(_ row: Int) throws -> (Int, Int, Int) {
      guard let a = result.integer(row, 5), let b = result.integer(row, 6),
        let c = result.integer(row, 7)
      else { throw tooLarge }
      return (a, b, c)
    }
    let (orders, total, payable) = try numbers(totals)
    func voided(_ row: Int) throws -> Int {
      guard let voided = result.integer(row, 10) else { throw tooLarge }
      return voided
    }
    var summary = Summary(
      totals: Summary.Totals(
        orders: orders, voided: try voided(totals), total: total, payable: payable))
    for row in rows where row != totals {
      guard let key = result.bytes(row, 1).map({ String(decoding: $0, as: UTF8.self) }) else {
        throw PostgresError.badData(place, "a summary row has no day or SKU")
      }
      let (a, b, c) = try numbers(row)
      switch grouping {
      case .none:
        break
      case .day:
        guard let day = Int64(key),
          case (let seconds, false) = day.multipliedReportingOverflow(by: 86400)
        else { throw PostgresError.badData(place, "a day is not a day") }
        summary.days.append(
          Summary.Day(
            start: Timestamp(secondsSince1970: seconds),
            totals: Summary.Totals(orders: a, voided: try voided(row), total: b, payable: c)))
      case .sku:
        // The query sums only items whose SKU is one (``itemFits``): a bug otherwise.
        guard SKU.isValid(key) else {
          throw PostgresError.badData(place, "a summed SKU is not a SKU")
        }
        summary.sales.append(Summary.Sales(sku: key, quantity: a, revenue: b, orders: c))
      }
    }
    // The file store's order, whatever the server's collation.
    summary.days.sort { $0.start < $1.start }
    summary.sales.sort { $0.sku < $1.sku }
    return summary
  }
}
