import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// PostgresOrders against a real server: one shared throwaway server, a database per test.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresOrdersTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ quantity: Int = 1, sku: String = "pen") throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: sku, quantity: quantity, price: 30)], placedAt: time))
  }

  func database() throws -> (PostgresServer, String) {
    let server = try PostgresServer.shared.get()
    return (server, try server.makeDatabase())
  }

  func all(_ store: PostgresOrders) throws -> [Order] {
    var orders: [Order] = []
    // swift-format-ignore: ReplaceForEachWithForLoop
    let history: any OrderHistory = store
    #expect(!(history is any StoredOrderLines))
    try store.readAll { order in orders.append(order) }
    return orders
  }

  @Test func numbersContinueAcrossStoresAndReadBackAsSaved() throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    let first = try PostgresOrders(uri: uri).save([draft(), draft(2, sku: "ink-black")])
    #expect(first.map(\.number) == [1001, 1002])
    let second = try PostgresOrders(uri: server.socketURI(name)).save([draft(7)])
    #expect(second.map(\.number) == [1003])
    let store = PostgresOrders(uri: uri)
    #expect(try all(store) == first + second)
    #expect(try store.count() == 3)
    var last: [Int] = []
    try store.last(2) { order in last.append(order.number) }
    #expect(last == [1002, 1003])
    last = []
    try store.last(10) { order in last.append(order.number) }
    #expect(last == [1001, 1002, 1003])
    var found: Order?
    #expect(try store.order(numbered: 1002) { order in found = order })
    #expect(found == first[1])
    #expect(try !store.order(numbered: 4711) { _ in })
    #expect(try store.save([]).isEmpty)
  }

  /// A reader never creates the table: an empty database has no orders (as a missing orders
  /// file has none), and the first writer makes the table.
  @Test func anEmptyDatabaseHasNoOrdersAndOnlyAWriterMakesTheTable() throws {
    let (server, name) = try database()
    let store = PostgresOrders(uri: server.tcpURI(name))
    #expect(try store.count() == 0)
    #expect(try all(store).isEmpty)
    #expect(try server.sql("SELECT to_regclass('shop_orders')", database: name) == "\n")
    #expect(try store.save([draft()]).map(\.number) == [1001])
    #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "1\n")
  }

  @Test func threadsWithTheirOwnConnectionsNeverShareANumber() async throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    let drafts = [try draft(), try draft(2)]
    try await withThrowingTaskGroup(of: [Int].self) { group in
      for _ in 0..<6 {
        group.addTask {
          let store = PostgresOrders(uri: uri)
          var numbers: [Int] = []
          for _ in 0..<20 { numbers += try store.save(drafts).map(\.number) }
          return numbers
        }
      }
      var numbers: [Int] = []
      for try await some in group { numbers += some }
      #expect(numbers.sorted() == Array(1001...1240))
    }
    #expect(try all(PostgresOrders(uri: uri)).map(\.number) == Array(1001...1240))
  }

  @Test func badStoredDataIs65AndNamesTheOrder() throws {
    let (server, name) = try database()
    let store = PostgresOrders(uri: server.tcpURI(name))
    _ = try store.save([draft(), draft()])
    try server.sql("UPDATE shop_orders SET total = 31 WHERE number = 1002", database: name)
    let error = try #require(throws: PostgresError.self) { try all(store) }
    #expect(error.status == .dataError)
    #expect(error.message.contains("order 1002"))

    try server.sql("DELETE FROM shop_orders WHERE number = 1002", database: name)
    try server.sql(
      "INSERT INTO shop_orders SELECT 1003, placed_at, items, total, payable "
        + "FROM shop_orders WHERE number = 1001", database: name)
    let gap = try #require(throws: PostgresError.self) { try all(store) }
    #expect(gap.status == .dataError)
    #expect(gap.message.contains("1002"))
    #expect(throws: PostgresError.self) { try store.count() }
  }

  @Test func aServerNobodyRunsIs69AndNeverShowsThePassword() throws {
    let store = PostgresOrders(uri: "postgresql://shop:sekrit-word@127.0.0.1:1/orders")
    let error = try #require(throws: PostgresError.self) { try store.save([draft()]) }
    #expect(error.status == .unavailable)
    #expect(error.message.contains("'orders' on 127.0.0.1:1"))
    #expect(!error.message.contains("sekrit"))
    #expect(!error.message.contains("\n"))
  }

  @Test func aCommitWithNoAnswerIs75AndNamesTheCheck() throws {
    let (server, name) = try database()
    let store = PostgresOrders(uri: server.tcpURI(name))
    _ = try store.save([draft()])
    try server.sql(PostgresFaults.dropAtCommit, database: name)
    let error = try #require(throws: PostgresError.self) {
      try PostgresOrders(uri: server.tcpURI(name)).save([draft(), draft()])
    }
    #expect(error.status == .temporaryFailure)
    #expect(error.message.contains("orders 1002…1003"))
    #expect(error.newestToCheck == 2)
    #expect(error.message.contains("unknown"))
    #expect(error.message.contains("this command reported none of its orders"))
  }

  @Test func aLargeGroupGoesByCopyWithTheSameGuarantees() throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    let store = PostgresOrders(uri: uri)
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 7 + 1) }
    let saved = try store.save(big)  // First use: the table is created on the COPY path too.
    #expect(saved.map(\.number) == Array(1001..<(1001 + big.count)))
    let small = try store.save([draft(3)])
    #expect(small.map(\.number) == [1001 + big.count])
    #expect(try all(store) == saved + small)

    try server.sql(PostgresFaults.dropAtCommit, database: name)
    let error = try #require(throws: PostgresError.self) {
      try PostgresOrders(uri: uri).save(big)
    }
    #expect(error.status == .temporaryFailure)
    #expect(error.message.contains("orders \(1002 + big.count)…"))
    #expect(error.newestToCheck == big.count)
  }

  @Test func skuTextCanNotReachTheSQL() throws {
    // The core never lets such a SKU through; the store must be safe even so.
    let (server, name) = try database()
    let store = PostgresOrders(uri: server.tcpURI(name))
    let evil = #"pen"}]', now(), '[]', 0, 0); DROP TABLE shop_orders; --\"#
    _ = try store.save([draft(sku: evil)])
    #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "1\n")
    #expect(
      try server.sql("SELECT items->0->>'sku' FROM shop_orders", database: name) == evil + "\n")
  }

  func numbers(_ server: PostgresServer, _ name: String) throws -> [Int] {
    try server.sql("SELECT number FROM shop_orders ORDER BY number", database: name)
      .split(separator: "\n").compactMap { Int($0) }
  }

  /// Every way to read, each expected to refuse with 65 and say `words`.
  func expectReadersRefuse(_ store: PostgresOrders, saying words: String) {
    let reads: [(String, () throws -> Void)] = [
      ("all", { _ = try all(store) }), ("count", { _ = try store.count() }),
      ("last 1", { try store.last(1) { _ in } }),
      ("last 5", { try store.last(5) { _ in } }),
      ("order 1001", { _ = try store.order(numbered: 1001) { _ in } }),
      ("ref r-1", { _ = try store.order(referenced: #require(Reference("r-1"))) { _ in } }),
      ("summary", { _ = try store.summary(of: .all, by: .sku) }),
    ]
    for (name, read) in reads {
      let error = #expect(throws: PostgresError.self, "\(name)") { try read() }
      #expect(error?.status == .dataError, "\(name): \(String(describing: error))")
      if name != "count" && name != "summary" {
        #expect(error?.message.contains(words) == true, "\(name): \(String(describing: error))")
      }
    }
  }

  @Test(arguments: [
    [5], [-10], [1001, 5000], [1002], [1001, 1002, 1004], [0, 1001], [1001, 1003],
  ])
  func aNumberingShopDidNotWriteIsRefusedByWritersAndReadersAlike(rows: [Int]) throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    try server.createShopTable(database: name)
    try server.insertOrders(rows, database: name)
    let named = rows.first == 1001 ? rows.last ?? 0 : rows.first ?? 0
    let small = [try draft()]
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 3 + 1) }
    for group in [small, big] {
      let error = try #require(throws: PostgresError.self) {
        try PostgresOrders(uri: uri).save(group)
      }
      #expect(error.status == .dataError, "\(rows) \(group.count): \(error)")
      #expect(error.message.contains("order \(named) "), "\(rows): \(error)")
    }
    #expect(try numbers(server, name) == rows.sorted(), "a refused save changed the table")
    let store = PostgresOrders(uri: uri)
    let error = try #require(throws: PostgresError.self) { try store.last(1) { _ in } }
    #expect(error.message.contains("order \(named)"), "\(error)")
    expectReadersRefuse(store, saying: "order \(named)")
  }

  @Test func aNumberingShopWroteIsContinuedAndReadByAll() throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    try server.createShopTable(database: name)
    try server.insertOrders([1001], database: name)
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1002])
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 3 + 1) }
    #expect(try PostgresOrders(uri: uri).save(big).first?.number == 1003)
    let store = PostgresOrders(uri: uri)
    var last: [Int] = []
    try store.last(1) { order in last.append(order.number) }
    #expect(last == [1002 + big.count])
    #expect(try store.count() == 2 + big.count)
    #expect(try store.order(numbered: 1001) { _ in })
  }

  /// Tables made by someone else, and what the message must say about each.
  static let foreignTables: [(columns: String, says: String)] = [
    (
      "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items text NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL",
      "column items is of type text where shop expects jsonb NOT NULL"
    ),
    (
      "number bigint PRIMARY KEY, placed_at timestamp NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL",
      "column placed_at is of type timestamp without time zone where shop expects "
        + "timestamp with time zone NOT NULL"
    ),
    (
      "number numeric PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL",
      "column number is of type numeric where shop expects bigint NOT NULL PRIMARY KEY"
    ),
    (
      "number integer PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL",
      "column number is of type integer"
    ),
    (
      "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items json NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL",
      "column items is of type json where"
    ),
    (
      "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL",
      "no column payable (bigint NOT NULL)"
    ),
    (
      "number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint, payable bigint NOT NULL",
      "column total is nullable where shop expects bigint NOT NULL"
    ),
    (
      "number bigint NOT NULL, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL",
      "column number is not the primary key"
    ),
    (
      "number bigint NOT NULL, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint NOT NULL, payable bigint NOT NULL, PRIMARY KEY (number, total)",
      "column number is not the primary key"
    ),
    (
      "number bigint NOT NULL UNIQUE, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
        + "total bigint PRIMARY KEY, payable bigint NOT NULL",
      "column total is the primary key"
    ),
  ]

  @Test(arguments: 0..<foreignTables.count)
  func aTableMadeBySomeoneElseIsRefusedBeforeAnythingIsWritten(index: Int) throws {
    let (columns, says) = Self.foreignTables[index]
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    try server.sql("CREATE TABLE shop_orders (\(columns))", database: name)
    let big = try (0..<70).map { try draft($0 % 3 + 1) }
    for group in [[try draft()], big] {
      let error = try #require(throws: PostgresError.self) {
        try PostgresOrders(uri: uri).save(group)
      }
      #expect(error.status == .dataError, "\(columns): \(error)")
      #expect(error.message.contains(says), "\(error)")
      #expect(error.message.contains("table shop_orders is not the one shop makes"))
    }
    #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "0\n")
    expectReadersRefuse(PostgresOrders(uri: uri), saying: says)
  }

  @Test func anExtraNullableColumnIsLeftToItsDefault() throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name)
    try server.sql(
      "CREATE TABLE shop_orders (number bigint PRIMARY KEY, ref text UNIQUE, "
        + "placed_at timestamptz NOT NULL, items jsonb NOT NULL, total bigint NOT NULL, "
        + "payable bigint NOT NULL, note text DEFAULT 'x')", database: name)
    let store = PostgresOrders(uri: uri)
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 3 + 1) }
    #expect(try store.save([draft()]).map(\.number) == [1001])
    #expect(try store.save(big).last?.number == 1001 + big.count)
    #expect(try all(PostgresOrders(uri: uri)).count == 1 + big.count)
  }

  @Test func aRoleWithoutAPrivilegeIsToldWhichOne() throws {
    let (server, name) = try database()
    _ = try PostgresOrders(uri: server.tcpURI(name)).save([draft()])
    let role = "clerk_" + name.suffix(12)
    try server.sql("CREATE ROLE \(role) LOGIN", database: name)
    let uri = "postgresql://\(role)@127.0.0.1:\(server.port)/\(name)"
    func refusal(_ body: (PostgresOrders) throws -> Void) throws -> PostgresError {
      try #require(throws: PostgresError.self) { try body(PostgresOrders(uri: uri)) }
    }
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 3 + 1) }

    let reading = try refusal { _ = try all($0) }
    #expect(reading.status == .unavailable)
    #expect(reading.message.contains("permission denied for table shop_orders"), "\(reading)")
    #expect(reading.message.contains("the role needs SELECT on table shop_orders"))
    #expect(try refusal { try $0.last(1) { _ in } }.message.contains("needs SELECT"))

    // SELECT and INSERT are not enough: the lock that keeps numbers gapless needs UPDATE.
    try server.sql("GRANT SELECT, INSERT ON shop_orders TO \(role)", database: name)
    #expect(try all(PostgresOrders(uri: uri)).count == 1)
    for group in [[try draft()], big] {
      let locking = try refusal { _ = try $0.save(group) }
      #expect(locking.status == .unavailable)
      #expect(locking.message.contains("the role needs UPDATE (or DELETE or TRUNCATE)"))
      #expect(locking.message.contains("IN EXCLUSIVE MODE"), "\(locking)")
    }

    try server.sql("REVOKE INSERT ON shop_orders FROM \(role)", database: name)
    try server.sql("GRANT UPDATE ON shop_orders TO \(role)", database: name)
    let inserting = try refusal { _ = try $0.save([draft()]) }
    #expect(inserting.message.contains("the role needs SELECT and INSERT"), "\(inserting)")
    let copying = try refusal { _ = try $0.save(big) }
    #expect(copying.message.contains("the role needs INSERT on table shop_orders"), "\(copying)")
    #expect(try numbers(server, name) == [1001])

    try server.sql("GRANT INSERT ON shop_orders TO \(role)", database: name)
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1002])

    // A new database, where the role may not create the table (PostgreSQL 15 grants no
    // CREATE on the public schema): a writer is told so; a reader creates nothing.
    let empty = try server.makeDatabase()
    let elsewhere = "postgresql://\(role)@127.0.0.1:\(server.port)/\(empty)"
    #expect(try PostgresOrders(uri: elsewhere).count() == 0)
    let creating = try #require(throws: PostgresError.self) {
      try PostgresOrders(uri: elsewhere).save([draft()])
    }
    #expect(creating.status == .unavailable)
    #expect(creating.message.contains("permission denied for schema public"), "\(creating)")
    #expect(creating.message.contains("the role needs CREATE on the schema"), "\(creating)")
    #expect(!creating.message.contains("USAGE"), "\(creating)")
  }

  @Test func aStoppedBackendIsAWaitWithAnEnd() throws {
    let (server, name) = try database()
    let uri = server.tcpURI(name) + "?shop_timeout=1"
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 3 + 1) }
    // After COMMIT was sent (one round trip): unknown, 75, naming what was reported.
    do {
      let store = PostgresOrders(uri: uri)
      _ = try store.save([draft()])
      let backend = try server.shopBackend(name)
      kill(backend, SIGSTOP)
      defer { kill(backend, SIGCONT) }
      let error = try #require(throws: PostgresError.self) { try store.save([draft(), draft()]) }
      #expect(error.status == .temporaryFailure, "\(error)")
      #expect(error.message.contains("no answer within 1 s (shop_timeout)"), "\(error)")
      #expect(error.message.contains("the last order this command reported is 1001"))
      #expect(error.newestToCheck == 2)
    }
    try server.waitForNoSessions(name)
    // Resumed, the server ran what it had been sent: the group is saved whole or not at all.
    let saved = try numbers(server, name)
    #expect(saved == [1001] || saved == [1001, 1002, 1003], "\(saved)")

    // Before COMMIT was sent (a large group's first trip), and for every reader: 69.
    let reads: [(String, (PostgresOrders) throws -> Void)] = [
      ("save", { _ = try $0.save(big) }), ("all", { _ = try all($0) }),
      ("last", { try $0.last(3) { _ in } }), ("count", { _ = try $0.count() }),
    ]
    for (what, body) in reads {
      do {
        let store = PostgresOrders(uri: uri)
        #expect(try store.count() == saved.count)
        let backend = try server.shopBackend(name)
        kill(backend, SIGSTOP)
        defer { kill(backend, SIGCONT) }
        let error = try #require(throws: PostgresError.self, "\(what)") { try body(store) }
        #expect(error.status == .unavailable, "\(what): \(error)")
        #expect(error.message.contains("no answer within 1 s"), "\(what): \(error)")
      }
      try server.waitForNoSessions(name)
      #expect(try numbers(server, name) == saved, "\(what)")
    }
  }

  @Test func aServerThatNeverAnswersTheConnectionIsBoundedByConnectTimeout() throws {
    let (socket, port) = try PostgresServer.silentListener()
    defer { close(socket) }
    for (query, seconds) in [
      ("?connect_timeout=1", 1), ("?connect_timeout=2&sslmode=disable", 2),
    ] {
      let store = PostgresOrders(uri: "postgresql://shop:e@127.0.0.1:\(port)/orders\(query)")
      let error = try #require(throws: PostgresError.self) { try store.count() }
      #expect(error.status == .unavailable)
      #expect(
        error.message == "the orders database 'orders' on 127.0.0.1:\(port): can't connect: "
          + "no answer within \(seconds) s (connect_timeout)")
    }
  }

  @Test func aCommitWaitingForAStandbyThatNeverAnswersIs75() throws {
    let server = try PostgresServer()  // Its own: the setting is the whole server's.
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name) + "?shop_timeout=1"
    _ = try PostgresOrders(uri: uri).save([draft()])
    try server.sql("ALTER SYSTEM SET synchronous_standby_names = 'ghost'", database: name)
    try server.sql("SELECT pg_reload_conf()", database: name)
    try server.waitForSetting("synchronous_standby_names", "ghost", database: name)
    let error = try #require(throws: PostgresError.self) {
      try PostgresOrders(uri: uri).save([draft(), draft()])
    }
    #expect(error.status == .temporaryFailure, "\(error)")
    #expect(error.message.contains("orders 1002…1003"), "\(error)")
    #expect(error.message.contains("no answer within 1 s"))
    #expect(error.message.contains("this command reported none of its orders"))
    try server.sql("ALTER SYSTEM RESET synchronous_standby_names", database: name)
    try server.sql("SELECT pg_reload_conf()", database: name)
    try server.waitForSetting("synchronous_standby_names", "", database: name)
    try server.waitForNoSessions(name)
    // The commit was on the server's disk, waiting only for the standby: saved, as 75 allows.
    #expect(try numbers(server, name) == [1001, 1002, 1003])
  }

  @Test func aBadShopTimeoutIsAUsageError() throws {
    for value in ["0", "-1", "x", "", "86401", "1.5"] {
      let store = PostgresOrders(uri: "postgresql://u:pw@127.0.0.1:1/db?shop_timeout=\(value)")
      let error = try #require(throws: PostgresError.self) { try store.count() }
      #expect(error.status == .usage, "\(value)")
      #expect(error.message.contains("shop_timeout"))
      #expect(!error.message.contains("pw"))
    }
  }

  @Test func aShortPasswordLeavesTheMessageWhole() throws {
    for password in ["e", "1", "o", "127", "n"] {
      let store = PostgresOrders(uri: "postgresql://shop:\(password)@127.0.0.1:1/orders")
      let error = try #require(throws: PostgresError.self) { try store.count() }
      #expect(error.status == .unavailable)
      #expect(
        error.message.hasPrefix(
          "the orders database 'orders' on 127.0.0.1:1: can't connect: connection to server at "
            + "\"127.0.0.1\", port 1 failed: Connection refused"), "\(password): \(error)")
      #expect(!error.message.contains("***"))
    }
  }
}

