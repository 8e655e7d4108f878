import ShopCore

extension PostgresOrders {
  /// A column `shop` reads and writes: all are NOT NULL.
  struct Column {
    let name: String
    /// As `format_type` spells it when pg_catalog's types are visible.
    let type: String
    /// The OID of the type, pg_catalog's own: fixed by PostgreSQL (as the binary formats'
    /// element types are). A domain, or a type of another schema named like it, is not it,
    /// however `format_type` spells it under the session's search path.
    let oid: UInt32
    var primaryKey = false

    var declaration: String { "\(type) NOT NULL" + (primaryKey ? " PRIMARY KEY" : "") }
  }

  /// The columns checked by name, type, NOT NULL and primary key. Other columns may exist
  /// (a later version may add one): `shop` leaves them to their defaults.
  static let schema = [
    Column(name: "number", type: "bigint", oid: 20, primaryKey: true),
    Column(name: "placed_at", type: "timestamp with time zone", oid: 1184),
    Column(name: "items", type: "jsonb", oid: 3802),
    Column(name: "total", type: "bigint", oid: 20),
    Column(name: "payable", type: "bigint", oid: 20),
  ]

  /// pg_catalog's `text`, the type of `ref`.
  static let textOID: UInt32 = 25

  /// How `ref` must be when it is there: a table made before refs gets it on first use.
  static let referenceDeclaration =
    "text UNIQUE (nullable, unique on its own, compared byte "
    + "for byte: a deterministic collation)"

  // MARK: - What a table must be

  // Every function, cast and catalog table is pg_catalog's by name: a search path that puts
  // another schema first (`public, pg_catalog`) must not lend shop's queries its own `text`
  // or `format_type`.
  private static let relation = "pg_catalog.to_regclass('\(table)')"

  /// The table's kind, its persistence, its BEFORE INSERT row triggers and its INSERT rules:
  /// what can make the server keep other rows than `shop` sends (a trigger that skips or
  /// changes a row, a rule that does something instead, a partition's trigger), or lose them
  /// (an UNLOGGED table, emptied by a crash; a temporary one, dropped with its session), or
  /// none; AFTER triggers see the rows as kept and may stay. Each is one value, NULL for none.
  private static let kindSQL =
    "(SELECT c.relkind::pg_catalog.text FROM pg_catalog.pg_class c WHERE c.oid = \(relation))"
  private static let persistenceSQL = """
    (SELECT c.relpersistence::pg_catalog.text FROM pg_catalog.pg_class c \
    WHERE c.oid = \(relation))
    """
  private static let triggersSQL = """
    (SELECT pg_catalog.string_agg(t.tgname::pg_catalog.text, ', ' ORDER BY t.tgname) \
    FROM pg_catalog.pg_trigger t \
    WHERE t.tgrelid = \(relation) AND NOT t.tgisinternal AND t.tgtype::pg_catalog.int4 & 7 = 7)
    """
  private static let rulesSQL = """
    (SELECT pg_catalog.string_agg(r.rulename::pg_catalog.text, ', ' ORDER BY r.rulename) \
    FROM pg_catalog.pg_rewrite r \
    WHERE r.ev_class = \(relation) AND r.ev_type = '3')
    """

  /// The table-wide facts alone, one row: asked in every writing transaction after its lock,
  /// which keeps a trigger or rule from being added before COMMIT.
  static let tableQuery = "SELECT \(kindSQL), \(persistenceSQL), \(triggersSQL), \(rulesSQL)"

  /// ``tableQuery``'s test in SQL, for the INSERT that numbers a group.
  static let tableFits =
    "\(kindSQL) = 'r' AND \(persistenceSQL) = 'p' AND \(triggersSQL) IS NULL "
    + "AND \(rulesSQL) IS NULL"

