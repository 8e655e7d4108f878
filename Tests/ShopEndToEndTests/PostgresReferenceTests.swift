import Foundation
import ShopTestSupport
import Testing

/// References with the orders in PostgreSQL: the same replies as the file, one order per ref
/// under eight processes on several connections, 75 then the same command, an old table.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresReferenceTests {
  func saved(_ server: PostgresServer, _ database: String) throws -> [String] {
    try server.sql(
      "SELECT number || ' ' || coalesce(ref, '-') FROM shop_orders ORDER BY number",
      database: database
    ).split(separator: "\n").map(String.init)
  }

  @Test func theRepliesOfARepeatedRef() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let uri = server.tcpURI(database)
    let shop = try Shop()
    #expect(try shop.run("place", "--orders", uri, "pen=1").stdout == "order 1001 for 30\n")
    #expect(
      try shop.run("place", "--orders", uri, "--ref", "web-5512", "pen=2", "lamp=1").stdout
        == "order 1002 for 225\n")
    let again = try shop.run("place", "--orders", uri, "--ref", "web-5512", "lamp=1", "pen=2")
    #expect(again.status == 0)
    #expect(again.stdout == "order 1002 for 225 (already placed)\n")
    let other = try shop.run("place", "--orders", uri, "--ref", "web-5512", "pen=1")
    #expect(other.status == 1)
    #expect(other.stdout == "ref web-5512 is order 1002, with other items\n")
    let batch = try shop.run(
      ["batch", "--json", "--orders", server.socketURI(database)],
      input: "@web-5512 pen=2 lamp=1\n@web-7 pen=1\n@web-7 pen=1\n@web-7 pen=3\npen=1\n")
    #expect(batch.status == 1)
    let lines = batch.stdout.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0].hasPrefix(#"{"line":1,"number":1002,"ref":"web-5512","#))
    #expect(lines[0].hasSuffix(#","alreadyPlaced":true}"#))
    #expect(lines[1].hasPrefix(#"{"line":2,"number":1003,"ref":"web-7","#))
    #expect(
      lines[2].hasPrefix(#"{"line":3,"number":1003,"#) && lines[2].contains("alreadyPlaced"))
    #expect(lines[3].contains(#""error":"ref web-7 is order 1003, with other items""#))
    #expect(lines[4].hasPrefix(#"{"line":5,"number":1004,"items""#))
    #expect(try saved(server, database) == ["1001 -", "1002 web-5512", "1003 web-7", "1004 -"])
    let listed = try shop.run("orders", "--orders", uri, "--ref", "web-7")
    #expect(listed.stdout.hasSuffix("  @web-7 pen=1  total 30  payable 30\n"), "\(listed)")
    let none = try shop.run("orders", "--orders", uri, "--ref", "web-8")
    #expect(none.status == 1)
    #expect(none.stdout == "no order with ref web-8\n")
    #expect(try shop.run("orders", "--orders", uri, "--count").stdout == "4\n")
  }

  @Test func eightProcessesOnSeveralConnectionsGiveOneOrderPerRef() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let shop = try Shop()
    let processes = (1...8).map { worker in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c",
        #"for i in $(seq 20); do "$0" place --orders "$1" --ref "same-$i" pen=$i >/dev/null || exit 1; done"#,
        Shop.binary, worker % 2 == 0 ? server.tcpURI(database) : server.socketURI(database),
      ]
      return process
    }
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "a command failed")
    let rows = try saved(server, database)
    #expect(rows.count == 20)
    #expect(rows.map { String($0.split(separator: " ")[0]) } == (1001...1020).map(String.init))
    #expect(Set(rows.map { $0.split(separator: " ")[1] }).count == 20)
  }

  @Test func aCommitWithNoAnswerThenTheSameCommandPlacesEachOnce() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let uri = server.tcpURI(database)
    let shop = try Shop()
    #expect(try shop.run("place", "--orders", uri, "--ref", "a", "pen=1").status == 0)
    try server.sql(PostgresFaults.dropAtCommit, database: database)
    let input = "@a pen=1\n@b pen=2\n@c lamp=1\n"
    let lost = try shop.run(["batch", "--orders", uri], input: input)
    #expect(lost.status == 75)
    #expect(lost.stdout.isEmpty)
    #expect(
      lost.stderr.hasSuffix("their refs make it safe to run the same command again\n"),
      "\(lost)")
    let place = try shop.run("place", "--orders", uri, "--ref", "d", "pen=1")
    #expect(place.status == 75)
    try server.sql("DROP TRIGGER shop_drop_at_commit ON shop_orders", database: database)
    let again = try shop.run(["batch", "--orders", uri], input: input)
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "order 1001 for 30 (already placed)\norder 1002 for 60\norder 1003 for 190\n")
    #expect(
      try shop.run("place", "--orders", uri, "--ref", "d", "pen=1").stdout
        == "order 1004 for 30\n")
    #expect(try saved(server, database) == ["1001 a", "1002 b", "1003 c", "1004 d"])
  }

  @Test func aBatchKilledThenRunAgainPlacesEveryLineOnce() throws {
    signal(SIGPIPE, SIG_IGN)
    let server = try PostgresServer.shared.get()
    let shop = try Shop()
    let lines = (0..<3000).map { "@k-\($0) pen=\($0 % 7 + 1)\n" }
    let chunks = stride(from: 0, to: lines.count, by: 100).map {
      Data(lines[$0..<min($0 + 100, lines.count)].joined().utf8)
    }
    let input = try shop.folder.write("input.txt", lines.joined())
    for (moment, delay) in [80_000, 250_000].enumerated() {
      let database = try server.makeDatabase()
      let uri = server.tcpURI(database)
      _ = try shop.batchKilled(
        ["-q", "--orders", uri], feeding: chunks, after: useconds_t(delay))
      try server.waitForNoSessions(database)
      let rerun = try shop.run("batch", "-q", "--orders", uri, input)
      #expect(rerun.status == 0, "moment \(moment): \(rerun)")
      let rows = try saved(server, database)
      #expect(rows.count == 3000, "moment \(moment)")
      #expect(rows.map { String($0.split(separator: " ")[0]) } == (1001...4000).map(String.init))
      #expect(Set(rows.map { $0.split(separator: " ")[1] }).count == 3000)
    }
  }

  @Test func aTableMadeBeforeRefsGetsItsColumn() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    try server.sql(
      """
      CREATE TABLE shop_orders (number bigint PRIMARY KEY, placed_at timestamptz NOT NULL,
        items jsonb NOT NULL, total bigint NOT NULL, payable bigint NOT NULL);
      INSERT INTO shop_orders VALUES (1001, '2026-11-30T06:06:43Z',
        '[{"sku":"pen","quantity":1,"price":30}]', 30, 30);
      """, database: database)
    let uri = server.tcpURI(database)
    let shop = try Shop()
    let listed = try shop.run("orders", "--orders", uri)
    #expect(
      listed.stdout == "1001  2026-11-30T06:06:43Z  pen=1  total 30  payable 30\n", "\(listed)")
    #expect(
      try shop.run("place", "--orders", uri, "--ref", "x", "pen=1").stdout
        == "order 1002 for 30\n")
    #expect(
      try shop.run("place", "--orders", uri, "--ref", "x", "pen=1").stdout
        == "order 1002 for 30 (already placed)\n")
    #expect(try saved(server, database) == ["1001 -", "1002 x"])
    // The column is unique: not even a writer that skips the lock can add the ref again.
    #expect(
      throws: (any Error).self,
      performing: {
        try server.sql(
          "INSERT INTO shop_orders VALUES (1003, now(), '[]', 0, 0, 'x')", database: database)
      })
  }
}