/// Only the password field of a URI or a conninfo string is cut from a message.
struct PostgresRedactionTests {
  @Test(arguments: [
    ("postgresql://shop:e@host/db", "postgresql://shop:***@host/db"),
    (
      "postgres://u:p%40ss:w@h:5/db?sslmode=require tail",
      "postgres://u:***@h:5/db?sslmode=require tail"
    ),
    (
      "x postgresql://u@h/db?sslmode=disable&password=e&port=5 y",
      "x postgresql://u@h/db?sslmode=disable&password=***&port=5 y"
    ),
    ("postgresql://u:@h/db", "postgresql://u:***@h/db"),
    ("host=h password='a b' dbname=d", "host=h password=*** dbname=d"),
    (
      #"invalid URI query parameter: "PASSWORD=sekrit""#,
      #"invalid URI query parameter: "PASSWORD=***""#
    ),
    ("postgresql://user@host/db", "postgresql://user@host/db"),
    ("postgresql://[::1]:5432/db", "postgresql://[::1]:5432/db"),
    // libpq decodes a query key before it reads it: each of these is a password.
    ("postgresql://h/db?pass%77ord=abc", "postgresql://h/db?pass%77ord=***"),
    (
      "postgresql://h/db?%70%61%73%73%77%6F%72%64=abc&x=1",
      "postgresql://h/db?%70%61%73%73%77%6F%72%64=***&x=1"
    ),
    ("postgresql://h/db?PASS%57ord=abc", "postgresql://h/db?PASS%57ord=***"),
    ("postgresql://h/db?pass%77or=abc&passwordx=1", "postgresql://h/db?pass%77or=abc&passwordx=1"),
    (
      "connection to server at \"e\" (1.2.3.4), port 5 failed: password authentication failed",
      "connection to server at \"e\" (1.2.3.4), port 5 failed: password authentication failed"
    ),
    (
      "first line postgresql://a:b@c\nsecond postgresql://a:b@c",
      "first line postgresql://a:***@c"
    ),
  ])
  func onlyThePasswordFieldIsCut(text: String, redacted: String) {
    #expect(ConnectionURI.redacting(PostgresPlace.firstLine(text)) == redacted)
  }