  /// One row per column of the table: name, type (as `format_type` spells it, for the
  /// message), NOT NULL, whether it alone is the primary key, whether a unique index of a
  /// deterministic collation has it alone as its key (NULLs distinct, no predicate), whether
  /// its collation is deterministic (NULL for none), how the server computes it instead of
  /// keeping what is sent (NULL for not); then ``tableQuery``'s four and ``hiddenSchemaSQL``,
  /// the same in every row; then the type's OID, its modifier (-1 for none) and its schema;
  /// then whether an insert must give it a value (``requiredTest``). No row when there is no
  /// table.
  static let schemaQuery = """
    SELECT a.attname::pg_catalog.text, pg_catalog.format_type(a.atttypid, a.atttypmod),
      a.attnotnull, \(primaryKeyTest), \(uniqueAloneTest), \(deterministicTest), \(computedSQL),
      \(kindSQL), \(persistenceSQL), \(triggersSQL), \(rulesSQL), \(hiddenSchemaSQL),
      a.atttypid, a.atttypmod, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_type t
        JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = a.atttypid),
      \(requiredTest)
    FROM pg_catalog.pg_attribute a
    WHERE a.attrelid = \(relation) AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum
    """

  private static let primaryKeyTest = """
    coalesce(a.attnum::pg_catalog.text = (SELECT i.indkey::pg_catalog.text \
    FROM pg_catalog.pg_index i \
    WHERE i.indrelid = a.attrelid AND i.indisprimary), false)
    """

  // indnullsnotdistinct came in PostgreSQL 15: read through to_jsonb, absent is false. The
  // whole row is `u.*`, as a bare `u` could name a column of the INSERT around it.
  private static let uniqueAloneTest = """
    EXISTS (SELECT 1 FROM pg_catalog.pg_index u WHERE u.indrelid = a.attrelid \
    AND u.indisunique AND u.indisvalid AND u.indkey::pg_catalog.text = a.attnum::pg_catalog.text \
    AND u.indpred IS NULL AND u.indexprs IS NULL \
    AND NOT coalesce((pg_catalog.to_jsonb(u.*)->>'indnullsnotdistinct')::pg_catalog.bool, false) \
    AND coalesce((SELECT c.collisdeterministic FROM pg_catalog.pg_collation c \
    WHERE c.oid = u.indcollation[0]), true))
    """

  /// A column whose value the server computes, whatever an INSERT or COPY sends: generated
  /// (GENERATED ALWAYS AS …, whose explicit values are refused), or an identity GENERATED
  /// ALWAYS (which refuses shop's numbers). An identity BY DEFAULT keeps what is sent.
  private static let computedSQL = """
    CASE WHEN a.attgenerated <> '' THEN 'generated' \
    WHEN a.attidentity = 'a' THEN 'identity' END
    """

  /// A column an INSERT must give a value, as it is NOT NULL (itself, or its domain) and the
  /// server has none for it: no default of its own or of its domain, neither generated nor an
  /// identity. `shop` sends only its six columns, so another such column makes inserts fail.
  private static let requiredTest = """
    (NOT a.atthasdef AND a.attgenerated = '' AND a.attidentity = '' \
    AND (SELECT (a.attnotnull OR t.typnotnull) AND t.typdefaultbin IS NULL \
    FROM pg_catalog.pg_type t WHERE t.oid = a.atttypid))
    """

  /// The names of the columns `shop` sends, as an SQL list.
  private static let sentColumns =
    (schema.map(\.name) + ["ref"]).map { "'\($0)'" }.joined(separator: ", ")

  private static let deterministicTest = """
    (SELECT c.collisdeterministic FROM pg_catalog.pg_collation c WHERE c.oid = a.attcollation)
    """

