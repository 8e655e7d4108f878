import ShopConventions
import ShopCore

// Over 300 lines on purpose: the writer's one job, one transaction under the table's lock
// (check the table, number, insert, commit), read in order in one file.

/// Orders in a PostgreSQL table, shared by any number of processes on any number of machines.
///
/// `save` numbers and inserts a group in one transaction that holds an exclusive lock on the
/// table from reading the last number to the commit, so numbers never repeat and never skip
/// (a sequence would skip on a rollback). A small group goes in one round trip, numbered by
/// the server; a large one by binary COPY. `synchronous_commit` is on: when COMMIT is
/// confirmed, the orders are on the server's disk.
///
/// Before its first use of the table, each command checks the table is the one `shop` makes
/// (``schema``), and every writer and cheap reader checks the numbering it continues or
/// reads from (``Numbering``), so what `place` accepts `orders` accepts.
public final class PostgresOrders: Orders, OrderVoids, OrderHistory {
  /// The table, created on first use.
  static let table = "shop_orders"

  /// The privileges each statement needs, for the message when one is missing.
  enum Needs {
    static let select = "SELECT on table \(table)"
    static let lock =
      "UPDATE (or DELETE or TRUNCATE) on table \(table): LOCK TABLE … IN EXCLUSIVE MODE, "
      + "which keeps the numbers free of gaps, takes it (shop never updates a row)"
    static let insert = "SELECT and INSERT on table \(table)"
    static let copy = "INSERT on table \(table)"
    static let create =
      "CREATE on the schema to create table \(table) (or create it first, as docs/postgresql.md shows)"
    /// ADD COLUMN … UNIQUE creates an index, which the server makes only for the table's
    /// owner with CREATE on its schema: either refusal gets this one message.
    static let addReference =
      "to own table \(table), and CREATE on its schema for the column's unique index, to add "
      + "its ref column (or add it first, as docs/postgresql.md shows)"
    static let voidsColumn = "the voids column that void needs"
    /// As ``addReference``, for `voids`, which only `shop void` adds; `qualified` is the
    /// table's name with its schema, as the statement to run names it.
    static func addVoids(_ qualified: String) -> String {
      "to own table \(qualified), and CREATE on its schema for the column's unique index, to "
        + "add \(voidsColumn) (or have the table's owner run: ALTER TABLE "
        + "\(qualified) ADD COLUMN voids bigint UNIQUE; see docs/postgresql.md)"
    }
  }

  private let uri: String
  /// libpq, loaded on first use: a file or memory store never loads it.
  private let library: String
  private var opened: PostgresConnection?
  /// The table was found to be `shop`'s on this connection: checked once per command.
  var schemaChecked = false
  /// The first `place` of a session checks the table the quick way when it can
  /// (``insertAfterQuickCheck(_:on:)``); off only in the tests that compare it with the plain
  /// way.
  var quickCheck = true
  /// How many groups were inserted after the quick check, for the tests that compare ways.
  var quicklyChecked = 0
  /// The checked table has the `ref` column; one made before refs has not, and readers, which
  /// never alter it, read its orders as having no ref.
  var hasReference = true
  /// The checked table has the `voids` column; one made before voids has not, and readers
  /// read its rows as orders none took back.
  var hasVoids = true
  /// `$PGCONNECT_TIMEOUT`, as the root read it: the bound on connecting when the URI's
  /// connect_timeout is unset, 0 or less.
  private let connectTimeoutVariable: String?
  /// The last order this store saved and confirmed, so reported: for the 75 message.
  var lastSaved: Int?

  /// libpq's soname, as Debian's libpq5 installs it.
  public static let standardLibrary = LibPQ.standardName

  /// Touches nothing yet: `library` is loaded, the connection made and the table created on
  /// first use by a writer. `connectTimeoutVariable` is `$PGCONNECT_TIMEOUT`, nil when unset.
  public init(
    uri: String, library: String = PostgresOrders.standardLibrary,
    connectTimeoutVariable: String? = nil
  ) {
    self.uri = uri
    self.library = library
    self.connectTimeoutVariable = connectTimeoutVariable
  }

  /// Why `library` can't serve a PostgreSQL store (it is not there, or too old), or nil when
  /// it can. Loads it: for `--explain` of a PostgreSQL store only.
  public static func libraryProblem(_ library: String) -> String? {
    do {
      _ = try LibPQ(loading: library)
      return nil
    } catch {
      return error.message
    }
  }

  /// Why a command would refuse `uri` before connecting (64: a bad `shop_timeout`, or a URI
  /// libpq can't read), or nil; checked as a connection checks it, in the same order. Loads
  /// `library` only to read the URI, and nil when it can't be loaded (``libraryProblem(_:)``
  /// says so): for `--explain` of a PostgreSQL store only.
  public static func uriProblem(_ uri: String, library: String) -> PostgresError? {
    do {
      let (libpqURI, _) = try PostgresPlace.shopParameters(of: uri).get()
      guard let pq = try? LibPQ(loading: library) else { return nil }
      _ = try PostgresPlace.parse(libpqURI, pq).get()
      return nil
    } catch {
      return error
    }
  }