  /// libpq ends a userinfo at its first `@` before any `/`, and a query value at `&` alone.
  @Test(arguments: [
    ("postgresql://u:se?cret@h/db", "postgresql://u:***@h/db"),
    ("postgresql://u:se#cret@h/db", "postgresql://u:***@h/db"),
    ("postgresql://u:se cret@h/db", "postgresql://u:***@h/db"),
    ("postgresql://u:se@cret@h/db", "postgresql://u:***@cret@h/db"),
    ("postgresql://u@h/db?password=se#cret", "postgresql://u@h/db?password=***"),
    ("postgresql://u@h/db?password=se cret&x=1", "postgresql://u@h/db?password=***&x=1"),
    ("postgresql://h?password=x@y/db", "postgresql://h?password=***@y/db"),
    ("postgresql://u:se/cret@h/db", "postgresql://u:se/cret@h/db"),
    // In a URI a quote is a letter of the value, and a `://` in a value is text.
    ("postgresql://u@h/db?password='abc'def&x=1", "postgresql://u@h/db?password=***&x=1"),
    ("postgresql://h/db?pass%77ord='s'ecret", "postgresql://h/db?pass%77ord=***"),
    (
      "postgresql://h/db?application_name=a://b:c@d", "postgresql://h/db?application_name=a://b:c@d"
    ),
  ])
  func aWholeURIIsCutWhereLibpqReadsItsPassword(uri: String, shown: String) {
    #expect(ConnectionURI(uri).description == shown)
  }

