import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// What the table check covers besides the five columns: what can make the server keep other
/// rows than `shop` sends (triggers, rules, partitions), and the `ref` column.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresTableTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ quantity: Int = 1, ref: String? = nil) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: quantity, price: 30)], placedAt: time,
        reference: ref.flatMap(Reference.init)))
  }

  /// A new database with shop's table in it, empty: its server, name and URI.
  func emptyTable() throws -> (PostgresServer, String, String) {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name)
    _ = try server.sql(
      "CREATE TABLE shop_orders (\(Self.fiveColumns)ref text UNIQUE)", database: name)
    return (server, name, uri)
  }

  func rows(_ server: PostgresServer, _ name: String) throws -> String {
    try server.sql("SELECT count(*) FROM shop_orders", database: name)
  }

  /// Every writing path (one order, a small group, one by COPY, one with refs) and, with
  /// `readers`, every reader refuse with 65 saying `words`, and nothing is written.
  func expectEveryCommandRefuses(
    _ uri: String, saying words: String, store: PostgresOrders? = nil, readers: Bool = true
  ) throws {
    let big = try (0..<70).map { try draft($0 % 3 + 1) }
    var commands: [(String, (PostgresOrders) throws -> Void)] = [
      ("one", { _ = try $0.save([draft()]) }),
      ("five", { _ = try $0.save((1...5).map { try draft($0) }) }),
      ("copy", { _ = try $0.save(big) }), ("ref", { _ = try $0.place([draft(ref: "r-1")]) }),
    ]
    if readers {
      commands += [
        ("all", { try $0.readAll { _ in } }), ("count", { _ = try $0.count() }),
        ("last", { try $0.last(3) { _ in } }),
        ("number", { _ = try $0.order(numbered: 1001) { _ in } }),
        ("range", { try $0.orders(in: .all, last: nil) { _ in } }),
        ("by ref", { _ = try $0.order(referenced: #require(Reference("r-1"))) { _ in } }),
        ("summary", { _ = try $0.summary(of: .all, by: .none) }),
        ("summary by day", { _ = try $0.summary(of: .all, by: .day) }),
      ]
    }
    for (index, (what, body)) in commands.enumerated() {
      let error = #expect(throws: PostgresError.self, "\(what)") {
        try body(store ?? PostgresOrders(uri: uri))
      }
      #expect(error?.status == .dataError, "\(what): \(String(describing: error))")
      #expect(error?.message.contains(words) == true, "\(what): \(String(describing: error))")
      // Writers say nothing was written; readers, which never write, say what they did not do.
      let writing = index < 4
      #expect(
        error?.message.contains("nothing was written") == writing,
        "\(what): \(String(describing: error))")
    }
  }

  static let skipEven = """
    CREATE FUNCTION skip_even() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.number % 2 = 0 THEN RETURN NULL; END IF; RETURN NEW; END $$;
    """

  /// Ways a table can keep other rows than the ones sent, each added to shop's own table.
  static let rowChangers: [(sql: String, says: String)] = [
    (
      skipEven + "CREATE TRIGGER a BEFORE INSERT ON shop_orders FOR EACH ROW "
        + "EXECUTE FUNCTION skip_even()", "BEFORE INSERT row triggers (a)"
    ),
    (
      """
      CREATE FUNCTION raise_total() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.total := NEW.total + 1; RETURN NEW; END $$;
      CREATE TRIGGER b BEFORE INSERT OR UPDATE ON shop_orders FOR EACH ROW
        EXECUTE FUNCTION raise_total();
      CREATE TRIGGER c BEFORE INSERT ON shop_orders FOR EACH ROW WHEN (NEW.total > 100)
        EXECUTE FUNCTION raise_total();
      """, "BEFORE INSERT row triggers (b, c)"
    ),
    (
      skipEven + "CREATE TRIGGER d BEFORE INSERT ON shop_orders FOR EACH ROW "
        + "EXECUTE FUNCTION skip_even(); ALTER TABLE shop_orders DISABLE TRIGGER d",
      "BEFORE INSERT row triggers (d)"
    ),
    (
      "CREATE RULE nothing AS ON INSERT TO shop_orders DO INSTEAD NOTHING",
      "INSERT rules (nothing)"
    ),
    (
      "CREATE TABLE copies (number bigint); CREATE RULE also AS ON INSERT TO shop_orders "
        + "DO ALSO INSERT INTO copies VALUES (NEW.number)", "INSERT rules (also)"
    ),
  ]

  @Test(arguments: 0..<rowChangers.count)
  func aTableThatCanKeepOtherRowsThanShopSendsIsRefusedByEveryCommand(index: Int) throws {
    let (sql, says) = Self.rowChangers[index]
    let (server, name, uri) = try emptyTable()  // Creates the table.
    try server.sql(sql, database: name)
    try expectEveryCommandRefuses(uri, saying: says)
    try expectEveryCommandRefuses(uri, saying: "table shop_orders is not the one shop makes")
    #expect(try rows(server, name) == "0\n")
  }

  /// A numbering whose next numbers pass the largest `int8`: every way of writing says so
  /// (the file store's words), whether the group is one order, two or a COPY, and saves
  /// nothing; a group that still fits is placed.
  @Test func numbersPastTheLargestIntegerAreFullOnEveryWritingPath() throws {
    let (server, name, uri) = try emptyTable()  // Creates the table.
    try server.sql(
      "INSERT INTO shop_orders (number, placed_at, items, total, payable) SELECT n, now(), "
        + #"'[{"sku":"pen","quantity":1,"price":30}]', 30, 30 FROM unnest(ARRAY[1001, "#
        + "\(Int.max - 2), \(Int.max - 1)]::int8[]) AS n",
      database: name)
    let big = try (0..<70).map { try draft($0 % 3 + 1) }
    for (what, drafts) in [("two", [try draft(), try draft()]), ("copy", big)] {
      #expect(throws: OrdersFull(last: Int.max - 1), "\(what)") {
        _ = try PostgresOrders(uri: uri).save(drafts)
      }
    }
    #expect(throws: OrdersFull(last: Int.max - 1)) {
      _ = try PostgresOrders(uri: uri).place([draft(ref: "r-1"), draft(ref: "r-2")])
    }
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [Int.max])
    for drafts in [[try draft()], big, [try draft(ref: "r-3")]] {
      #expect(throws: OrdersFull(last: Int.max)) {
        _ = try PostgresOrders(uri: uri).place(drafts)
      }
    }
    #expect(try rows(server, name) == "4\n")
  }

  @Test func aPartitionedTableIsRefusedWhateverItsPartitionsDo() throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql(
      """
      CREATE TABLE shop_orders (number bigint PRIMARY KEY, placed_at timestamptz NOT NULL,
        items jsonb NOT NULL, total bigint NOT NULL, payable bigint NOT NULL, ref text)
        PARTITION BY RANGE (number);
      CREATE TABLE shop_orders_1 PARTITION OF shop_orders FOR VALUES FROM (0) TO (1000000);
      \(Self.skipEven)
      CREATE TRIGGER e BEFORE INSERT ON shop_orders_1 FOR EACH ROW EXECUTE FUNCTION skip_even();
      """, database: name)
    try expectEveryCommandRefuses(
      server.tcpURI(name), saying: "it is a partitioned table, not a plain table")
    #expect(try rows(server, name) == "0\n")
  }

  /// What a table gains between two groups of one command (a BEFORE INSERT trigger that can
  /// skip rows, UNLOGGED that a crash empties) is seen by the next group, under its lock,
  /// before it writes: no order is reported that the server would not keep.
  @Test(arguments: [
    (
      PostgresTableTests.skipEven + "CREATE TRIGGER a BEFORE INSERT ON shop_orders FOR EACH ROW "
        + "EXECUTE FUNCTION skip_even()", "BEFORE INSERT row triggers (a)"
    ),
    ("ALTER TABLE shop_orders SET UNLOGGED", "it is UNLOGGED"),
    // `place` leaves `voids` out: a default would make each order a void.
    (
      "ALTER TABLE shop_orders ALTER voids SET DEFAULT 1001", "column voids is filled by the server"
    ),
  ])
  func aTableChangedWhileAStoreIsOpenStopsItsNextGroup(change: String, saying: String) throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let store = PostgresOrders(uri: server.tcpURI(name))
    #expect(try store.save([draft()]).map(\.number) == [1001])
    try server.sql(change, database: name)
    try expectEveryCommandRefuses(
      server.tcpURI(name), saying: saying, store: store, readers: false)
    #expect(try rows(server, name) == "1\n")
  }

  /// The COPY's own count, apart from the table check: a short one is refused with COMMIT
  /// unsent, and the rollback keeps nothing.
  @Test func aCopyTheServerKeptShortOfIsNeverCommitted() throws {
    let (server, name, uri) = try emptyTable()
    try server.sql(
      Self.skipEven + "CREATE TRIGGER a BEFORE INSERT ON shop_orders FOR EACH ROW "
        + "EXECUTE FUNCTION skip_even()", database: name)
    let connection = try PostgresConnection(uri: uri, library: PostgresOrders.standardLibrary)
    try connection.run("BEGIN")
    var rows = PostgresCopyRows(capacity: 400)
    for number in [1001, 1002, 1003] {
      rows.startRow(fields: 5)
      rows.append(number)
      let inRange = rows.appendTimestamp(secondsSince1970: time.secondsSince1970)
      #expect(inRange)
      rows.appendJSONB(Array(#"[{"sku":"pen","quantity":1,"price":30}]"#.utf8))
      rows.append(30)
      rows.append(30)
    }
    let outcome = connection.copyThenCommit(
      "COPY shop_orders (number, placed_at, items, total, payable) FROM STDIN (FORMAT binary)",
      rows, count: 3, needs: nil)
    guard case .refused(let error, _) = outcome else {
      Issue.record("a short COPY was not refused: \(outcome)")
      return
    }
    #expect(error.status == .dataError)
    #expect(error.message.contains("the server kept 2 of the 3 orders it was sent"), "\(error)")
    try connection.run("ROLLBACK")
    #expect(try self.rows(server, name) == "0\n")
  }

  /// AFTER triggers see the rows as kept (an audit log, a notification): they may stay.
  @Test func anAfterTriggerIsLeftToDoItsWork() throws {
    let (server, name, uri) = try emptyTable()
    try server.sql(
      """
      CREATE TABLE audit (number bigint);
      CREATE FUNCTION audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO audit VALUES (NEW.number); RETURN NULL; END $$;
      CREATE TRIGGER f AFTER INSERT ON shop_orders FOR EACH ROW EXECUTE FUNCTION audit();
      CREATE TRIGGER g BEFORE DELETE ON shop_orders FOR EACH ROW EXECUTE FUNCTION audit();
      """, database: name)
    let big = try (0..<70).map { try draft($0 % 3 + 1) }
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1001])
    #expect(try PostgresOrders(uri: uri).save(big).last?.number == 1071)
    #expect(try PostgresOrders(uri: uri).place([draft(ref: "r-1")]).count == 1)
    #expect(try PostgresOrders(uri: uri).count() == 72)
    #expect(try server.sql("SELECT count(*) FROM audit", database: name) == "72\n")
  }

  static let fiveColumns =
    "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
    + "total bigint NOT NULL, payable bigint NOT NULL, "

  /// `ref` columns that are not as shop makes it (text, nullable, unique on its own, compared
  /// byte for byte), and what the message must say about each.
  static let foreignReferences: [(sql: String, says: String)] = [
    ("ref char(10) UNIQUE", "column ref is of type character(10) where shop expects text UNIQUE"),
    ("ref integer UNIQUE", "column ref is of type integer where"),
    ("ref varchar(64) UNIQUE", "column ref is of type character varying(64) where"),
    ("ref text", "column ref is not unique on its own where"),
    ("ref text NOT NULL UNIQUE", "column ref is NOT NULL where"),
    ("ref text, UNIQUE (ref, total)", "column ref is not unique on its own"),
    ("ref text, UNIQUE (ref) INCLUDE (total)", "column ref is not unique on its own"),
    ("ref text UNIQUE NULLS NOT DISTINCT", "column ref is not unique on its own"),
    (
      "ref text); CREATE UNIQUE INDEX ON shop_orders (ref) WHERE ref <> 'x'; SELECT (1",
      "column ref is not unique on its own"
    ),
    (
      "ref text); CREATE UNIQUE INDEX ON shop_orders (lower(ref)); SELECT (1",
      "column ref is not unique on its own"
    ),
    (
      "ref text COLLATE loose UNIQUE",
      "nondeterministic collation where shop expects text UNIQUE"
    ),
    (
      "ref text UNIQUE); CREATE UNIQUE INDEX ON shop_orders (ref COLLATE loose); "
        + "ALTER TABLE shop_orders ALTER ref TYPE text COLLATE loose; SELECT (1",
      "of a nondeterministic collation where shop expects"
    ),
  ]

  static let looseCollation =
    "CREATE COLLATION loose (provider = icu, locale = 'und-u-ks-level2', deterministic = false)"

  @Test(arguments: 0..<foreignReferences.count)
  func aRefColumnNotAsShopMakesItIsRefusedByEveryCommand(index: Int) throws {
    let (column, says) = Self.foreignReferences[index]
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql(Self.looseCollation, database: name)
    try server.sql("CREATE TABLE shop_orders (\(Self.fiveColumns)\(column))", database: name)
    try expectEveryCommandRefuses(server.tcpURI(name), saying: says)
    #expect(try rows(server, name) == "0\n")
  }

  /// `voids` columns that are not as shop makes it (bigint, nullable, unique on its own, left
  /// NULL by an insert that does not send it), and what the message must say about each.
  static let foreignVoids: [(sql: String, says: String)] = [
    ("voids integer UNIQUE", "column voids is of type integer where shop expects bigint UNIQUE"),
    ("voids numeric UNIQUE", "column voids is of type numeric where"),
    ("voids bigint", "column voids is not unique on its own where"),
    ("voids bigint NOT NULL UNIQUE", "column voids is NOT NULL where"),
    ("voids bigint UNIQUE DEFAULT 1001", "column voids is filled by the server"),
    // DEFAULT NULL is no default at all (the server keeps none); an expression is one.
    ("voids bigint UNIQUE DEFAULT (1000 + 1)", "column voids is filled by the server"),
    ("voids bigint UNIQUE GENERATED BY DEFAULT AS IDENTITY", "filled by the server"),
    ("voids bigint UNIQUE GENERATED ALWAYS AS IDENTITY", "column voids is GENERATED ALWAYS"),
    ("voids bigint UNIQUE GENERATED ALWAYS AS (number - 1) STORED", "column voids is generated"),
  ]

  /// Every command refuses a `voids` not as shop makes it, `void` too, and writes nothing: a
  /// default `place` would leave to the server is refused, since `place` never sends `voids`.
  @Test(arguments: 0..<foreignVoids.count)
  func aVoidsColumnNotAsShopMakesItIsRefusedByEveryCommand(index: Int) throws {
    let (column, says) = Self.foreignVoids[index]
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql(
      "CREATE TABLE shop_orders (\(Self.fiveColumns)ref text UNIQUE, \(column))", database: name)
    try expectEveryCommandRefuses(server.tcpURI(name), saying: says)
    let void = #expect(throws: PostgresError.self, "\(column)") {
      try PostgresOrders(uri: server.tcpURI(name)).void(Draft(voiding: 1001, placedAt: time))
    }
    #expect(void?.status == .dataError, "\(column): \(String(describing: void))")
    #expect(void?.message.contains(says) == true, "\(column): \(String(describing: void))")
    #expect(try rows(server, name) == "0\n")
  }

  /// The ways to make `ref` as shop makes it that are not shop's own words.
  @Test(arguments: [
    "ref text UNIQUE", "ref text COLLATE \"C\" UNIQUE", "ref text UNIQUE DEFERRABLE",
    "ref text); CREATE UNIQUE INDEX ON shop_orders (ref); SELECT (1",
  ])
  func aRefColumnAsShopMakesItIsTaken(column: String) throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name)
    try server.sql("CREATE TABLE shop_orders (\(Self.fiveColumns)\(column))", database: name)
    #expect(try PostgresOrders(uri: uri).place([draft(ref: "ab")]).count == 1)
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1002])
    var found: [Int] = []
    #expect(
      try PostgresOrders(uri: uri).order(referenced: #require(Reference("ab"))) {
        found.append($0.number)
      })
    #expect(found == [1001])
    #expect(try !PostgresOrders(uri: uri).order(referenced: #require(Reference("AB"))) { _ in })
  }

  // MARK: - Tables the server does not keep as shop sends them

  /// An UNLOGGED table is emptied by a crash of the server: every order reported into it
  /// would be lost, and its numbers given again.
  @Test func anUnloggedTableIsRefusedByEveryCommand() throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql(
      "CREATE UNLOGGED TABLE shop_orders (\(Self.fiveColumns)ref text UNIQUE)", database: name)
    try expectEveryCommandRefuses(server.tcpURI(name), saying: "it is UNLOGGED")
    #expect(try rows(server, name) == "0\n")
  }

  /// A search_path that starts with pg_temp makes CREATE TABLE make a temporary table, gone
  /// with the session: every writer refuses it, even the one that just made it, so nothing is
  /// reported into it; the readers, in sessions of their own, find no table.
  @Test(arguments: ["pg_temp", "pg_temp,public"])
  func aTemporaryTableIsRefusedAndNothingIsReportedIntoIt(path: String) throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name) + "?options=-c%20search_path%3D\(path)"
    try expectEveryCommandRefuses(uri, saying: "it is a temporary table", readers: false)
    #expect(try PostgresOrders(uri: uri).count() == 0)
    #expect(try server.sql("SELECT to_regclass('public.shop_orders')", database: name) == "\n")
  }

  // MARK: - Defaults and generated columns

  /// A DEFAULT on any of shop's columns (and an identity BY DEFAULT on `number`) never takes
  /// the place of what shop sends: every writing path sends every column, `ref` as NULL for an
  /// order without one, so a later `--ref web-1` is a new order.
  @Test func aDefaultOnAnyColumnNeverReplacesWhatShopSends() throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name)
    try server.sql(
      """
      CREATE TABLE shop_orders (number bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        placed_at timestamptz NOT NULL DEFAULT now(), items jsonb NOT NULL DEFAULT '[]',
        total bigint NOT NULL DEFAULT 7, payable bigint NOT NULL DEFAULT 7,
        ref text UNIQUE DEFAULT 'web-1')
      """, database: name)
    var saved: [Order] = []
    saved += try PostgresOrders(uri: uri).save([draft()])
    saved += try PostgresOrders(uri: uri).save((1...5).map { try draft($0) })
    saved += try PostgresOrders(uri: uri).save((0..<70).map { try draft($0 % 3 + 1) })
    let placed = try PostgresOrders(uri: uri).place([draft(ref: "web-1"), draft(2)])
    guard case .placed(let referenced) = placed.first, case .placed(let plain) = placed.last
    else {
      Issue.record("web-1 was not placed anew: \(placed)")
      return
    }
    saved += [referenced, plain]
    #expect(referenced.number == 1077)
    var listed: [Order] = []
    try PostgresOrders(uri: uri).readAll { listed.append($0) }
    #expect(listed == saved)
    #expect(
      try server.sql("SELECT number FROM shop_orders WHERE ref IS NOT NULL", database: name)
        == "1077\n")
  }

  /// Columns whose value the server computes: the check refuses them, rather than a
  /// generated `ref` giving an order another's ref, or an INSERT failing obscurely.
  static let generatedColumns: [(sql: String, says: String)] = [
    (
      fiveColumns + "ref text UNIQUE GENERATED ALWAYS AS ('web-' || number) STORED",
      "column ref is generated"
    ),
    (
      "number bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, placed_at timestamptz NOT NULL, "
        + "items jsonb NOT NULL, total bigint NOT NULL, payable bigint NOT NULL, ref text UNIQUE",
      "column number is GENERATED ALWAYS AS IDENTITY"
    ),
    (
      "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL GENERATED ALWAYS AS "
        + "(to_timestamp(number)) STORED, items jsonb NOT NULL, total bigint NOT NULL, "
        + "payable bigint NOT NULL, ref text UNIQUE", "column placed_at is generated"
    ),
    (
      "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL GENERATED ALWAYS AS (total) STORED, "
        + "ref text UNIQUE", "column payable is generated"
    ),
  ]

  @Test(arguments: 0..<generatedColumns.count)
  func aGeneratedColumnIsRefusedByEveryCommand(index: Int) throws {
    let (columns, says) = Self.generatedColumns[index]
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql("CREATE TABLE shop_orders (\(columns))", database: name)
    try expectEveryCommandRefuses(server.tcpURI(name), saying: says)
    #expect(try rows(server, name) == "0\n")
  }

  // MARK: - Types and functions named as pg_catalog's

  /// A search path that puts `public` before `pg_catalog`, as the URI's options can.
  static func publicFirst(_ uri: String) -> String {
    PostgresPrivilegeTests.uri(uri, searchPath: "public, pg_catalog")
  }

  /// Domains named as the types of shop's columns, in a schema before pg_catalog on the path:
  /// a domain (whose CHECK can refuse orders) is not the type, whatever `format_type` prints.
  static let lookalikeTypes: [(sql: String, says: String)] = [
    (
      "CREATE DOMAIN public.jsonb AS pg_catalog.jsonb CHECK "
        + "(pg_catalog.jsonb_array_length(VALUE) < 2); CREATE TABLE shop_orders ("
        + fiveColumns.replacingOccurrences(of: "items jsonb", with: "items public.jsonb")
        + "ref text UNIQUE)",
      "column items is of type jsonb (from schema 'public') where shop expects jsonb NOT NULL"
    ),
    (
      "CREATE DOMAIN public.text AS pg_catalog.text CHECK (pg_catalog.length(VALUE) < 3); "
        + "CREATE TABLE shop_orders (\(fiveColumns)ref public.text UNIQUE)",
      "column ref is of type text (from schema 'public') where shop expects text UNIQUE"
    ),
    (
      "CREATE DOMAIN public.int8 AS pg_catalog.int8 CHECK (VALUE < 100); "
        + "CREATE TABLE shop_orders ("
        + fiveColumns.replacingOccurrences(of: "total bigint", with: "total public.int8")
        + "ref text UNIQUE)",
      "column total is of type int8 (from schema 'public') where shop expects bigint NOT NULL"
    ),
    (
      "CREATE TABLE shop_orders ("
        + fiveColumns.replacingOccurrences(of: "timestamptz", with: "pg_catalog.timestamptz(3)")
        + "ref text UNIQUE)",
      "column placed_at is of type timestamp(3) with time zone where shop expects"
    ),
  ]

  @Test(arguments: 0..<lookalikeTypes.count)
  func aDomainNamedAsAColumnsTypeIsNotThatType(index: Int) throws {
    let (sql, says) = Self.lookalikeTypes[index]
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql(sql, database: name)
    try expectEveryCommandRefuses(Self.publicFirst(server.tcpURI(name)), saying: says)
    #expect(try rows(server, name) == "0\n")
  }

  /// A type `text` before pg_catalog on the path changes none of shop's own queries: every
  /// command takes shop's table and reads back what it wrote (a `text` of `char(6)` padded
  /// the table's kind, which was then refused as a relation of kind 'r     ').
  @Test(arguments: ["pg_catalog.bpchar(6)", "pg_catalog.varchar(1)"])
  func aTypeNamedTextBeforePgCatalogChangesNoneOfShopsQueries(over type: String) throws {
    let (server, name, plain) = try emptyTable()
    try server.sql("CREATE DOMAIN public.text AS \(type)", database: name)
    let uri = Self.publicFirst(plain)
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1001])
    #expect(try PostgresOrders(uri: uri).save((1...5).map { try draft($0) }).count == 5)
    #expect(try PostgresOrders(uri: uri).save((0..<70).map { try draft($0 % 3 + 1) }).count == 70)
    #expect(try PostgresOrders(uri: uri).place([draft(ref: "web-1")]).count == 1)
    #expect(try PostgresOrders(uri: uri).count() == 77)
    var listed: [Int] = []
    try PostgresOrders(uri: uri).readAll { listed.append($0.number) }
    #expect(listed == Array(1001...1077))
    #expect(try PostgresOrders(uri: uri).order(referenced: #require(Reference("web-1"))) { _ in })
    let days = try PostgresOrders(uri: uri).summary(of: .all, by: .day)
    #expect(days.days.map(\.totals.orders) == [77])
    let skus = try PostgresOrders(uri: uri).summary(of: .all, by: .sku)
    #expect(skus.sales.map(\.sku) == ["pen"])
  }

  // MARK: - Other columns

  /// Another column an insert must fill (NOT NULL, no default of its own or of its domain, not
  /// generated nor an identity): shop sends only its own, so every command refuses the table
  /// with 65 rather than every insert failing with 69.
  @Test(arguments: [
    "note text NOT NULL", "n integer NOT NULL CHECK (n > 0)", "note strict_text",
    "note text NOT NULL DEFAULT NULL",
  ])
  func anotherColumnNoInsertCanFillIsRefusedByEveryCommand(column: String) throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    try server.sql(
      "CREATE DOMAIN strict_text AS text NOT NULL; CREATE TABLE shop_orders ("
        + "\(Self.fiveColumns)ref text UNIQUE, \(column))", database: name)
    let column = column.prefix { $0 != " " }
    try expectEveryCommandRefuses(
      server.tcpURI(name), saying: "column \(column) is NOT NULL with no default")
    #expect(try rows(server, name) == "0\n")
  }

  /// Other columns the server fills: every writing path saves into the table.
  @Test(arguments: [
    "note text NOT NULL DEFAULT ''", "id bigint GENERATED ALWAYS AS IDENTITY",
    "id bigint GENERATED BY DEFAULT AS IDENTITY",
    "twice bigint NOT NULL GENERATED ALWAYS AS (total * 2) STORED",
    "note kind", "note text",
  ])
  func anotherColumnTheServerFillsIsLeftToIt(column: String) throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name)
    try server.sql(
      "CREATE DOMAIN kind AS text NOT NULL DEFAULT 'web'; CREATE TABLE shop_orders ("
        + "\(Self.fiveColumns)ref text UNIQUE, \(column))", database: name)
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1001])
    #expect(try PostgresOrders(uri: uri).save((0..<70).map { try draft($0 % 3 + 1) }).count == 70)
    #expect(try PostgresOrders(uri: uri).place([draft(ref: "r-1")]).count == 1)
    #expect(try PostgresOrders(uri: uri).count() == 72)
  }

  /// A CHECK that refuses some rows stops the group that holds one, with 69 naming the
  /// constraint; the groups before it stay saved, the group itself is saved not at all.
  @Test(arguments: [1, 70])
  func aCheckThatRefusesARowStopsItsGroupAndKeepsTheOnesBefore(size: Int) throws {
    let (server, name, uri) = try emptyTable()
    try server.sql(
      "ALTER TABLE shop_orders ADD CONSTRAINT small CHECK (total < 90)", database: name)
    let store = PostgresOrders(uri: uri)
    #expect(try store.save((0..<size).map { _ in try draft() }).last?.number == 1000 + size)
    let error = #expect(throws: PostgresError.self) {
      _ = try store.save((0..<size).map { try draft($0 == size / 2 ? 3 : 1) })
    }
    #expect(error?.status == .unavailable, "\(String(describing: error))")
    #expect(
      error?.message.contains("violates check constraint") == true, "\(String(describing: error))")
    #expect(try rows(server, name) == "\(size)\n")
    #expect(try store.save([draft()]).map(\.number) == [1001 + size])
  }

  /// A numbering whose first order is not 1001: every reader that checks it says so in the
  /// same words, the full listing too, never that an order before 1001 was followed.
  @Test(arguments: [[1003], [1002, 1003], [5000], [1500, 1501, 1502]])
  func aFirstOrderPast1001IsToldAsTheFirstOrderByEveryReader(numbers: [Int]) throws {
    let (server, name, uri) = try emptyTable()
    try server.sql(
      "INSERT INTO shop_orders (number, placed_at, items, total, payable) SELECT n, "
        + #"'2026-11-30T06:06:43Z', '[{"sku":"pen","quantity":1,"price":30}]', 30, 30 "#
        + "FROM unnest(ARRAY\(numbers)::int8[]) AS n", database: name)
    let says = "order \(numbers[0]) is the first order: numbers start at 1001"
    let readers: [(String, () throws -> Void)] = [
      ("all", { try PostgresOrders(uri: uri).readAll { _ in } }),
      ("last", { try PostgresOrders(uri: uri).last(numbers.count) { _ in } }),
      ("number", { _ = try PostgresOrders(uri: uri).order(numbered: 1001) { _ in } }),
      ("save", { _ = try PostgresOrders(uri: uri).save([draft()]) }),
    ]
    for (what, read) in readers {
      let error = #expect(throws: PostgresError.self, "\(numbers) \(what)") { try read() }
      #expect(error?.status == .dataError, "\(numbers) \(what): \(String(describing: error))")
      #expect(
        error?.message.hasSuffix(says) == true,
        "\(numbers) \(what): \(String(describing: error))")
    }
  }
}
