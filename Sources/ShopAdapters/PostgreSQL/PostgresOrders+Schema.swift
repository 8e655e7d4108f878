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

  /// pg_catalog's `int8`, the type of `voids`.
  static let int8OID: UInt32 = 20

  /// How `voids` must be when it is there: a table made before voids gets it from the first
  /// `shop void`, never from a `place`, which does not send it. A void row holds the number
  /// of the order it takes back; an order's is NULL, so no DEFAULT may fill it. Unique: an
  /// order is taken back once, even by a writer that did not take the lock.
  static let voidsDeclaration = "bigint UNIQUE (nullable, unique on its own, no default)"

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

  /// A value the server would put in `voids` when an insert leaves it out, as `place` does:
  /// a DEFAULT, or an identity (whose sequence is its default). Over `a`, a column.
  private static let voidsFilledTest = "(a.atthasdef OR a.attidentity <> '')"

  /// Whether the table's `voids` would be filled by the server (``voidsFilledTest``): every
  /// order placed would be a void. False when there is no `voids`. One value.
  private static let voidsFilledSQL = """
    coalesce((SELECT \(voidsFilledTest) FROM pg_catalog.pg_attribute a \
    WHERE a.attrelid = \(relation) AND a.attname = 'voids' AND NOT a.attisdropped), false)
    """

  /// Whether the table has `voids` (a table made before voids has not). One value.
  static let hasVoidsSQL = """
    EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a \
    WHERE a.attrelid = \(relation) AND a.attname = 'voids' AND NOT a.attisdropped)
    """

  /// The table-wide facts alone, one row: asked in every writing transaction after its lock,
  /// which keeps a trigger, a rule or a default of `voids` (ALTER TABLE's lock waits for
  /// ours) from being added before COMMIT; then ``voidsFilledSQL``.
  static let tableQuery =
    "SELECT \(kindSQL), \(persistenceSQL), \(triggersSQL), \(rulesSQL), \(voidsFilledSQL)"

  /// ``tableQuery``'s test in SQL, for the INSERT that numbers a group.
  static let tableFits =
    "\(kindSQL) = 'r' AND \(persistenceSQL) = 'p' AND \(triggersSQL) IS NULL "
    + "AND \(rulesSQL) IS NULL AND NOT \(voidsFilledSQL)"

  /// One row per column of the table: name, type (as `format_type` spells it, for the
  /// message), NOT NULL, whether it alone is the primary key, whether a unique index of a
  /// deterministic collation has it alone as its key (NULLs distinct, no predicate), whether
  /// its collation is deterministic (NULL for none), how the server computes it instead of
  /// keeping what is sent (NULL for not); then ``tableQuery``'s four and ``hiddenSchemaSQL``,
  /// the same in every row; then the type's OID, its modifier (-1 for none) and its schema;
  /// then whether an insert must give it a value (``requiredTest``), and whether the server
  /// fills it when an insert leaves it out (``voidsFilledTest``). No row when there is no
  /// table.
  static let schemaQuery = """
    SELECT a.attname::pg_catalog.text, pg_catalog.format_type(a.atttypid, a.atttypmod),
      a.attnotnull, \(primaryKeyTest), \(uniqueAloneTest), \(deterministicTest), \(computedSQL),
      \(kindSQL), \(persistenceSQL), \(triggersSQL), \(rulesSQL), \(hiddenSchemaSQL),
      a.atttypid, a.atttypmod, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_type t
        JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = a.atttypid),
      \(requiredTest), \(voidsFilledTest)
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
    (schema.map(\.name) + ["ref", "voids"]).map { "'\($0)'" }.joined(separator: ", ")

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
      WHERE a.attrelid = \(relation) AND a.attname = 'voids' AND NOT a.attisdropped
        AND NOT (a.atttypid = \(int8OID)::pg_catalog.oid AND a.atttypmod = -1
          AND NOT a.attnotnull AND \(uniqueAloneTest) AND \(computedSQL) IS NULL
          AND NOT \(voidsFilledTest)))
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
      WHERE a.attrelid = \(relation) AND a.attnum > 0 AND NOT a.attisdropped
        AND a.attname::pg_catalog.text NOT IN (\(sentColumns)) AND \(requiredTest))
      AND \(tableFits) AND \(hiddenSchemaSQL) IS NULL
      """
  }()
}
