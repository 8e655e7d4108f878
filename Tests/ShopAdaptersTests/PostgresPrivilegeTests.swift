import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// What each command needs of the role, as the README's table of privileges says: readers
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
    let cases: [(grants: String, says: String)] = [
      ("", "CREATE on the schema to create table shop_orders"),
      (
        Self.oldTable + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE",
        "to own table shop_orders to add its ref column"
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
        "SELECT to_regclass('shop_orders') IS NOT NULL", database: name)
      #expect(table == (grants.isEmpty ? "f\n" : "t\n"), "\(says)")
      if !grants.isEmpty {
        #expect(
          try server.sql(
            "SELECT count(*) FROM shop_orders", database: name) == "1\n")
      }
    }
  }

  /// The table in a schema of the search path that the role may not use, which the server
  /// leaves out of the path: every reader and writer stops with 69 naming the schema and
  /// USAGE, never "no orders", and nothing is created anywhere else.
  @Test func aTableInASchemaTheRoleMayNotUseIsAPrivilegeErrorNotNoOrders() throws {
    let table = Self.oldTable.replacingOccurrences(
      of: "items jsonb NOT NULL", with: "items jsonb NOT NULL"
    ).replacingOccurrences(
      of: "payable bigint NOT NULL);", with: "payable bigint NOT NULL, ref text UNIQUE);")
    let (server, name, uri) = try database(
      grants: table + "GRANT SELECT, INSERT, UPDATE ON shop_orders TO ROLE;"
        + "REVOKE ALL ON SCHEMA public FROM PUBLIC")
    let readers: [(String, () throws -> Void)] = [
      ("all", { try PostgresOrders(uri: uri).readAll { _ in } }),
      ("count", { _ = try PostgresOrders(uri: uri).count() }),
      ("last", { try PostgresOrders(uri: uri).last(5) { _ in } }),
      ("number", { _ = try PostgresOrders(uri: uri).order(numbered: 1001) { _ in } }),
      (
        "ref",
        { _ = try PostgresOrders(uri: uri).order(referenced: #require(Reference("x"))) { _ in } }
      ),
      ("summary", { _ = try PostgresOrders(uri: uri).summary(of: .all, by: .none) }),
      ("save", { _ = try PostgresOrders(uri: uri).save([draft()]) }),
      ("place", { _ = try PostgresOrders(uri: uri).place([draft(ref: "x")]) }),
    ]
    for (what, run) in readers {
      let error = #expect(throws: PostgresError.self, "\(what)") { try run() }
      #expect(error?.status == .unavailable, "\(what): \(String(describing: error))")
      #expect(
        error?.message.contains("schema 'public', which the role may not use") == true
          && error?.message.contains("USAGE") == true,
        "\(what): \(String(describing: error))")
    }
    #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "1\n")
    #expect(
      try server.sql("SELECT count(*) FROM pg_class WHERE relname = 'shop_orders'", database: name)
        == "1\n")
  }
}
