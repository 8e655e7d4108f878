import Foundation
import ShopTestSupport
import Testing

/// `shop void` in real processes on one file: voids racing voids and places, and kill -9
/// landing among a void's write, sync and report.
@Suite(.serialized)
struct VoidProcessTests {
  /// Every complete line of an orders file, as (number, the order it voids); a torn last line
  /// is left out.
  static func records(_ path: String) throws -> [(number: Int, voids: Int?)] {
    let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()
    return try lines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let number = try #require(object?["number"] as? Int, "not a record: \(line)")
      return (number, object?["voids"] as? Int)
    }
  }

  /// Four processes void orders 1001-1040 (each all of them, in its own order) while four
  /// place more: the numbering has no gap or repeat, every order of the forty is voided
  /// exactly once, and every void command ends 0 (voided, or already void).
  @Test func eightProcessesVoidingAndPlacingKeepOneNumberingAndOneVoidAnOrder() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let seed = (1...40).map { "pen=\($0 % 5 + 1)" }.joined(separator: "\n") + "\n"
    _ = try shop.run(["batch", "-q", "--orders", orders], input: seed)
    var processes = Shop.placingLoops(4, count: 40, into: orders)
    for worker in 1...4 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      // Each worker its own order of the forty: from the start, the end, odd then even.
      let order = [
        "seq 1001 1040", "seq 1040 -1 1001", "seq 1001 2 1040; seq 1002 2 1040",
        "seq 1002 2 1040; seq 1001 2 1040",
      ][worker - 1]
      process.arguments = [
        "-c", #"for i in $(\#(order)); do "$0" void -q --orders "$1" "$i" || exit 1; done"#,
        Shop.binary, orders,
      ]
      processes.append(process)
    }
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "a command failed")
    let records = try Self.records(orders)
    #expect(records.map(\.number) == Array(1001...(1000 + records.count)))
    #expect(records.count == 40 + 160 + 40)
    let voided = records.compactMap(\.voids)
    #expect(voided.sorted() == Array(1001...1040), "each of the forty voided once")
    let summary = try shop.run("summary", "--orders", orders)
    #expect(summary.stdout.hasPrefix("orders 200  voided 40  total "), "\(summary)")
  }

  /// kill -9 at random moments of many voids: every void reported is saved, no order is
  /// voided twice, the numbering keeps no gap, and the next commands go on from the file.
  @Test func killNineAmongVoidsLosesNothingReportedAndVoidsNothingTwice() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let seed = (1...60).map { "pen=\($0 % 5 + 1)" }.joined(separator: "\n") + "\n"
    _ = try shop.run(["batch", "-q", "--orders", orders], input: seed)
    var random = SplitMix(seed: 34)
    var reported: [Int] = []
    var killed = 0
    for attempt in 0..<120 {
      // Every twelfth void is let finish, each on an order of its own (1051-1060) that no
      // killed one aims at, so some voids are reported however slow the machine is.
      let spared = attempt % 12 == 11
      let number = spared ? 1051 + attempt / 12 : 1001 + Int(random.next() % 50)
      let started = try shop.start(
        ["void", "--orders", orders, "\(number)"], input: nil)
      if !spared {
        usleep(useconds_t(random.next() % 4000))
        kill(started.process.processIdentifier, SIGKILL)
      }
      let run = started.finish()
      if spared { #expect(run.status == 0, "\(run)") }
      if run.status == 128 + SIGKILL { killed += 1 }
      // `order N void (void M)`: the void M was reported, so it must be saved.
      let words = run.stdout.split(separator: " ")
      if words.count == 5, words[2] == "void", let void = Int(words[4].dropLast(2)) {
        reported.append(void)
      }
    }
    let records = try Self.records(orders)
    #expect(records.map(\.number) == Array(1001...(1000 + records.count)))
    let voids = Dictionary(
      records.compactMap { record in record.voids.map { (record.number, $0) } }
    ) { a, _ in a }
    #expect(Set(reported).isSubset(of: Set(voids.keys)), "a reported void is missing")
    #expect(Set(voids.values).count == voids.count, "an order voided twice")
    #expect(killed > 0, "no void was killed")
    #expect(reported.count >= 10, "the ten spared voids are reported: \(reported)")
    // The next commands read and write on from the file as the kills left it.
    let listed = try shop.run("orders", "--orders", orders)
    #expect(listed.status == 0, "\(listed)")
    let next = try shop.run("place", "--orders", orders, "pen=1")
    #expect(next.status == 0, "\(next)")
    let again = try shop.run("void", "--orders", orders, "1001")
    #expect(again.status == 0, "\(again)")
  }
}
