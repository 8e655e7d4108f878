import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// What each command needs of the role, as the table of privileges in docs/postgresql.md says: readers
/// need SELECT alone and never create or alter anything; a writer missing a privilege is
/// told which one.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresPrivilegeTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(ref: String? = nil) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time,
        reference: ref.flatMap(Reference.init)))
  }

  /// A new database and a role of its own that may log in (roles are the server's, so each
  /// test names its own), with `grants` run as the database's owner; the URI as that role.
  func database(grants: String = "") throws -> (PostgresServer, String, String) {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let role = "r" + name
    try server.sql("CREATE ROLE \(role) LOGIN", database: name)
    if !grants.isEmpty {
      try server.sql(grants.replacingOccurrences(of: "ROLE", with: role), database: name)
    }
    return (server, name, "postgresql://\(role)@127.0.0.1:\(server.port)/\(name)")
  }

  static let oldTable = """
    CREATE TABLE shop_orders (number bigint PRIMARY KEY, placed_at timestamptz NOT NULL,
      items jsonb NOT NULL, total bigint NOT NULL, payable bigint NOT NULL);
    INSERT INTO shop_orders VALUES (1001, '2026-11-30T06:06:43Z',
      '[{"sku":"pen","quantity":1,"price":30}]', 30, 30);
    """

  /// Every reader, each in a store of its own as each command has: what it read.
  func readEverything(_ uri: String) throws -> [String: String] {
    var read: [String: String] = [:]
    var all: [Int] = []
    try PostgresOrders(uri: uri).readAll { all.append($0.number) }
    read["all"] = "\(all)"
    read["count"] = "\(try PostgresOrders(uri: uri).count())"
    var last: [Int] = []
    try PostgresOrders(uri: uri).last(5) { last.append($0.number) }
    read["last"] = "\(last)"
    read["number"] = "\(try PostgresOrders(uri: uri).order(numbered: 1001) { _ in })"
    read["ref"] =
      "\(try PostgresOrders(uri: uri).order(referenced: #require(Reference("x"))) { _ in })"
    var range: [Int] = []
    try PostgresOrders(uri: uri).orders(in: .all, last: nil) { range.append($0.number) }
    read["range"] = "\(range)"
    for grouping in [Summary.Grouping.none, .day, .sku] {
      read["summary \(grouping)"] =
        "\(try PostgresOrders(uri: uri).summary(of: .all, by: grouping).totals.orders)"
    }
    return read
  }

  /// A table made before refs, read by a role with SELECT alone: every reader reads it, its
  /// orders without refs, and the table is left without the column.
  @Test func aReaderWithOnlySelectReadsATableMadeBeforeRefsAndAltersNothing() throws {
    let (server, name, uri) = try database(
      grants: Self.oldTable + "GRANT SELECT ON shop_orders TO ROLE")
    let read = try readEverything(uri)
    #expect(read["all"] == "[1001]" && read["last"] == "[1001]" && read["range"] == "[1001]")
    #expect(read["count"] == "1" && read["number"] == "true" && read["ref"] == "false")
    #expect(read["summary none"] == "1" && read["summary sku"] == "1")
    var refs: [Reference?] = []
    try PostgresOrders(uri: uri).readAll { refs.append($0.reference) }
    #expect(refs == [nil])
    #expect(
      try server.sql(
        "SELECT count(*) FROM pg_attribute WHERE attrelid = 'shop_orders'::regclass "
          + "AND attname = 'ref'", database: name) == "0\n")
  }

  /// No table: every reader finds no orders, as with an orders file that does not exist yet,
  /// and creates none, whether the role could create it or not.
  @Test func aReaderFindsNoTableAsNoOrdersAndCreatesNone() throws {
    let (server, name, uri) = try database()
    for uri in [uri, server.tcpURI(name)] {
      let read = try readEverything(uri)
      #expect(read["all"] == "[]" && read["last"] == "[]" && read["range"] == "[]", "\(read)")
      #expect(read["count"] == "0" && read["number"] == "false" && read["ref"] == "false")
      #expect(read["summary none"] == "0" && read["summary day"] == "0")
      #expect(try server.sql("SELECT to_regclass('shop_orders')", database: name) == "\n")
    }
  }

  /// A writer that would have to create the table or add its ref column, without the
  /// privilege to: 69, naming what it lacks, and never the schema's USAGE, which it has.
  @Test func aWriterMissingAPrivilegeIsToldWhichOne() throws {
    let addReference =
      "to own table shop_orders, and CREATE on its schema for the column's unique index, to "
      + "add its ref column"
    let cases: [(grants: String, says: String)] = [
      ("", "CREATE on the schema to create table shop_orders"),
      (Self.oldTable + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE", addReference),
      // The owner, without CREATE on the schema: the unique index is refused for the schema.
      (Self.oldTable + "ALTER TABLE shop_orders OWNER TO ROLE", addReference),
      (
        Self.oldTable + "ALTER TABLE shop_orders OWNER TO ROLE; CREATE SCHEMA s; "
          + "ALTER TABLE shop_orders SET SCHEMA s; GRANT USAGE ON SCHEMA s TO ROLE; "
          + "ALTER role ROLE SET search_path = s", addReference
      ),
      // CREATE on the schema, not the owner.
      (
        Self.oldTable + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE; "
          + "GRANT CREATE ON SCHEMA public TO ROLE", addReference
      ),
    ]
    for (grants, says) in cases {
      let (server, name, uri) = try database(grants: grants)
      for (what, write) in [
        ("save", { _ = try PostgresOrders(uri: uri).save([draft()]) }),
        ("ref", { _ = try PostgresOrders(uri: uri).place([draft(ref: "x")]) }),
      ] as [(String, () throws -> Void)] {
        let error = #expect(throws: PostgresError.self, "\(says) \(what)") { try write() }
        #expect(error?.status == .unavailable, "\(says) \(what): \(String(describing: error))")
        #expect(
          error?.message.contains("the role needs " + says) == true,
          "\(says) \(what): \(String(describing: error))")
        #expect(
          error?.message.contains("USAGE") == false,
          "\(says) \(what): \(String(describing: error))")
      }
      let table = try server.sql(
        "SET search_path = public, s; SELECT to_regclass('shop_orders') IS NOT NULL",
        database: name)
      #expect(table == (grants.isEmpty ? "f\n" : "t\n"), "\(says)")
      if !grants.isEmpty {
        #expect(
          try server.sql(
            "SET search_path = public, s; SELECT count(*) FROM shop_orders", database: name)
            == "1\n")
        #expect(
          try server.sql(
            "SELECT count(*) FROM pg_attribute WHERE attname = 'ref' AND attrelid = "
              + "(SELECT oid FROM pg_class WHERE relname = 'shop_orders')", database: name)
            == "0\n")
      }
    }
  }

  /// A role that may place but not alter the table, on a table made before voids: places
  /// one order, a group by COPY and one with a ref, reads everything, and adds nothing; only a
  /// void that is to be saved needs the column, and is refused with 69 naming the table and
  /// the statement its owner can run, nothing saved. Once the owner ran it, the void goes in.
  @Test(arguments: [
    ("public", "public.shop_orders"), (#""Shop Data""#, #""Shop Data".shop_orders"#),
  ])
  func aRoleThatMayNotAlterTheTablePlacesWithoutVoidsAndIsToldWhatVoidNeeds(
    schema: String, qualified: String
  ) throws {
    let (server, name, uri) = try database(
      grants: (schema == "public" ? "" : "CREATE SCHEMA \(schema); SET search_path = \(schema);")
        + Self.oldTable + "ALTER TABLE shop_orders ADD COLUMN ref text UNIQUE;"
        + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE; GRANT USAGE ON SCHEMA \(schema) "
        + "TO ROLE; ALTER role ROLE SET search_path = \(schema)")
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1002])
    #expect(try PostgresOrders(uri: uri).save((0..<70).map { _ in try draft() }).count == 70)
    #expect(try PostgresOrders(uri: uri).place([draft(ref: "x")]).count == 1)
    let read = try readEverything(uri)
    #expect(read["count"] == "73" && read["ref"] == "true" && read["summary none"] == "73")
    let columns =
      "SELECT count(*) FROM pg_attribute WHERE attname = 'voids' AND attrelid = "
      + "(SELECT oid FROM pg_class WHERE relname = 'shop_orders')"
    #expect(try server.sql(columns, database: name) == "0\n")
    // Nothing to save: answered without the column.
    let time = self.time
    #expect(
      try PostgresOrders(uri: uri).void(Draft(voiding: 9999, placedAt: time)) == .noOrder(9999))
    let error = #expect(throws: PostgresError.self) {
      try PostgresOrders(uri: uri).void(Draft(voiding: 1001, placedAt: time))
    }
    #expect(error?.status == .unavailable, "\(String(describing: error))")
    #expect(
      error?.message.contains(
        "the role needs to own table \(qualified), and CREATE on its schema") == true,
      "\(String(describing: error))")
    #expect(
      error?.message.contains("ALTER TABLE \(qualified) ADD COLUMN voids bigint UNIQUE") == true,
      "\(String(describing: error))")
    #expect(try server.sql(columns, database: name) == "0\n")
    #expect(try PostgresOrders(uri: uri).count() == 73)
    try server.sql("ALTER TABLE \(qualified) ADD COLUMN voids bigint UNIQUE", database: name)
    guard
      case .voided(let void) = try PostgresOrders(uri: uri).void(
        Draft(voiding: 1001, placedAt: time))
    else {
      Issue.record("the void was not saved once the column was there")
      return
    }
    #expect(void.number == 1074 && void.voids == 1001)
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1075])
  }

  /// The table in a schema of the search path that the role may not use, which the server
  /// leaves out of the path: every reader and writer stops with 69 naming the schema and
  /// USAGE, never "no orders", and nothing is created anywhere else.
  @Test func aTableInASchemaTheRoleMayNotUseIsAPrivilegeErrorNotNoOrders() throws {
    let table = Self.oldTable.replacingOccurrences(
      of: "payable bigint NOT NULL);", with: "payable bigint NOT NULL, ref text UNIQUE);")
    let (server, name, uri) = try database(
      grants: table + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE;"
        + "REVOKE ALL ON SCHEMA public FROM PUBLIC")
    let readers = everyCommand(uri)
    expectHidden(schema: "public", by: readers, path: "public")
    #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "1\n")
    #expect(
      try server.sql("SELECT count(*) FROM pg_class WHERE relname = 'shop_orders'", database: name)
        == "1\n")
  }

  /// `uri` with `path` as its search path, in its `options` as written: spaces escaped for
  /// libpq, every byte but ASCII letters and digits percent-encoded.
  /// Every reader and writer of the store at `uri`, each in a store of its own.
  func everyCommand(_ uri: String) -> [(String, () throws -> Void)] {
    [
      ("all", { try PostgresOrders(uri: uri).readAll { _ in } }),
      ("count", { _ = try PostgresOrders(uri: uri).count() }),
      ("last", { try PostgresOrders(uri: uri).last(5) { _ in } }),
      ("number", { _ = try PostgresOrders(uri: uri).order(numbered: 1001) { _ in } }),
      (
        "ref",
        { _ = try PostgresOrders(uri: uri).order(referenced: #require(Reference("x"))) { _ in } }
      ),
      ("range", { try PostgresOrders(uri: uri).orders(in: .all, last: nil) { _ in } }),
      ("summary", { _ = try PostgresOrders(uri: uri).summary(of: .all, by: .none) }),
      ("summary by sku", { _ = try PostgresOrders(uri: uri).summary(of: .all, by: .sku) }),
      ("save", { _ = try PostgresOrders(uri: uri).save([draft()]) }),
      ("copy", { _ = try PostgresOrders(uri: uri).save((0..<70).map { _ in try draft() }) }),
      ("place", { _ = try PostgresOrders(uri: uri).place([draft(ref: "x")]) }),
    ]
  }

  /// Every command stops with 69 naming `schema` as one the role may not use.
  func expectHidden(schema: String, by commands: [(String, () throws -> Void)], path: String) {
    for (what, run) in commands {
      let error = #expect(throws: PostgresError.self, "\(path) \(what)") { try run() }
      #expect(error?.status == .unavailable, "\(path) \(what): \(String(describing: error))")
      #expect(
        error?.message.contains(
          "table shop_orders is in schema \(TerminalText.quoted(schema.utf8)), which the role "
            + "may not use: the role needs USAGE on that schema") == true,
        "\(path) \(what): \(String(describing: error))")
    }
  }

  static func uri(_ uri: String, searchPath path: String) -> String {
    let option = "-c search_path=" + path.replacingOccurrences(of: " ", with: #"\ "#)
    let encoded = option.utf8.map { byte in
      let scalar = Unicode.Scalar(byte)
      return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) ? String(scalar) : String(format: "%%%02X", byte)
    }
    return uri + "?options=" + encoded.joined()
  }

  /// Schemas as the search path can name them, each written as the server reads it: quoted
  /// (as written, `""` for `"`, spaces and commas kept), unquoted (folded to lower case), or
  /// `$user`. Each holds the table, and the role may not use it.
  static let hiddenSchemas: [(schema: String, path: String)] = [
    (#""team a""#, #""team a", public"#),
    (#""My Sch""ema""#, #""My Sch""ema",public"#),
    ("mixed", "MIXED , public"),
    (#""MiXed""#, #"  "MiXed"  ,public"#),
    (#""a,b""#, #""a,b", public"#),
    ("ROLE", #""$user", public"#),
  ]

  /// Whatever way the search path writes the schema the role may not use, every command
  /// stops with 69 naming it: no reader shows no orders, and no writer creates a second table
  /// in a later schema of the path.
  @Test(arguments: 0..<hiddenSchemas.count)
  func aSchemaTheRoleMayNotUseIsFoundHoweverThePathWritesIt(index: Int) throws {
    let (schema, path) = Self.hiddenSchemas[index]
    let (server, name, plain) = try database(
      grants: "CREATE SCHEMA \(schema); SET search_path = \(schema);" + Self.oldTable
        + "ALTER TABLE shop_orders ADD COLUMN ref text UNIQUE;"
        + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE;"
        + "GRANT CREATE ON SCHEMA public TO ROLE")
    let uri = Self.uri(plain, searchPath: path)
    let role = "r" + name
    let shown = (schema == "ROLE" ? role : schema).replacingOccurrences(of: "\"\"", with: "\u{1}")
      .replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "\u{1}", with: "\"")
    let commands = everyCommand(uri)
    expectHidden(schema: shown, by: commands, path: path)
    #expect(
      try server.sql("SELECT count(*) FROM pg_class WHERE relname = 'shop_orders'", database: name)
        == "1\n", "\(path)")
  }

  /// A schema named like a part of a path element is not on the path: `"a,b"` names one
  /// schema, not `a` and `b`; `"Mixed"` is not `mixed`. The role may not use `a` or `mixed`,
  /// which hold a table: it is not the one meant, and the role's own table is used.
  @Test(arguments: [(#"a"#, #""a,b", public"#), ("mixed", #""Mixed", public"#)])
  func aSchemaNotOnThePathIsNotTakenForOne(schema: String, path: String) throws {
    let (_, _, plain) = try database(
      grants: "CREATE SCHEMA \(schema); SET search_path = \(schema);" + Self.oldTable
        + "GRANT CREATE ON SCHEMA public TO ROLE")
    let uri = Self.uri(plain, searchPath: path)
    #expect(try PostgresOrders(uri: uri).count() == 0, "\(path)")
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1001], "\(path)")
    #expect(try PostgresOrders(uri: uri).count() == 1, "\(path)")
  }

  /// The first schema of the path that holds a `shop_orders` is the one meant, whether or not
  /// a later one holds a table the role may use: when the role may not use that first schema,
  /// every command stops with 69 naming it, and nothing is read from or written to the later
  /// table. `schema` is the one the role may not use; `path` lists it first or after public.
  @Test(arguments: [
    ("early", "early, public", true), (#""Early Bird""#, #""Early Bird",public"#, true),
    ("ROLE", #""$user", public"#, true), ("early", "public, early", false),
  ])
  func theFirstSchemaHoldingTheTableIsTheOneMeantEvenWhenALaterOneHoldsOne(
    schema: String, path: String, hidden: Bool
  ) throws {
    let table =
      Self.oldTable + "ALTER TABLE shop_orders ADD COLUMN ref text UNIQUE;"
      + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE;"
    let (server, name, plain) = try database(
      grants: "CREATE SCHEMA \(schema); SET search_path = \(schema);" + table
        + "SET search_path = public;" + table
        + "INSERT INTO shop_orders VALUES (1002, '2026-11-30T06:06:44Z', '[{\"sku\":\"pen\",\"quantity\":1,"
        + "\"price\":30}]', 30, 30, NULL)")
    let uri = Self.uri(plain, searchPath: path)
    let shown = schema == "ROLE" ? "r" + name : schema.replacingOccurrences(of: "\"", with: "")
    let commands = everyCommand(uri)
    guard hidden else {
      for (what, run) in commands { #expect(throws: Never.self, "\(path) \(what)") { try run() } }
      #expect(try PostgresOrders(uri: uri).count() == 74, "\(path)")
      return
    }
    expectHidden(schema: shown, by: commands, path: path)
    #expect(
      try server.sql("SELECT count(*) FROM public.shop_orders", database: name) == "2\n",
      "\(path)")
  }
}
