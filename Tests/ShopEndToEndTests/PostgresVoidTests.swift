import Foundation
import ShopTestSupport
import Testing

/// Voids with the orders in PostgreSQL: the file store's replies and sums on the same
/// commands, one void per order and contiguous numbers under eight processes, an old table.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresVoidTests {
  /// A fresh orders file in a private folder.
  func orderFile() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pgvoid-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("orders.txt").path
  }

  /// Runs each command on both stores and expects the same status and standard output.
  func expectSame(
    _ shop: Shop, _ commands: [[String]], file: String, uri: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for command in commands {
      let onFile = try shop.run([command[0], "--orders", file] + command.dropFirst())
      let onTable = try shop.run([command[0], "--orders", uri] + command.dropFirst())
      #expect(onTable.status == onFile.status, "\(command)", sourceLocation: sourceLocation)
      #expect(
        onTable.stdout == onFile.stdout, "\(command): \(onTable) vs \(onFile)",
        sourceLocation: sourceLocation)
    }
  }

  /// A void where no table is finds no order, as on a missing file, and creates nothing:
  /// plain, under a ref, as JSON, and of numbers below and past the first.
  @Test func aVoidWithNoTableFindsNoOrderAndCreatesNothing() throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name)
    let shop = try Shop()
    let file = try orderFile()
    for arguments in [
      ["1001"], ["--ref", "a", "1001"], ["--json", "1001"], ["--json", "--ref", "b", "1002"],
      ["1000"], ["9999"],
    ] {
      let onTable = try shop.run(["void", "--orders", uri] + arguments)
      let onFile = try shop.run(["void", "--orders", file] + arguments)
      #expect(onTable.status == 1, "\(arguments): \(onTable)")
      #expect(onTable.status == onFile.status, "\(arguments)")
      #expect(onTable.stdout == onFile.stdout, "\(arguments): \(onTable) vs \(onFile)")
      #expect(onTable.stderr == onFile.stderr, "\(arguments): \(onTable) vs \(onFile)")
      #expect(
        try server.sql("SELECT to_regclass('shop_orders') IS NULL", database: name) == "t\n",
        "\(arguments)")
      #expect(!FileManager.default.fileExists(atPath: file), "\(arguments)")
    }
  }

  @Test func theRepliesOfTheFileStore() throws {
    let server = try PostgresServer.shared.get()
    let uri = server.tcpURI(try server.makeDatabase())
    let shop = try Shop()
    let file = try orderFile()
    try expectSame(
      shop,
      [
        ["void", "1001"], ["place", "pen=1"], ["place", "pen=2", "lamp=1"], ["place", "lamp=3"],
        ["void", "1002"], ["void", "1002"], ["void", "9999"], ["void", "1000"], ["void", "1004"],
        ["void", "--ref", "undo-1", "1001"], ["void", "--ref", "undo-1", "1001"],
        ["void", "--ref", "undo-1", "1003"], ["void", "--ref", "undo-2", "1005"],
        ["void", "--json", "1003"], ["void", "-q", "1003"], ["void", "--json", "1006"],
        ["summary"], ["summary", "--by", "sku"], ["summary", "--json"], ["orders", "--count"],
        ["orders", "1004"], ["orders", "1002"], ["place", "pen=1"],
      ], file: file, uri: uri)
    let refused = try shop.run("void", "--orders", uri, "1004")
    #expect(refused.status == 1)
    #expect(refused.stdout.contains("not an order"))
  }

  @Test func theSumsOfTheFileStoreAfterRandomPlacesAndVoids() throws {
    let server = try PostgresServer.shared.get()
    let uri = server.tcpURI(try server.makeDatabase())
    let shop = try Shop()
    let file = try orderFile()
    var seed: UInt64 = 0x5eed_0034
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    var records = 0
    var commands: [[String]] = []
    for _ in 0..<60 {
      if records == 0 || next(3) > 0 {
        commands.append(["place", "pen=\(1 + next(5))"] + (next(2) == 0 ? ["lamp=1"] : []))
        records += 1
      } else {
        commands.append(["void", "-q", String(1001 + next(records + 1))])
        records += 1  // Counted high when refused: the number it picks is only less likely.
      }
    }
    try expectSame(
      shop, commands.map { $0.first == "place" ? $0 + ["-q"] : $0 }, file: file, uri: uri)
    try expectSame(
      shop,
      [
        ["summary"], ["summary", "--by", "sku"], ["summary", "--by", "day"], ["orders", "--count"],
      ],
      file: file, uri: uri)
    let summary = try shop.run("summary", "--orders", uri).stdout
    #expect(!summary.hasSuffix("voided 0  total 0  payable 0  discount 0\n"), "\(summary)")
  }

  @Test func eightProcessesPlacingAndVoidingKeepNumbersAndOneVoidPerOrder() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let shop = try Shop()
    for _ in 1...10 {
      #expect(try shop.run("place", "--orders", server.tcpURI(database), "pen=1").status == 0)
    }
    let processes = (1...8).map { worker in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c",
        #"for i in $(seq 1001 1010); do "$0" place -q --orders "$1" pen=1 >/dev/null || exit 1; "#
          + #""$0" void -q --orders "$1" $i >/dev/null || exit 1; done"#,
        Shop.binary, worker % 2 == 0 ? server.tcpURI(database) : server.socketURI(database),
      ]
      return process
    }
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "a command failed")
    let rows = try server.sql(
      "SELECT number || ' ' || coalesce(voids::text, '-') FROM shop_orders ORDER BY number",
      database: database
    ).split(separator: "\n")
    #expect(rows.count == 10 + 80 + 10)
    #expect(rows.map { String($0.split(separator: " ")[0]) } == (1001...1100).map(String.init))
    let voided = rows.compactMap { Int($0.split(separator: " ")[1]) }
    #expect(voided.sorted() == Array(1001...1010))
    let summary = try shop.run("summary", "--orders", server.tcpURI(database)).stdout
    #expect(summary.hasPrefix("orders 90  voided 10  total 2400 "), "\(summary)")
  }

  /// kill -9 at random moments of many voids (connecting, under the lock, between COPY and
  /// COMMIT, reporting): every void reported is saved, no order is voided twice, the numbers
  /// keep no gap, the lock is never left held, and a killed void under a ref, run again,
  /// answers void or already void, never a second void.
  @Test func killNineAmongVoidsLosesNothingReportedAndVoidsNothingTwice() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let uri = server.tcpURI(database)
    let shop = try Shop()
    let seed = (1...60).map { "pen=\($0 % 5 + 1)" }.joined(separator: "\n") + "\n"
    #expect(try shop.run(["batch", "-q", "--orders", uri], input: seed).status == 0)
    var random = SplitMix(seed: 34)
    var reported: [Int] = []
    var killed = 0
    var rerun = 0
    for _ in 0..<80 {
      let number = 1001 + Int(random.next() % 60)
      let ref = random.next() % 2 == 0 ? ["--ref", "k-\(number)"] : []
      let command = ["void", "--orders", uri] + ref + ["\(number)"]
      let started = try shop.start(command, input: nil)
      usleep(useconds_t(random.next() % 40_000))
      kill(started.process.processIdentifier, SIGKILL)
      let run = started.finish()
      // `order N void (void M)`: the void M was reported, so it must be saved.
      func reportedVoid(_ run: Run) -> Int? {
        let words = run.stdout.split(separator: " ")
        guard words.count == 5, words[2] == "void" else { return nil }
        return Int(words[4].dropLast(2))
      }
      if let void = reportedVoid(run) { reported.append(void) }
      guard run.status == 128 + SIGKILL else { continue }
      killed += 1
      if !ref.isEmpty {
        let again = try shop.run(command)
        #expect(again.status == 0, "\(command): \(again)")
        #expect(
          again.stdout.hasPrefix("order \(number) void (void ")
            || again.stdout.hasPrefix("order \(number) already void (void "), "\(again)")
        if let void = reportedVoid(again) { reported.append(void) }
        rerun += 1
      }
    }
    let rows = try server.sql(
      "SELECT number || ' ' || coalesce(voids::text, '-') FROM shop_orders ORDER BY number",
      database: database
    ).split(separator: "\n").map { $0.split(separator: " ") }
    #expect(rows.compactMap { Int($0[0]) } == Array(1001...(1000 + rows.count)))
    let voids = Dictionary(
      rows.compactMap { row in Int(row[1]).map { (Int(row[0]) ?? 0, $0) } }
    ) { a, _ in a }
    #expect(Set(reported).isSubset(of: Set(voids.keys)), "a reported void is missing")
    #expect(Set(voids.values).count == voids.count, "an order voided twice")
    #expect(voids.values.allSatisfy { (1001...1060).contains($0) }, "a void of a void")
    #expect(killed > 0 && rerun > 0 && !reported.isEmpty, "killed \(killed), rerun \(rerun)")
    // The next commands read and write on: no session the kills left holds the lock.
    let listed = try shop.run("orders", "--orders", uri)
    #expect(listed.status == 0, "\(listed)")
    #expect(try shop.run("place", "--orders", uri, "pen=1").status == 0)
    let again = try shop.run("void", "--orders", uri, "1001")
    #expect(again.status == 0, "\(again)")
  }

  @Test func aTableMadeBeforeVoidsIsReadAndGetsTheColumnOnTheFirstVoid() throws {
    let server = try PostgresServer.shared.get()
    let database = try server.makeDatabase()
    let uri = server.tcpURI(database)
    let shop = try Shop()
    #expect(try shop.run("place", "--orders", uri, "pen=1").status == 0)
    #expect(try shop.run("place", "--orders", uri, "pen=2").status == 0)
    try server.sql("ALTER TABLE shop_orders DROP COLUMN voids", database: database)
    #expect(try shop.run("summary", "--orders", uri).stdout.hasPrefix("orders 2  voided 0 "))
    #expect(try shop.run("void", "--orders", uri, "1001").stdout == "order 1001 void (void 1003)\n")
    #expect(
      try shop.run("summary", "--orders", uri).stdout.hasPrefix("orders 2  voided 1  total 60 "))
    let made = try server.sql(
      "SELECT count(*) FROM pg_catalog.pg_attribute WHERE attrelid = 'shop_orders'::regclass "
        + "AND attname = 'voids'", database: database)
    #expect(made.hasPrefix("1"))
  }
}