  public func save(_ drafts: [Draft]) throws -> [Order] {
    guard !drafts.isEmpty else { return [] }
    let saved = try withTable { connection in try save(drafts, on: connection) }
    if let last = saved.last { lastSaved = last.number }
    return saved
  }

  /// A group without refs is saved as before; one with refs by ``placeReferenced(_:on:)``.
  public func place(_ drafts: [Draft]) throws -> [Placement] {
    guard drafts.contains(where: { $0.reference != nil }) else {
      return try save(drafts).map { .placed($0) }
    }
    return try withTable { connection in try placeReferenced(drafts, on: connection) }
  }

  /// Groups smaller than this go in one round trip, from arrays; larger ones by COPY, whose
  /// multi-row inserts write far less WAL per row, for two round trips.
  static let copyFrom = 64

  private func save(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
    drafts.count < Self.copyFrom
      ? try insert(drafts, on: connection) : try copy(drafts, on: connection)
  }

  // MARK: - The connection

  /// For writers: runs `body` on the connection; when the table does not exist yet, or has
  /// no `ref` column (a table made before refs), creates it or adds the column and runs
  /// `body` again, which checks the table anew. Costs nothing once the table is there. A
  /// table made before voids is left so: only `shop void` adds `voids` (``addVoids(on:)``).
  /// With `missing`, a writer that saves nothing where there is no table (a void finds no
  /// order) answers it and creates nothing, as a missing orders file stays missing.
  func withTable<Result>(
    missing: Result? = nil, _ body: (PostgresConnection) throws -> Result
  ) throws -> Result {
    let connection = try connect()
    do {
      return try body(connection)
    } catch let error as PostgresError
      where error.sqlState == "42P01" || error.sqlState == "42703"
    {  // undefined_table; undefined_column: a table made before refs
      _ = try? connection.run("ROLLBACK")
      if let missing, error.sqlState == "42P01" {
        try checkNotHidden(on: connection)
        return missing
      }
      // The refused transaction waited for that ROLLBACK under the role's own
      // idle_in_transaction_session_timeout (shop's ended with the error): a session that
      // ended there is replaced, as nothing was in flight.
      let connection = try connect()
      try createTable(on: connection)
      schemaChecked = false  // What was made is checked as any table is: a temporary one too.
      return try body(connection)
    }
  }

  /// For readers, which never create or alter anything: runs `body` on the connection, and
  /// when there is no table, answers `missing` (no orders, as a missing orders file has none).
  func withExistingTable<Result>(
    missing: Result, _ body: (PostgresConnection) throws -> Result
  ) throws -> Result {
    let connection = try connect()
    do {
      return try body(connection)
    } catch let error as PostgresError where error.sqlState == "42P01" {  // undefined_table
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      try checkNotHidden(on: connection)
      return missing
    }
  }

  /// A schema of the search path that the role may not use is left out of it, so a table
  /// there reads as no table at all: 69 naming the schema, never "no orders".
  private func checkNotHidden(on connection: PostgresConnection) throws {
    let hidden = try connection.run(Self.hiddenTableQuery)
    guard hidden.rows > 0, let schema = hidden.text(0, 0) else { return }
    throw Self.hidden(in: schema, place: connection.place)
  }

  /// The table meant is in `schema`, which the role may not use: 69, a missing privilege
  /// (SQLSTATE 42501) as the server would say.
  static func hidden(in schema: String, place: PostgresPlace) -> PostgresError {
    PostgresError.unavailable(
      place,
      "table \(table) is in schema \(TerminalText.quoted(schema.utf8)), which the role "
        + "may not use: the role needs USAGE on that schema", sqlState: "42501")
  }

  /// The table meant is in the first schema of the search path that holds a relation named
  /// `shop_orders`, whether or not the role may use that schema (the server skips it when
  /// not, and would find a later one): that schema's name when the role lacks USAGE on it,
  /// else NULL. One value, computed once per statement.
  static let hiddenSchemaSQL = """
    (SELECT CASE WHEN NOT pg_catalog.has_schema_privilege(n.oid, 'USAGE')
      THEN n.nspname::pg_catalog.text END
    FROM (\(searchPathSQL)) s
      JOIN pg_catalog.pg_namespace n ON n.nspname::pg_catalog.text = s.name
      JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = '\(table)'
    ORDER BY s.o
    LIMIT 1)
    """

  /// ``hiddenSchemaSQL`` alone, for when no table was found.
  static let hiddenTableQuery = "SELECT \(hiddenSchemaSQL)"

