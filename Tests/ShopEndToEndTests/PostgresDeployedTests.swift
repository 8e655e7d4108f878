import Foundation
import ShopTestSupport
import Testing

/// PostgreSQL as it is deployed: through pgbouncer in each pool mode, under database and role
/// settings shop must not inherit, across a crash, an idle timeout and a failover to a
/// synchronous standby. Servers that are stopped or promoted are the test's own.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresDeployedTests {
  func savedNumbers(_ server: PostgresServer, _ database: String) throws -> [Int] {
    try server.sql("SELECT number FROM shop_orders ORDER BY number", database: database)
      .split(separator: "\n").compactMap { Int($0) }
  }

  /// `order N for T` lines, as (N, T).
  static func reports(_ stdout: String) -> [(number: Int, total: Int)] {
    stdout.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ")
      guard words.count == 4, words[0] == "order", let number = Int(words[1]),
        let total = Int(words[3])
      else { return nil }
      return (number, total)
    }
  }

  @Test(arguments: ["session", "transaction"])
  func throughPgBouncerEightPlacersAndABatchWithRefsAreContiguousAndOnce(mode: String) throws {
    let server = try PostgresServer.shared.get()
    let bouncer = try PgBouncer(in: server, mode: mode)
    defer { bouncer.stop() }
    let database = try server.makeDatabase()
    let uri = bouncer.uri(database)
    let shop = try Shop()
    let input = (1...150).map { "@b-\($0) pen=\($0 % 5 + 1)" }.joined(separator: "\n")
    let placers = Shop.placingLoops(8, count: 25, into: uri)
    for placer in placers { try placer.run() }
    let batch = try shop.run(["batch", "-q", "--orders", uri], input: input)
    for placer in placers { placer.waitUntilExit() }
    #expect(batch.status == 0, "\(batch)")
    #expect(placers.allSatisfy { $0.terminationStatus == 0 }, "a place failed through \(mode)")
    // The same batch again: every ref is there, so nothing is placed twice.
    let again = try shop.run(["batch", "--orders", uri], input: input)
    #expect(again.status == 0, "\(again)")
    let replies = again.stdout.split(separator: "\n")
    #expect(replies.count == 150 && replies.allSatisfy { $0.hasSuffix("(already placed)") })
    #expect(try savedNumbers(server, database) == Array(1001...1350))
    #expect(
      try server.sql(
        "SELECT count(ref), count(DISTINCT ref) FROM shop_orders", database: database)
        == "150|150\n")
    #expect(try shop.run("orders", "--orders", uri, "--count").stdout == "350\n")
  }

  @Test func pgBouncerInStatementModeIsRefusedNamingTheModeAndSavesNothing() throws {
    let server = try PostgresServer.shared.get()
    let bouncer = try PgBouncer(in: server, mode: "statement")
    defer { bouncer.stop() }
    let database = try server.makeDatabase()
    let uri = bouncer.uri(database)
    let shop = try Shop()
    try server.createShopTable(database: database)
    for arguments in [
      ["place", "--orders", uri, "pen=1"], ["place", "--orders", uri, "--ref", "s-1", "pen=1"],
      ["batch", "--orders", uri],
    ] {
      let run = try shop.run(
        arguments, input: (1...70).map { _ in "pen=1" }.joined(separator: "\n"))
      #expect(run.status == 69, "\(arguments): \(run)")
      #expect(run.stderr.contains("statement mode"), "\(run.stderr)")
      #expect(run.stderr.contains("session or transaction mode"), "\(run.stderr)")
      #expect(!run.stderr.contains("the connection was lost"), "\(run.stderr)")
      #expect(run.stdout.isEmpty)
    }
    #expect(try savedNumbers(server, database).isEmpty)
    // Readers need no transaction: they work in statement mode.
    #expect(try shop.run("orders", "--orders", uri, "--count").stdout == "0\n")
  }

  /// An AFTER INSERT trigger sees the settings every writer's transaction ran with.
  static let settingsLog = """
    CREATE TABLE settings_log (sync text, lock text, isolation text);
    CREATE FUNCTION settings_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO settings_log VALUES (current_setting('synchronous_commit'),
        current_setting('lock_timeout'), current_setting('transaction_isolation'));
      RETURN NULL; END $$;
    CREATE TRIGGER settings_log AFTER INSERT ON shop_orders
      FOR EACH STATEMENT EXECUTE FUNCTION settings_log();
    """

  @Test(arguments: [
    ("off", "on"), ("local", "on"), ("remote_write", "on"), ("on", "on"),
    ("remote_apply", "remote_apply"),
  ])
  func synchronousCommitIsRaisedNeverLoweredThroughEveryPath(
    databaseDefault: String, expected: String
  ) throws {
    let server = try PostgresServer.shared.get()
    let session = try PgBouncer(in: server, mode: "session")
    let transaction = try PgBouncer(in: server, mode: "transaction")
    defer {
      session.stop()
      transaction.stop()
    }
    let database = try server.makeDatabase()
    try server.createShopTable(database: database)
    try server.sql(Self.settingsLog, database: database)
    try server.sql(
      "ALTER DATABASE \(database) SET synchronous_commit = \(databaseDefault); "
        + "ALTER DATABASE \(database) SET default_transaction_isolation = 'serializable'; "
        + "ALTER DATABASE \(database) SET lock_timeout = '1ms'", database: database)
    let shop = try Shop()
    let big = (1...70).map { "pen=\($0 % 3 + 1)" }.joined(separator: "\n")
    var writes = 0
    for uri in [server.tcpURI(database), session.uri(database), transaction.uri(database)] {
      // One round trip (INSERT), COPY, and a group with a ref.
      #expect(try shop.run("place", "--orders", uri, "pen=1").status == 0)
      #expect(try shop.run(["batch", "-q", "--orders", uri], input: big).status == 0)
      writes += 3
      #expect(try shop.run("place", "--orders", uri, "--ref", "r-\(writes)", "pen=1").status == 0)
    }
    let log = try server.sql(
      "SELECT sync, lock, isolation FROM settings_log", database: database
    ).split(separator: "\n")
    #expect(log.count == writes)
    #expect(log.allSatisfy { $0 == "\(expected)|29s|read committed" }, "\(log)")
  }

  @Test func theURIsOwnStrongerSettingIsKept() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    try server.createShopTable(database: database)
    try server.sql(Self.settingsLog, database: database)
    let uri = server.tcpURI(database) + "?options=-c%20synchronous_commit%3Dremote_apply"
    let shop = try Shop()
    #expect(try shop.run("place", "--orders", uri, "pen=1").status == 0)
    #expect(try shop.run("place", "--orders", uri, "--ref", "k-1", "pen=1").status == 0)
    #expect(
      try server.sql("SELECT sync FROM settings_log", database: database)
        == "remote_apply\nremote_apply\n")
  }

  @Test func aRolesMillisecondTimeoutsDoNotFailConcurrentPlaces() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let role = "clerk_" + database.dropFirst(5)
    try server.sql(
      "CREATE ROLE \(role) LOGIN; ALTER DATABASE \(database) OWNER TO \(role); "
        + "ALTER ROLE \(role) SET lock_timeout = '1ms'; "
        + "ALTER ROLE \(role) SET idle_in_transaction_session_timeout = '1ms'",
      database: database)
    let uri = "postgresql://\(role)@127.0.0.1:\(server.port)/\(database)"
    let shop = try Shop()
    let first = try shop.run("place", "--orders", uri, "pen=1")
    #expect(first.status == 0, "\(first)")
    let placers = Shop.placingLoops(8, count: 15, into: uri)
    for placer in placers { try placer.run() }
    // Groups by COPY, whose transaction is idle between its round trips.
    let batch = try shop.run(
      ["batch", "-q", "--orders", uri],
      input: (1...300).map { "@c-\($0) pen=1" }.joined(separator: "\n"))
    for placer in placers { placer.waitUntilExit() }
    #expect(batch.status == 0, "\(batch)")
    #expect(placers.allSatisfy { $0.terminationStatus == 0 }, "a place failed")
    #expect(try savedNumbers(server, database) == Array(1001...1421))
  }

  /// Every command, readers' single statements and a writer's checks outside its transaction
  /// included, runs under shop's own timeouts, whatever the role sets.
  @Test(arguments: ["statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout"])
  func aRolesMillisecondTimeoutFailsNoCommand(setting: String) throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let role = "timed_" + database.dropFirst(5)
    try server.sql(
      "CREATE ROLE \(role) LOGIN; ALTER DATABASE \(database) OWNER TO \(role); "
        + "ALTER ROLE \(role) SET \(setting) = '1ms'", database: database)
    let uri = "postgresql://\(role)@127.0.0.1:\(server.port)/\(database)"
    let shop = try Shop()
    let many = (1...70).map { "@m-\($0) pen=\($0 % 3 + 1)" }.joined(separator: "\n")
    for (command, input) in [
      (["orders", "--count"], ""), (["summary"], ""),  // No table yet.
      (["place", "pen=1"], ""), (["place", "--ref", "p-1", "lamp=1"], ""),
      (["batch"], "pen=2\nlamp=2"), (["batch"], many),
      (["batch"], Array(repeating: "pen=1", count: 70).joined(separator: "\n")),
      (["place", "--ref", "p-1", "lamp=1"], ""), (["orders"], ""), (["orders", "--count"], ""),
      (["orders", "--last", "3"], ""), (["orders", "1002"], ""), (["orders", "--ref", "m-7"], ""),
      (["orders", "--json"], ""), (["orders", "--csv"], ""),
      (["orders", "--since", "2000-01-01"], ""),
      (["summary"], ""), (["summary", "--by", "day"], ""), (["summary", "--by", "sku"], ""),
    ] {
      let run = try shop.run(command + ["--orders", uri], input: input)
      #expect(run.status == 0, "\(setting): \(command): \(run)")
    }
    #expect(try shop.run("orders", "--orders", uri, "--count").stdout == "144\n")
  }

  @Test func aCrashThroughPgBouncerWithSynchronousCommitOffLosesNoReportedOrder() throws {
    let server = try PostgresServer()  // Its own: it crashes.
    let bouncer = try PgBouncer(
      in: server, mode: "transaction", settings: ["server_login_retry = 1"])
    defer { bouncer.stop() }
    let database = try server.makeDatabase()
    try server.sql(
      "ALTER DATABASE \(database) SET synchronous_commit = off", database: database)
    let uri = bouncer.uri(database) + "?shop_timeout=20"
    let shop = try Shop()
    #expect(try shop.run("place", "--orders", uri, "pen=1").status == 0)
    let outputs = (1...4).map { shop.folder.file("loop-\($0).txt") }
    let loops = outputs.enumerated().map { index, output in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c",
        #"for i in $(seq 120); do "$0" place --orders "$1" pen=$((i % 9 + 1)) lamp=$2; done >"$3" 2>/dev/null"#,
        Shop.binary, uri, "\(index + 1)", output,
      ]
      return process
    }
    for loop in loops { try loop.run() }
    for _ in 0..<2 {
      usleep(800_000)
      try server.stopImmediately()
      try server.start()
    }
    for loop in loops { loop.waitUntilExit() }
    var reported: [Int: Int] = [1001: 30]  // `order N for P`: P is what is payable.
    for output in outputs {
      for (number, total) in Self.reports(try String(contentsOfFile: output, encoding: .utf8)) {
        #expect(reported[number] == nil, "order \(number) was reported twice")
        reported[number] = total
      }
    }
    #expect(reported.count > 20, "too few places landed around the crashes")
    let saved = try server.sql(
      "SELECT number, payable FROM shop_orders ORDER BY number", database: database
    ).split(separator: "\n").map { $0.split(separator: "|").compactMap { Int($0) } }
    let kept = Dictionary(
      saved.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }, uniquingKeysWith: { a, _ in a })
    for (number, total) in reported {
      #expect(kept[number] == total, "order \(number) for \(total) was reported and lost")
    }
    #expect(saved.map { $0.first ?? 0 } == Array(1001..<(1001 + saved.count)))
  }

  @Test func aBatchReconnectsBetweenGroupsAfterAnIdleTimeoutOrARestart() throws {
    let server = try PostgresServer()  // Its own: it restarts.
    let database = try server.makeDatabase()
    try server.sql(
      "ALTER DATABASE \(database) SET idle_session_timeout = '500ms'", database: database)
    let shop = try Shop()
    let (batch, writer) = try shop.startFed(["batch", "--orders", server.tcpURI(database)])
    func feed(_ line: String, expecting count: Int) throws {
      try writer.write(contentsOf: Data((line + "\n").utf8))
      for _ in 0..<200 where Shop.reportedNumbers(batch.output).count < count {
        usleep(25_000)
      }
    }
    try feed("@i-1 pen=1", expecting: 1)
    usleep(1_200_000)  // Past idle_session_timeout: the server ends the session.
    try feed("@i-2 pen=2", expecting: 2)
    usleep(1_200_000)
    try feed("pen=3", expecting: 3)
    try server.stop()  // Between groups: the server restarts.
    try server.start()
    try feed("pen=4", expecting: 4)
    try writer.close()
    let run = batch.finish()
    #expect(run.status == 0, "\(run)")
    #expect(Shop.reportedNumbers(run.stdout) == [1001, 1002, 1003, 1004])
    #expect(try savedNumbers(server, database) == [1001, 1002, 1003, 1004])
  }
}
