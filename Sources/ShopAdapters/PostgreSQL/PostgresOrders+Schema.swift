import ShopCore

extension PostgresOrders {
  /// A column `shop` reads and writes: all are NOT NULL.
  struct Column {
    let name: String
    /// As `format_type` spells it.
    let type: String
    var primaryKey = false

    var declaration: String { "\(type) NOT NULL" + (primaryKey ? " PRIMARY KEY" : "") }
  }

  /// The columns checked by name, type, NOT NULL and primary key. Other columns may exist
  /// (a later version may add one): `shop` leaves them to their defaults.
  static let schema = [
    Column(name: "number", type: "bigint", primaryKey: true),
    Column(name: "placed_at", type: "timestamp with time zone"),
    Column(name: "items", type: "jsonb"),
    Column(name: "total", type: "bigint"),
    Column(name: "payable", type: "bigint"),
  ]

  // MARK: - What a table must be

  /// One row per column of the table: name, type, NOT NULL, whether it alone is the
  /// primary key. No row when there is no table.
  static let schemaQuery = """
    SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, \(primaryKeyTest)
    FROM pg_attribute a
    WHERE a.attrelid = to_regclass('\(table)') AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum
    """

  private static let primaryKeyTest = """
    coalesce(a.attnum::text = (SELECT i.indkey::text FROM pg_index i \
    WHERE i.indrelid = a.attrelid AND i.indisprimary), false)
    """

  /// The same test in SQL, so a one-round-trip INSERT writes nothing into a foreign table
  /// before `shop` has read the answer of ``schemaQuery``.
  static let schemaFits: String = {
    let rows = schema.map { "('\($0.name)', '\($0.type)', true, \($0.primaryKey))" }
    return """
      (SELECT count(*) FROM pg_attribute a
      WHERE a.attrelid = to_regclass('\(table)') AND a.attnum > 0 AND NOT a.attisdropped
        AND (a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull,
          \(primaryKeyTest)) IN (VALUES \(rows.joined(separator: ", ")))) = \(schema.count)
      """
  }()

  /// Why the table described by `result` (``schemaQuery``'s answer) is not `shop`'s; nil when
  /// it is, or when there is no table yet.
  static func schemaProblem(_ result: PostgresResult) -> String? {
    guard result.rows > 0 else { return nil }
    var found: [String: (type: String, notNull: Bool, primaryKey: Bool)] = [:]
    for row in 0..<result.rows {
      guard let name = result.text(row, 0), let type = result.text(row, 1) else { continue }
      found[name] = (type, result.text(row, 2) == "t", result.text(row, 3) == "t")
    }
    var problems: [String] = []
    for column in schema {
      guard let have = found[column.name] else {
        problems.append("no column \(column.name) (\(column.declaration))")
        continue
      }
      var wrong: [String] = []
      if have.type != column.type { wrong.append("of type \(have.type)") }
      if !have.notNull { wrong.append("nullable") }
      if have.primaryKey != column.primaryKey {
        wrong.append(column.primaryKey ? "not the primary key" : "the primary key")
      }
      if !wrong.isEmpty {
        problems.append(
          "column \(column.name) is \(wrong.joined(separator: ", ")) where shop expects "
            + column.declaration)
      }
    }
    guard !problems.isEmpty else { return nil }
    return "table \(table) is not the one shop makes: " + problems.joined(separator: "; ")
      + "; nothing was written"
  }

  /// Asks the catalog whether the table is `shop`'s: 65 naming the columns when not.
  func checkSchema(on connection: PostgresConnection) throws {
    let description = try connection.run(Self.schemaQuery)
    if let problem = Self.schemaProblem(description) {
      throw PostgresError.badData(connection.place, problem)
    }
    if description.rows > 0 { schemaChecked = true }
  }
}
