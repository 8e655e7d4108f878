import Foundation
import ShopAdapters
import ShopTestSupport
import Testing

/// A read command and a writer's lock on the orders file: it waits at most `SHOP_TIMEOUT`
/// seconds (default 30), then ends with 75 and says who holds the lock, on stderr only; every
/// read form does the same. The lock is held here by the test itself, as a stopped `shop`
/// would hold it (ShopProcessTests/StoppedWriterTests stops a real one).
@Suite(.serialized)
struct ReadWaitTests {
  /// Every form that reads the file: listings in each format, counts, numbers, refs, ranges,
  /// summaries.
  static let forms: [[String]] = [
    ["orders"], ["orders", "--count"], ["orders", "--last", "1"], ["orders", "1001"],
    ["orders", "1002", "1003"], ["orders", "--ref", "w-2"], ["orders", "--ref", "nope"],
    ["orders", "--json"], ["orders", "--csv"], ["orders", "--since", "2026-11-30"],
    ["orders", "--since", "2026-11-30", "--until", "2026-12-01", "--count"],
    ["orders", "--sku", "pen"], ["orders", "--last", "2", "--json"], ["summary"],
    ["summary", "--by", "day"], ["summary", "--by", "sku", "--csv"], ["summary", "--json"],
    ["summary", "--since", "2026-11-30"],
  ]

  /// Holds an exclusive `flock` on `path` until `body` returns, as a writer does.
  static func holdingWriteLock<T>(on path: String, _ body: () throws -> T) throws -> T {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    try #require(flock(descriptor, LOCK_EX) == 0)
    return try body()
  }

  @Test func everyReadFormGivesUpAtOnceWith75AndNamesTheHolderOnStderrOnly() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    let placed = try harness.run(
      ["batch", "-q", "--orders", orders], input: "@w-1 pen=1\n@w-2 pen=2\n@w-3 lamp=1\n")
    #expect(placed.status == 0, "\(placed)")
    let before = try Data(contentsOf: URL(fileURLWithPath: orders))
    let expected = try ReadWaitTests.forms.map { form in
      try harness.run(form + ["--orders", orders])
    }
    try ReadWaitTests.holdingWriteLock(on: orders) {
      for form in ReadWaitTests.forms {
        let run = try harness.run(form + ["--orders", orders], environment: ["SHOP_TIMEOUT": "0"])
        #expect(run.status == 75, "\(form): \(run)")
        // Nothing of the file on stdout (a CSV header at most), and never the message.
        #expect(run.stdout.split(separator: "\n").count <= 1, "\(form): \(run)")
        #expect(!run.stdout.contains("1001") && !run.stdout.contains("lock"), "\(form): \(run)")
        #expect(
          run.stderr
            == "Error: '\(orders)' is being written: another process (pid \(getpid())"
            + "\(ReadWaitTests.command)) holds its write lock (SHOP_TIMEOUT=0: no wait); "
            + "nothing was read. Run this again once it is done, or wait longer with "
            + "SHOP_TIMEOUT=SECONDS\n", "\(form): \(run)")
      }
      // A writer in the same command never gives up: `place` waits, which this test can't
      // let it do; its reads inside a write are the writer's (FileOrders.isWriting).
    }
    // Let go, every form reads again exactly as before, and nothing was written.
    for (form, before) in zip(ReadWaitTests.forms, expected) {
      let run = try harness.run(form + ["--orders", orders], environment: ["SHOP_TIMEOUT": "0"])
      #expect(run.status == before.status && run.stdout == before.stdout, "\(form): \(run)")
      #expect(run.stderr == before.stderr, "\(form): \(run)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: orders)) == before)
  }

  /// ", NAME" when /proc names this process (Linux), else nothing.
  static var command: String {
    guard let name = try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8) else {
      return ""
    }
    return ", " + name.prefix { $0 != "\n" }
  }

  @Test func aReaderThatWaitsSaysSoOnceThenGivesUpAfterItsBound() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    _ = try harness.run(["place", "-q", "--orders", orders, "pen=1"])
    let run = try ReadWaitTests.holdingWriteLock(on: orders) {
      // Two numbers, two reads: told once.
      try harness.run(
        ["orders", "1001", "1002", "--orders", orders], environment: ["SHOP_TIMEOUT": "2"])
    }
    #expect(run.status == 75, "\(run)")
    #expect(run.stdout.isEmpty, "\(run)")
    let lines = run.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(run)")
    #expect(
      lines.first
        == "Note: waiting for '\(orders)': another process (pid \(getpid())"
        + "\(ReadWaitTests.command)) holds its write lock; giving up after 2 s (SHOP_TIMEOUT)",
      "\(run)")
    #expect(lines.last?.contains("(waited 2 s, SHOP_TIMEOUT); nothing was read.") == true)
  }

  @Test func aBoundThatIsNotWholeSecondsFromZeroToADayIsAUsageError() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    _ = try harness.run(["place", "-q", "--orders", orders, "pen=1"])
    for value in ["-1", "1.5", "86401", "abc", " 5", "5 ", "+5", "0x10", "999999999999999999999"] {
      for form in [["orders"], ["summary"], ["orders", "--count"]] {
        let run = try harness.run(
          form + ["--orders", orders], environment: ["SHOP_TIMEOUT": value])
        #expect(run.status == 64, "\(value) \(form): \(run)")
        #expect(run.stdout.isEmpty)
        #expect(
          run.stderr.hasPrefix("Error: SHOP_TIMEOUT is '\(value)': it must be a whole number "),
          "\(run)")
      }
      // Writers and other stores don't read it.
      #expect(
        try harness.run(
          ["place", "-q", "--orders", orders, "pen=1"],
          environment: [
            "SHOP_TIMEOUT": value
          ]
        ).status == 0)
    }
    for value in ["0", "1", "30", "86400", "007", "000000086400", ""] {
      let run = try harness.run(
        ["orders", "--count", "--orders", orders], environment: ["SHOP_TIMEOUT": value])
      #expect(run.status == 0, "\(value): \(run)")
    }
  }

  @Test func explainSaysHowLongAFileReaderWaits() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    let plain = try harness.run("orders", "--explain", "--orders", orders)
    #expect(
      plain.stdout.contains(
        "\nwait:    at most 30 s for a writer's lock, then 75 (default; $SHOP_TIMEOUT for another)\n"
      ), "\(plain)")
    let chosen = try harness.run(
      ["summary", "--explain", "--orders", orders], environment: ["SHOP_TIMEOUT": "5"])
    #expect(
      chosen.stdout.contains(
        "\nwait:    at most 5 s for a writer's lock, then 75 (from $SHOP_TIMEOUT)\n"),
      "\(chosen)")
    let bad = try harness.run(
      ["orders", "--explain", "--orders", orders], environment: ["SHOP_TIMEOUT": "soon"])
    #expect(bad.status == 0)
    #expect(
      bad.stdout.contains("\nwait:    none: the command would stop with 64: SHOP_TIMEOUT is "),
      "\(bad)")
    let place = try harness.run("place", "--explain", "--orders", orders, "pen=1")
    #expect(!place.stdout.contains("wait:"), "\(place)")
    let memory = try harness.run("orders", "--explain", "--memory")
    #expect(!memory.stdout.contains("wait:"), "\(memory)")
  }
}
