import Foundation
import ShopTestSupport
import Testing

/// A primary and its hot standby (`pg_basebackup -R`), each test's own: the binary as a real
/// process writing through a failover, and refused on the standby. Every wait is bounded, by
/// `shop_timeout` and `connect_timeout` in the URI and by a deadline in the test, so a
/// failure fails instead of hanging.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresStandbyTests {
  /// Every server named, primary first, so libpq connects to whichever takes writes.
  static func multiHostURI(_ servers: [PostgresServer], _ database: String) -> String {
    "postgresql://postgres@" + servers.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
      + "/\(database)?target_session_attrs=read-write&connect_timeout=5&shop_timeout=10"
  }

  /// ref → (number, payable), from the table.
  static func savedByRef(_ server: PostgresServer, _ database: String) throws
    -> [String: (number: Int, payable: Int)]
  {
    let rows = try server.sql(
      "SELECT ref, number, payable FROM shop_orders ORDER BY number", database: database
    ).split(separator: "\n").map { $0.split(separator: "|") }
    var saved: [String: (number: Int, payable: Int)] = [:]
    for row in rows {
      guard row.count == 3, let number = Int(row[1]), let payable = Int(row[2]) else {
        Issue.record("not a row: \(row)")
        continue
      }
      #expect(saved[String(row[0])] == nil, "ref \(row[0]) is saved twice")
      saved[String(row[0])] = (number, payable)
    }
    return saved
  }

  /// `order N for P` lines in input order, with whether each says `(already placed)`.
  static func replies(_ stdout: String) -> [(number: Int, payable: Int, again: Bool)] {
    stdout.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ")
      guard words.count >= 4, words[0] == "order", let number = Int(words[1]),
        let payable = Int(words[3])
      else { return nil }
      return (number, payable, line.hasSuffix(" (already placed)"))
    }
  }

  @Test func aFailoverToASynchronousStandbyKeepsEveryReportedOrderOnce() throws {
    let primary = try PostgresServer()
    let database = try primary.makeDatabase()
    let standby = try PostgresServer(standbyOf: primary)
    // Made synchronous after the copy: the standby's own settings name no standby, so once
    // promoted it commits without waiting for one that is not there.
    try primary.sql("ALTER SYSTEM SET synchronous_standby_names = '*'", database: database)
    try primary.sql("SELECT pg_reload_conf()", database: database)
    try primary.waitForSetting("synchronous_standby_names", "*", database: database)
    try PostgresServer.wait(for: "the standby to be synchronous") {
      try primary.sql("SELECT sync_state FROM pg_stat_replication", database: database)
        == "sync\n"
    }
    let uri = Self.multiHostURI([primary, standby], database)
    let lines = (1...3000).map { "@f-\($0) pen=\($0 % 7 + 1)" }
    let shop = try Shop()
    let (batch, writer) = try shop.startFed(["batch", "--orders", uri])
    // Fed in small pieces (one group each while the batch keeps up); the last piece only
    // after the kill, so the batch is still running when the primary dies, and its next
    // group finds the primary gone and no server that takes writes yet.
    let chunks = stride(from: 0, to: lines.count, by: 20).map {
      Data((lines[$0..<min($0 + 20, lines.count)].joined(separator: "\n") + "\n").utf8)
    }
    let killed = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      for chunk in chunks.dropLast() {
        guard (try? writer.write(contentsOf: chunk)) != nil else { break }
        usleep(5000)
      }
      killed.wait()
      if let last = chunks.last { try? writer.write(contentsOf: last) }
      try? writer.close()
    }
    let waited = Result {
      try PostgresServer.wait(for: "the batch to report 400 orders") {
        Shop.reportedNumbers(batch.output).count >= 400
      }
    }
    try primary.stopImmediately()
    killed.signal()
    let first = batch.finish(within: 60)
    try waited.get()
    #expect([69, 75].contains(first.status), "\(first)")
    let reported = Self.replies(first.stdout)
    #expect(reported.count >= 400 && reported.count < lines.count, "\(reported.count)")
    #expect(reported.allSatisfy { !$0.again })
    let last = reported.last.map { "\($0.number)" } ?? "none"
    #expect(first.stderr.contains(last), "\(first.stderr)")

    try standby.promote()
    let before = try Self.savedByRef(standby, database)
    // The k-th report is the k-th line's: each is on the new primary, under its number.
    for (index, report) in reported.enumerated() {
      let kept = before["f-\(index + 1)"]
      #expect(
        kept?.number == report.number && kept?.payable == report.payable,
        "order \(report.number) (f-\(index + 1)) was reported and is not on the standby")
    }
    // The group in flight at the kill may be there too, unreported: saved are the first
    // lines, with no hole.
    #expect(before.count >= reported.count)
    #expect(Set(before.keys) == Set((1...max(1, before.count)).map { "f-\($0)" }))

    // The same command again, through the same URI: libpq skips the dead primary.
    let rerun = try shop.start(
      ["batch", "--orders", uri], input: Data((lines.joined(separator: "\n") + "\n").utf8)
    ).finish(within: 120)
    #expect(rerun.status == 0, "\(rerun)")
    let again = Self.replies(rerun.stdout)
    #expect(again.count == lines.count)
    var next = 1001 + before.count
    for (index, reply) in again.enumerated() {
      if let kept = before["f-\(index + 1)"] {
        #expect(reply.again && reply.number == kept.number, "f-\(index + 1): \(reply)")
      } else {
        #expect(!reply.again && reply.number == next, "f-\(index + 1): \(reply)")
        next += 1
      }
    }
    let after = try Self.savedByRef(standby, database)
    #expect(after.count == lines.count)
    #expect(after.values.map(\.number).sorted() == Array(1001...(1000 + lines.count)))
    for (index, reply) in again.enumerated() {
      #expect(after["f-\(index + 1)"]?.payable == reply.payable)
    }
    #expect(try shop.run("orders", "--orders", uri, "--count").stdout == "\(lines.count)\n")
  }

  @Test func aHotStandbyServesReadersAndRefusesWritersNamingItAndTheWayToThePrimary() throws {
    let primary = try PostgresServer()
    let database = try primary.makeDatabase()
    let empty = try primary.makeDatabase()  // No table: a writer there would create it.
    let shop = try Shop()
    let placed = try shop.run(
      ["batch", "-q", "--orders", primary.tcpURI(database)],
      input: "@s-1 pen=1\nlamp=1\n@s-2 pen=3 lamp=2\n")
    #expect(placed.status == 0, "\(placed)")
    let standby = try PostgresServer(standbyOf: primary)
    let options = "?connect_timeout=5&shop_timeout=10"
    let onStandby = standby.tcpURI(database) + options
    try PostgresServer.wait(for: "the standby to hold the orders") {
      try standby.sql("SELECT count(*) FROM shop_orders", database: database) == "3\n"
    }
    // Readers: on the standby as on the primary.
    for reader in [
      ["orders"], ["orders", "--count"], ["orders", "--last", "2"], ["orders", "1002"],
      ["orders", "--ref", "s-2"], ["orders", "--json"], ["orders", "--csv"],
      ["orders", "--since", "2000-01-01"], ["summary"], ["summary", "--by", "sku"],
    ] {
      let there = try shop.run(reader + ["--orders", onStandby])
      let here = try shop.run(reader + ["--orders", primary.tcpURI(database) + options])
      #expect(there.status == 0 && !there.stdout.isEmpty, "\(reader): \(there)")
      #expect(there.stdout == here.stdout, "\(reader)")
    }
    // Writers: 69, naming the standby and the URI that reaches the primary; nothing saved.
    let many = (1...70).map { "@m-\($0) pen=1" }.joined(separator: "\n")
    for (uri, writer, input) in [
      (onStandby, ["place", "pen=1"], ""), (onStandby, ["place", "--ref", "s-9", "pen=1"], ""),
      (onStandby, ["place", "--ref", "s-1", "pen=1"], ""), (onStandby, ["batch"], "pen=1\nlamp=1"),
      (onStandby, ["batch"], many), (onStandby, ["batch"], "@s-1 pen=1\n@s-3 lamp=1"),
      (standby.tcpURI(empty) + options, ["place", "pen=1"], ""),
      (standby.tcpURI(empty) + options, ["batch"], many),
    ] {
      let run = try shop.run(writer + ["--orders", uri], input: input)
      #expect(run.status == 69, "\(writer): \(run)")
      #expect(run.stdout.isEmpty, "\(writer): \(run)")
      for words in [
        "the server is a hot standby, read-only while it recovers",
        "writers need the primary", "target_session_attrs=read-write",
      ] {
        #expect(run.stderr.contains(words), "\(writer): \(run.stderr)")
      }
      #expect(!run.stderr.contains("the connection was lost"), "\(run.stderr)")
    }
    #expect(try standby.sql("SELECT count(*) FROM shop_orders", database: database) == "3\n")
    // The advice works: the standby named first, the primary found.
    let both = Self.multiHostURI([standby, primary], database)
    let place = try shop.run("place", "--orders", both, "--ref", "s-4", "pen=1")
    #expect(place.status == 0 && place.stdout == "order 1004 for 30\n", "\(place)")
  }

  /// A COMMIT whose wait for the synchronous standby is cancelled answers success, with a
  /// warning: saved on the primary, perhaps not on the standby. shop reports none of it as
  /// placed (75), whichever way the group went; the rerun with refs finds them saved.
  @Test func aCancelledWaitForTheSynchronousStandbyIsNeverReportedAsDurable() throws {
    let server = try PostgresServer()  // Its own: the setting is the whole server's.
    let database = try server.makeDatabase()
    let uri = server.tcpURI(database) + "?shop_timeout=30"
    let shop = try Shop()
    #expect(try shop.run("place", "--orders", uri, "pen=1").stdout == "order 1001 for 30\n")
    try server.sql("ALTER SYSTEM SET synchronous_standby_names = 'ghost'", database: database)
    try server.sql("SELECT pg_reload_conf()", database: database)
    try server.waitForSetting("synchronous_standby_names", "ghost", database: database)
    let many = (1...70).map { "@m-\($0) pen=1" }.joined(separator: "\n")
    let plain = Array(repeating: "pen=1", count: 70).joined(separator: "\n")
    // One round trip (INSERT), a ref's COMMIT after COPY, and COPY's without refs.
    var expected = 1001
    for (command, input, count) in [
      (["place", "pen=2"], "", 1), (["place", "--ref", "w-1", "pen=3"], "", 1),
      (["batch"], many, 70), (["batch"], plain, 70),
    ] {
      let started = try shop.start(command + ["--orders", uri], input: Data(input.utf8))
      try PostgresServer.wait(for: "shop to wait for the standby", within: 25) {
        try server.sql(
          "SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
            + "WHERE application_name = 'shop' AND wait_event = 'SyncRep'",
          database: database) == "t\n"
      }
      let run = started.finish(within: 30)
      #expect(run.status == 75, "\(command): \(run)")
      #expect(run.stdout.isEmpty, "\(command): \(run)")
      #expect(
        run.stderr.contains("canceling wait for synchronous replication"),
        "\(command): \(run.stderr)")
      #expect(run.stderr.contains("perhaps not on its synchronous standby"), "\(run.stderr)")
      let first = expected + 1
      let which = count == 1 ? "order \(first)" : "orders \(first)…\(expected + count)"
      #expect(run.stderr.contains(which), "\(command): \(run.stderr)")
      expected += count
      // Committed on the primary, as the warning says.
      #expect(try savedCount(server, database) == expected - 1000)
    }
    try server.sql("ALTER SYSTEM RESET synchronous_standby_names", database: database)
    try server.sql("SELECT pg_reload_conf()", database: database)
    try server.waitForSetting("synchronous_standby_names", "", database: database)
    let again = try shop.run(["batch", "--orders", uri], input: many)
    #expect(again.status == 0 && again.stdout.hasSuffix("order 1073 for 30 (already placed)\n"))
    #expect(try shop.run("place", "--orders", uri, "pen=1").stdout == "order 1144 for 30\n")
  }

  func savedCount(_ server: PostgresServer, _ database: String) throws -> Int? {
    Int(try server.sql("SELECT count(*) FROM shop_orders", database: database).dropLast())
  }
}