  /// The schemas of the search path (`o`, `name`), in order, read as the server reads the
  /// setting (which it checked when it took it): elements split on commas outside double
  /// quotes, spaces around them dropped; a quoted one as written, `""` standing for `"`; an
  /// unquoted one folded to lower case as identifiers fold (ASCII letters only). `$user` is
  /// the current role's schema, `pg_temp` the session's temporary schema (NULL until it has
  /// one). A schema that does not exist is a name no schema has.
  static let searchPathSQL = """
    SELECT p.o, CASE WHEN p.name = '$user' THEN current_user::pg_catalog.text
      WHEN p.name = 'pg_temp' THEN (SELECT t.nspname::pg_catalog.text
        FROM pg_catalog.pg_namespace t WHERE t.oid = pg_catalog.pg_my_temp_schema())
      ELSE p.name END AS name
    FROM (SELECT r.o, coalesce(pg_catalog.replace(r.m[1], '""', '"'),
        pg_catalog.translate(r.m[2], 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'))
        AS name
      FROM pg_catalog.regexp_matches(pg_catalog.current_setting('search_path'),
        E'"((?:[^"]|"")*)"|([^ \\t\\n\\r\\f,"][^ \\t\\n\\r\\f,]*)', 'g')
        WITH ORDINALITY AS r(m, o)) p
    """

  /// The store's connection, made on first use. A batch's session may end between its
  /// groups (`idle_session_timeout`, a restarted server, a pooler closing idle clients):
  /// every group before has its outcome reported, so a new connection takes its place, and
  /// checks the table again (it may be another server's, after a failover).
  func connect() throws -> PostgresConnection {
    if let opened {
      guard opened.endedWhileIdle else { return opened }
      self.opened = nil
      schemaChecked = false
    }
    let connection = try PostgresConnection(
      uri: uri, library: library, connectTimeoutVariable: connectTimeoutVariable)
    opened = connection
    return connection
  }

  /// Under a lock, so two first users don't race: creates the table when there is none, or
  /// adds `ref` to one made before refs, and with `voids`, `voids` to one made before voids;
  /// asks the catalog first, so each statement runs only when needed and a refusal names the
  /// privilege it needs (CREATE on the schema for the table, ownership for a column).
  private func createTable(on connection: PostgresConnection, voids: Bool = false) throws {
    do {
      try checkNotHidden(on: connection)
      try createOrAlterTable(on: connection, voids: voids)
    } catch {
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    }
  }

  /// For `shop void` on a table made before voids, outside any transaction: adds `voids`
  /// (and `ref`, if missing too), then has the next use check the table anew.
  func addVoids(on connection: PostgresConnection) throws {
    try createTable(on: connection, voids: true)
    schemaChecked = false
  }

  private func createOrAlterTable(on connection: PostgresConnection, voids: Bool) throws {
    let found = try connection.run(
      connection.opening + [
        .init(sql: "SELECT pg_catalog.pg_advisory_xact_lock(\(Self.schemaLock))"),
        .init(
          sql: "SELECT pg_catalog.to_regclass('\(Self.table)') IS NOT NULL, EXISTS (SELECT 1 "
            + "FROM pg_catalog.pg_attribute WHERE attrelid = "
            + "pg_catalog.to_regclass('\(Self.table)') AND attname = 'ref' "
            + "AND NOT attisdropped), EXISTS (SELECT 1 "
            + "FROM pg_catalog.pg_attribute WHERE attrelid = "
            + "pg_catalog.to_regclass('\(Self.table)') AND attname = 'voids' "
            + "AND NOT attisdropped), (SELECT pg_catalog.quote_ident(n.nspname) || '.' || "
            + "pg_catalog.quote_ident(c.relname) FROM pg_catalog.pg_class c JOIN "
            + "pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            + "WHERE c.oid = pg_catalog.to_regclass('\(Self.table)'))"),
      ])
    let exists = found.last?.text(0, 0) == "t"
    let hasColumn = found.last?.text(0, 1) == "t"
    let hasVoidsColumn = found.last?.text(0, 2) == "t"
    // `ref` and `voids` are nullable, so they are checked apart (``referenceDeclaration``,
    // ``voidsDeclaration``).
    let columns =
      Self.schema.map { "  \($0.name) \($0.declaration)" }
      + ["  ref text UNIQUE", "  voids bigint UNIQUE"]
    var statements: [PostgresConnection.Statement] = []
    if !exists {
      statements.append(
        .init(
          sql: "CREATE TABLE IF NOT EXISTS \(Self.table) (\n"
            + columns.joined(separator: ",\n") + "\n)", needs: Needs.create))
    } else {
      if !hasColumn {
        statements.append(
          .init(
            sql: "ALTER TABLE \(Self.table) ADD COLUMN IF NOT EXISTS ref text UNIQUE",
            needs: Needs.addReference))
      }
      if voids && !hasVoidsColumn {
        // The name as the statement to run would give it; a schema named with bytes a
        // terminal would act on is left out.
        let qualified = found.last?.text(0, 3).flatMap { name in
          name.unicodeScalars.allSatisfy { (" "..."~").contains($0) } ? name : nil
        }
        statements.append(
          .init(
            sql: "ALTER TABLE \(Self.table) ADD COLUMN IF NOT EXISTS voids bigint UNIQUE",
            needs: Needs.addVoids(qualified ?? Self.table)))
      }
    }
    statements.append(.init(sql: "COMMIT"))
    try connection.run(statements)
  }

  /// The advisory lock key for creating the table: "shop" in ASCII.
  private static let schemaLock = 0x7368_6F70
}