  /// A byte that is not UTF-8 is kept as `%XX`, which libpq decodes to the same byte; valid
  /// UTF-8 is kept as typed.
  @Test func aURIThatIsNotUTF8KeepsItsBytesAsEscapes() {
    let typed = Array("postgresql://u:p".utf8) + [0xFE] + Array("@h/d".utf8) + [0xFF, 0xC3]
    #expect(ConnectionURI(bytes: typed).text == "postgresql://u:p%FE@h/d%FF%C3")
    #expect(ConnectionURI(bytes: typed).description == "postgresql://u:***@h/d%FF%C3")
    #expect(ConnectionURI(bytes: Array("postgresql://h/café".utf8)).text == "postgresql://h/café")
  }

  /// Random URIs whose passwords hold what a URI gives meaning to (`?#:@&=/`, spaces,
  /// %-escapes): the shown URI holds nothing of what libpq reads as the password, and libpq
  /// reads it as the same user, hosts, ports, database and parameters.
  @Test(.enabled(if: (try? LibPQ(loading: LibPQ.standardName)) != nil, "needs libpq5"))
  func theShownURIHidesWhatLibpqReadsAsThePasswordAndNothingElse() throws {
    let pq = try LibPQ(loading: LibPQ.standardName)
    func read(_ uri: String) -> [String: String]? {
      var failure: UnsafeMutablePointer<CChar>?
      guard let options = pq.options(pq.conninfoParse(uri, &failure)) else {
        if let failure { pq.freemem(failure) }
        return nil
      }
      var values: [String: String] = [:]
      for option in options { values[option.keyword] = option.value }
      return values
    }
    var random = SplitMix(seed: 20_261_201)
    func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
    let pieces = [
      "a", "Z", "9", "?", "#", ":", "@", "&", "=", "/", " ", "'", "%40", "%3F", "%26", "-",
    ]
    var checked = 0
    for round in 0..<3000 {
      let marker = "S\(round)x"
      let secret = marker + (0..<Int(random.next() % 6)).map { _ in pick(pieces) }.joined()
      let other = "o" + (0..<Int(random.next() % 6)).map { _ in pick(pieces) }.joined()
      let uri = pick([
        "postgresql://u:\(secret)@h:5432/db",
        "postgres://u:\(secret)@h1,h2:5/db?sslmode=disable",
        "postgresql://u@h/db?password=\(secret)&application_name=x",
        "postgresql:///db?host=/tmp&PassWord=\(secret)",
        "postgresql://u:\(other)@h/db?password=\(secret)",
        "postgresql://u:\(secret)@h/db?password=\(other)",
        "postgresql://\(secret)@h/db",
      ])
      guard let original = read(uri), original["password"]?.hasPrefix(marker) == true else {
        continue
      }
      let shown = ConnectionURI(uri).description
      #expect(!shown.contains(marker), "\(uri) is shown as \(shown)")
      var others = original
      others["password"] = nil
      var shownOthers = read(shown)
      #expect(shownOthers?["password"] == "***", "\(uri) is shown as \(shown)")
      shownOthers?["password"] = nil
      #expect(shownOthers == others, "\(uri) is shown as \(shown)")
      checked += 1
    }
    #expect(checked > 1000, "only \(checked) URIs had a password")
  }
}