  /// The same test in SQL, so a one-round-trip INSERT writes nothing into a foreign table
  /// before `shop` has read the answer of ``schemaQuery``.
  static let schemaFits: String = {
    let rows = schema.map {
      "('\($0.name)', \($0.oid)::pg_catalog.oid, -1, true, \($0.primaryKey))"
    }
    return """
      (SELECT pg_catalog.count(*) FROM pg_catalog.pg_attribute a
      WHERE a.attrelid = \(relation) AND a.attnum > 0 AND NOT a.attisdropped
        AND (a.attname::pg_catalog.text, a.atttypid, a.atttypmod, a.attnotnull,
          \(primaryKeyTest)) IN (VALUES \(rows.joined(separator: ", ")))
        AND \(computedSQL) IS NULL) = \(schema.count)
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
      WHERE a.attrelid = \(relation) AND a.attname = 'ref' AND NOT a.attisdropped
        AND NOT (a.atttypid = \(textOID)::pg_catalog.oid AND NOT a.attnotnull
          AND \(uniqueAloneTest) AND coalesce(\(deterministicTest), false)
          AND \(computedSQL) IS NULL))
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
      WHERE a.attrelid = \(relation) AND a.attnum > 0 AND NOT a.attisdropped
        AND a.attname::pg_catalog.text NOT IN (\(sentColumns)) AND \(requiredTest))
      AND \(tableFits) AND \(hiddenSchemaSQL) IS NULL
      """
  }()

  /// How a refusal of the table ends: a writer wrote nothing; a reader (which never writes)
  /// read no order from it.
  static func refusalEnd(writing: Bool) -> String {
    writing ? "nothing was written" : "no order was read from it"
  }

