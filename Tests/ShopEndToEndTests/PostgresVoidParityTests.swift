import Foundation
import ShopCore
import ShopTestSupport
import Testing

/// The same seeded sequence of places, batches and voids run through the root on an orders
/// file and on a PostgreSQL table, with the same clock: every command answers alike, and then
/// every reader (text, `--json`, `--csv`, `--count`, `--last`, numbers, refs, ranges, `--sku`,
/// and `summary` in every grouping and form) prints the same from both.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresVoidParityTests {
  /// `seconds` as `--since` takes it, in RFC 3339's `Z` form.
  static func text(_ seconds: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  @Test func everyReaderPrintsTheSameFromAFileAndATableAfterTheSameCommands() throws {
    let server = try PostgresServer.shared.get()
    let uri = server.tcpURI(try server.makeDatabase())
    let root = try RootHarness()
    let file = root.folder.file("orders.jsonl")
    var random = SplitMix(seed: 0x34_d1ff)
    var compared = 0
    /// Runs `command` on both stores: the same status and standard output.
    func both(_ command: [String], input: String? = nil) throws {
      let onFile = try root.run([command[0], "--orders", file] + command.dropFirst(), input: input)
      let onTable = try root.run([command[0], "--orders", uri] + command.dropFirst(), input: input)
      #expect(onTable.status == onFile.status, "\(command): \(onTable.stderr)")
      #expect(
        onTable.stdout == onFile.stdout,
        "\(command)\nfile:\n\(onFile.stdout)\ntable:\n\(onTable.stdout)")
      compared += 1
    }
    func items() -> [String] {
      let pen = "pen=\(random.next() % 5 + 1)"
      return random.next() % 3 == 0 ? [pen, "lamp=\(random.next() % 2 + 1)"] : [pen]
    }
    var times: [Int64] = []
    var records = 0
    for step in 0..<220 {
      // Forward by nothing, hours, or days: several days, and records sharing a second.
      root.now = Timestamp(
        secondsSince1970: root.now.secondsSince1970
          + [0, 0, 3_600, 30_000, 90_000][
            Int(random.next() % 5)])
      times.append(root.now.secondsSince1970)
      let json = random.next() % 5 == 0 ? ["--json"] : []
      switch random.next() % 20 {
      case 0..<8:
        let ref = random.next() % 3 == 0 ? ["--ref", "o-\(random.next() % 12)"] : []
        try both(["place"] + json + ref + items())
        records += 1
      case 8..<10:
        // A batch of a few lines, some with refs; once, one large enough to go by COPY.
        let count = step == 110 ? 70 : Int(random.next() % 4) + 1
        let lines = (0..<count).map { _ in
          (random.next() % 3 == 0 ? "@b-\(random.next() % 20) " : "")
            + items().joined(separator: " ")
        }
        try both(["batch"] + json, input: lines.joined(separator: "\n") + "\n")
        records += count
      default:
        // A void of any number: an order, one already void, a void, none; under a ref at times.
        let number = 995 + Int(random.next() % UInt64(records + 12))
        let ref = random.next() % 3 == 0 ? ["--ref", "v-\(random.next() % 8)"] : []
        try both(["void"] + json + ref + [String(number)])
        records += 1
      }
    }
    // An order voided, then placed again under its ref, plain, by batch and with other
    // items: the order as stored on both (commands.md's JSON table), no void's mark.
    try both(["place", "--json", "--ref", "again-1", "pen=1"])
    let placed = try root.run("orders", "--count", "--orders", file).stdout
    try both(["void", String(1000 + (try #require(Int(placed.dropLast()))))])
    try both(["place", "--json", "--ref", "again-1", "pen=1"])
    try both(["place", "--ref", "again-1", "pen=1"])
    try both(["batch", "--json"], input: "@again-1 pen=1\n@again-1 pen=3\npen=1\n")
    try both(["place", "--json", "--ref", "again-1", "pen=2"])
    let again = try root.run(
      "place", "--json", "--ref", "again-1", "pen=1", "--orders", uri)
    #expect(again.stdout.hasSuffix(#","alreadyPlaced":true}"# + "\n"), "\(again)")
    #expect(!again.stdout.contains("voidedBy"), "\(again)")
    let last = try root.run("orders", "--count", "--orders", file).stdout
    let count = try #require(Int(last.dropLast()))
    #expect(count > 100, "\(count) records")
    var readers: [[String]] = [
      ["orders"], ["orders", "--json"], ["orders", "--csv"], ["orders", "--count"],
      ["orders", "--last", "9"], ["orders", "--last", "9", "--json"],
      ["orders", "--last", "9", "--csv"], ["orders", "--sku", "lamp"],
      ["orders", "--sku", "pen", "--csv"], ["orders", "--sku", "lamp", "--count"],
      ["orders", "--sku", "lamp", "--last", "4", "--json"], ["orders", "--sku", "ink"],
      ["summary"], ["summary", "--json"], ["summary", "--csv"], ["summary", "--by", "day"],
      ["summary", "--by", "sku"], ["summary", "--by", "day", "--json"],
      ["summary", "--by", "day", "--csv"], ["summary", "--by", "sku", "--json"],
      ["summary", "--by", "sku", "--csv"], ["summary", "--sku", "pen"],
      ["summary", "--sku", "lamp", "--json"], ["summary", "--sku", "ink"],
      ["orders", "--since", "today"], ["summary", "--since", "yesterday", "--by", "day"],
      ["orders", "--since", "yesterday", "--until", "today", "--count"],
    ]
    for number in 995...(1000 + count + 3) where number % 3 == 0 || number > 1000 + count - 5 {
      readers.append(["orders", String(number)])
      readers.append(["orders", "--json", String(number)])
    }
    readers.append(["orders"] + (1001...1010).map(String.init))
    for index in 0..<20 {
      for prefix in ["o", "b", "v"] where index < 12 {
        readers.append(["orders", "--ref", "\(prefix)-\(index)"])
        readers.append(["orders", "--ref", "\(prefix)-\(index)", "--json"])
      }
    }
    for _ in 0..<25 {
      let since = times[Int(random.next() % UInt64(times.count))] + Int64(random.next() % 3) - 1
      let until = since + Int64(random.next() % 400_000)
      let range = ["--since", Self.text(since), "--until", Self.text(until)]
      readers += [
        ["orders"] + range, ["orders", "--count"] + range, ["orders", "--csv"] + range,
        ["orders", "--last", "3"] + range, ["orders", "--sku", "lamp"] + range,
        ["summary"] + range, ["summary", "--by", "day"] + range,
        ["summary", "--by", "sku"] + range,
        ["summary", "--sku", "pen", "--json"] + range, ["summary", "--csv"] + range,
      ]
    }
    for reader in readers { try both(reader) }
    #expect(compared > 600, "\(compared) commands compared")
    // The sequence voided orders, refused voids and answered reruns, on both.
    let summary = try root.run("summary", "--orders", uri).stdout
    #expect(!summary.contains("voided 0 "), "\(summary)")
  }
}