  /// Why the table described by `result` (``schemaQuery``'s answer) is not `shop`'s; nil when
  /// it is, or when there is no table yet. `writing` says how the message ends.
  static func schemaProblem(_ result: PostgresResult, writing: Bool) -> String? {
    guard result.rows > 0 else { return nil }
    var found: [String: (row: Int, notNull: Bool, primaryKey: Bool)] = [:]
    var problems: [String] = []
    for row in 0..<result.rows {
      guard let name = result.text(row, 0) else { continue }
      found[name] = (row, result.text(row, 2) == "t", result.text(row, 3) == "t")
      if name == "ref", let problem = referenceProblem(result, row) {
        problems.append(problem)
      }
      let shops = name == "ref" || schema.contains { $0.name == name }
      if !shops && result.text(row, 15) == "t" {
        problems.append(
          "column \(name) is NOT NULL with no default, and shop sends only its own columns: "
            + "every insert would be refused (give it a default, or make it nullable)")
      }
      if shops, let computed = result.text(row, 6) {
        problems.append(
          computed == "identity"
            ? "column \(name) is GENERATED ALWAYS AS IDENTITY, which refuses the values shop "
              + "sends"
            : "column \(name) is generated (GENERATED ALWAYS AS …): the server would keep its "
              + "own value instead of the one shop sends")
      }
    }
    for column in schema {
      guard let have = found[column.name] else {
        problems.append("no column \(column.name) (\(column.declaration))")
        continue
      }
      var wrong: [String] = []
      if !isType(column.oid, result, have.row) {
        wrong.append("of type \(typeName(result, have.row))")
      }
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
    problems += tableProblems(result, 0, from: 7)
    guard !problems.isEmpty else { return nil }
    return "table \(table) is not the one shop makes: " + problems.joined(separator: "; ")
      + "; " + refusalEnd(writing: writing)
  }

  /// Whether the table described by `result` (``schemaQuery``'s answer, with rows) has `ref`:
  /// a table made before refs has not, and readers read its orders as having none.
  static func hasReference(_ result: PostgresResult) -> Bool {
    (0..<result.rows).contains { result.text($0, 0) == "ref" }
  }

  /// What is wrong with the `ref` column described in `row`, or nil.
  private static func referenceProblem(_ result: PostgresResult, _ row: Int) -> String? {
    var wrong: [String] = []
    let text = isType(textOID, result, row)
    if !text { wrong.append("of type \(typeName(result, row))") }
    if result.text(row, 2) == "t" { wrong.append("NOT NULL") }
    if result.text(row, 4) != "t" { wrong.append("not unique on its own") }
    if text && result.text(row, 5) != "t" {
      wrong.append("of a nondeterministic collation")
    }
    guard !wrong.isEmpty else { return nil }
    return "column ref is \(wrong.joined(separator: ", ")) where shop expects "
      + referenceDeclaration
  }

  /// Whether the column in `row` of ``schemaQuery``'s answer is of pg_catalog's type `oid`,
  /// without a modifier (`timestamptz(3)` is not shop's `timestamptz`).
  private static func isType(_ oid: UInt32, _ result: PostgresResult, _ row: Int) -> Bool {
    result.text(row, 12) == String(oid) && result.text(row, 13) == "-1"
  }

  /// The type of the column in `row` of ``schemaQuery``'s answer as a message names it:
  /// `format_type`'s words, and the schema of a type that is not pg_catalog's (a domain
  /// `public.jsonb` is spelled `jsonb` when `public` comes first on the search path).
  private static func typeName(_ result: PostgresResult, _ row: Int) -> String {
    let type = result.text(row, 1) ?? "unknown"
    guard let schema = result.text(row, 14), schema != "pg_catalog" else { return type }
    return "\(type) (from schema \(TerminalText.quoted(schema.utf8)))"
  }

  /// The table-wide problems in `row` of a result whose columns from `column` on are
  /// ``tableQuery``'s.
  static func tableProblems(_ result: PostgresResult, _ row: Int, from column: Int) -> [String] {
    var problems: [String] = []
    if let kind = result.text(row, column), kind != "r" {
      let kinds = ["p": "a partitioned table", "v": "a view", "m": "a materialized view"]
      problems.append("it is \(kinds[kind] ?? "a relation of kind '\(kind)'"), not a plain table")
    }
    switch result.text(row, column + 1) {
    case "u":
      problems.append(
        "it is UNLOGGED: a crash of the server empties it, losing every order reported into it")
    case "t":
      problems.append(
        "it is a temporary table (a search_path starting with pg_temp?): the server drops it "
          + "when the session ends, with every order reported into it")
    case nil, "p": break
    case let other?: problems.append("its persistence is '\(other)', not a permanent table's")
    }
    if let triggers = result.text(row, column + 2) {
      problems.append(
        "it has BEFORE INSERT row triggers (\(triggers)), which can change or skip the rows "
          + "shop inserts")
    }
    if let rules = result.text(row, column + 3) {
      problems.append("it has INSERT rules (\(rules)), which can change what an INSERT does")
    }
    return problems
  }

  /// Asks the catalog whether the table is `shop`'s: 65 naming the columns when not.
  func checkSchema(on connection: PostgresConnection, writing: Bool) throws {
    try takeSchema(try connection.run(Self.schemaQuery), writing: writing, place: connection.place)
  }

  /// Checks ``schemaQuery``'s answer: 69 when the table meant is in a schema the role may not
  /// use; 65 naming the columns when the table is not `shop`'s; else, when there is a table,
  /// notes it checked and whether it has `ref`.
  func takeSchema(_ description: PostgresResult, writing: Bool, place: PostgresPlace) throws {
    // The table found is not the one meant when the one meant is in a schema the role may
    // not use: that is the error, whatever the table found is like.
    if description.rows > 0, let schema = description.text(0, 11) {
      throw Self.hidden(in: schema, place: place)
    }
    if let problem = Self.schemaProblem(description, writing: writing) {
      throw PostgresError.badData(place, problem)
    }
    if description.rows > 0 {
      schemaChecked = true
      hasReference = Self.hasReference(description)
    }
  }

  /// Checks ``tableQuery``'s answer: 65 naming what the table has that `shop`'s does not.
  static func checkTable(_ result: PostgresResult, place: PostgresPlace) throws {
    let problems = tableProblems(result, 0, from: 0)
    guard !problems.isEmpty else { return }
    throw PostgresError.badData(
      place,
      "table \(table) is not the one shop makes: " + problems.joined(separator: "; ")
        + "; " + refusalEnd(writing: true))
  }
}
