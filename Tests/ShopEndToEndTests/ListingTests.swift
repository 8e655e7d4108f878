import Foundation
import Testing

/// `shop orders` and `shop catalog`.
struct ListingTests {
  @Test func ordersListOldestFirstInThreeForms() throws {
    let shop = try RootHarness()
    try shop.run("place", "pen=2", "lamp=1")
    try shop.run("place", "pen=1")
    let text = try shop.run("orders")
    let lines = text.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("1001  20"))
    #expect(lines[0].hasSuffix("Z  pen=2 lamp=1  total 250  payable 225"))
    #expect(lines[1].hasSuffix("Z  pen=1  total 30  payable 30"))
    let json = try shop.run("orders", "--json")
    #expect(json.stdout == (try String(contentsOfFile: shop.defaultOrders, encoding: .utf8)))
    #expect(try shop.run("orders", "--count").stdout == "2\n")
  }

  @Test func noOrdersYetIsAnEmptyList() throws {
    let shop = try RootHarness()
    let run = try shop.run("orders")
    #expect(run.status == 0 && run.stdout == "" && run.stderr == "")
    #expect(try shop.run("orders", "--count").stdout == "0\n")
  }

  @Test func aCorruptLineStopsTheListingWith65AtItsLine() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    let good = try String(contentsOfFile: orders, encoding: .utf8)
    try (good + "{oops}\n" + good).write(toFile: orders, atomically: false, encoding: .utf8)
    let run = try shop.run("orders", "--orders", orders)
    #expect(run.status == 65)
    #expect(run.stderr == "Error: \(orders):2: not an order: not a JSON object\n")
    #expect(run.stdout.hasPrefix("1001  "))
  }

  @Test func theCatalogIsSortedBySKU() throws {
    let shop = try RootHarness()
    #expect(try shop.run("catalog").stdout == "lamp 190\npen 30\n")
    #expect(
      try shop.run("catalog", "--json").stdout == #"{"sku":"lamp","price":190}"# + "\n"
        + #"{"sku":"pen","price":30}"# + "\n")
    let file = try shop.folder.write("c.csv", "zeta,1\nalpha,2\nBeta,3\n")
    #expect(try shop.run("catalog", "--catalog", file).stdout == "Beta 3\nalpha 2\nzeta 1\n")
    #expect(
      try shop.run(["catalog"], environment: ["SHOP_CATALOG": file]).stdout
        == "Beta 3\nalpha 2\nzeta 1\n")
  }
}

/// The forms of `shop orders` beyond the full listing, a reader that goes away, and memory
/// that does not grow with the file.
struct OrderFormsTests {
  /// A sandbox whose orders file holds `count` orders, placed by a quiet batch.
  func shop(withOrders count: Int) throws -> (Shop, String) {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let input = (0..<count).map { "pen=\($0 % 9 + 1)" }.joined(separator: "\n") + "\n"
    let run = try shop.run(["batch", "-q", "--orders", orders], input: input)
    #expect(run.status == 0, "\(run)")
    return (shop, orders)
  }

  @Test func chosenNumbersPrintInTheGivenOrderAndAMissingOneIsStatus1() throws {
    let (shop, orders) = try shop(withOrders: 5)
    let stored = try shop.lines(of: orders).map(String.init)
    let text = try shop.run("orders", "--orders", orders, "1003", "1001", "1009", "1002")
    #expect(text.status == 1)
    let lines = text.stdout.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix("1003  ") && lines[0].hasSuffix("pen=3  total 90  payable 90"))
    #expect(lines[1].hasPrefix("1001  ") && lines[3].hasPrefix("1002  "))
    #expect(lines[2] == "no order 1009")
    let json = try shop.run("orders", "--json", "--orders", orders, "1005", "999")
    #expect(json.status == 1)
    #expect(json.stdout == stored[4] + "\n" + #"{"missing":999}"# + "\n")
    #expect(try shop.run("orders", "--orders", orders, "1004").status == 0)
  }

  @Test func theLastOnesComeOldestFirst() throws {
    let (shop, orders) = try shop(withOrders: 5)
    let stored = try shop.lines(of: orders).map(String.init)
    let last = try shop.run("orders", "--orders", orders, "--last", "2")
    #expect(last.status == 0)
    #expect(last.stdout.split(separator: "\n").map { $0.prefix(4) } == ["1004", "1005"])
    let all = try shop.run("orders", "--json", "--orders", orders, "--last", "50")
    #expect(all.stdout == stored.map { $0 + "\n" }.joined())
    let none = try shop.run("orders", "--orders", shop.folder.file("missing.jsonl"), "--last", "3")
    #expect(none.status == 0 && none.stdout == "")
  }

  @Test(arguments: [
    ("1001 1003", 2, "order 1003 follows order 1001: numbers must go up by one"),
    ("1001 1002 1002", 3, "order 1002 follows order 1002: numbers must go up by one"),
  ])
  func aGapOrARepeatStopsTheListingWith65(numbers: String, line: Int, reason: String) throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let lines = numbers.split(separator: " ").map { number in
      #"{"number":\#(number),"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"#
        + #""payable":30,"placedAt":"2026-11-30T06:06:43Z"}"#
    }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: orders, atomically: false, encoding: .utf8)
    for json in [false, true] {
      let run = try shop.run(["orders", "--orders", orders] + (json ? ["--json"] : []))
      #expect(run.status == 65)
      #expect(run.stderr == "Error: \(orders):\(line): \(reason)\n")
      #expect(run.stdout.split(separator: "\n").count == line - 1, "printed before it stays")
    }
  }

  @Test func aReaderThatGoesAwayEndsAListingQuietly() throws {
    let (shop, orders) = try shop(withOrders: 20_000)
    for form in ["", "--json", "--last 10000"] {
      let run = try shop.shell(
        #"{ "$SHOP" orders \#(form) --orders "$0"; echo "status $?" >&2; } | head -1"#
          .replacingOccurrences(of: "\"$0\"", with: "'\(orders)'"))
      #expect(run.stdout.split(separator: "\n").count == 1)
      #expect(run.stderr == "status 0\n", "orders \(form)")
    }
    let catalog = (0..<20_000).map { "sku\($0),\($0)" }.joined(separator: "\n")
    let file = try shop.folder.write("big.csv", catalog)
    let listed = try shop.shell(
      #"{ "$SHOP" catalog --catalog '\#(file)'; echo "status $?" >&2; } | head -1"#)
    #expect(listed.stderr == "status 0\n")
  }

  @Test func placingIntoAReaderThatGoesAwayIsStill74() throws {
    let shop = try Shop()
    let input = try shop.folder.write(
      "in.txt", String(repeating: "pen=1\n", count: 50_000))
    let run = try shop.shell(
      #"{ "$SHOP" batch --orders o.jsonl '\#(input)'; echo "status $?" >&2; } | head -1"#)
    #expect(run.stderr.hasSuffix("status 74\n"), "\(run)")
    #expect(run.stderr.contains("cannot write 'standard output': Broken pipe"))
  }

  @Test(.enabled(if: Shop.canMeasureMemory, "needs GNU time on Linux to read a peak"))
  func aListingsMemoryDoesNotGrowWithTheFile() throws {
    let (small, smallOrders) = try shop(withOrders: 2_000)
    let (large, largeOrders) = try shop(withOrders: 100_000)
    for form in [[], ["--json"]] {
      let arguments = ["orders"] + form
      let few = try small.runMeasured(
        (arguments + ["--orders", smallOrders]).map { Array($0.utf8) }, input: [])
      let many = try large.runMeasured(
        (arguments + ["--orders", largeOrders]).map { Array($0.utf8) }, input: [])
      #expect(few.run.status == 0 && many.run.status == 0)
      // 100,000 orders are about 14 MB of JSON: a listing that held them would show it.
      #expect(many.peakKiB - few.peakKiB < 4096, "\(few.peakKiB) KiB, then \(many.peakKiB) KiB")
    }
  }

  @Test(.enabled(if: Shop.canMeasureMemory, "needs GNU time on Linux to read a peak"))
  func aBatchOfShortLinesStaysInBoundedMemory() throws {
    let shop = try Shop()
    var peaks: [Int] = []
    for count in [20_000, 400_000] {
      let input = Array(String(repeating: "pen=1\n", count: count).utf8)
      let run = try shop.runMeasured(
        ["batch", "-q", "--orders", "o\(count).jsonl"].map { Array($0.utf8) }, input: input)
      #expect(run.run.status == 0)
      peaks.append(run.peakKiB)
    }
    // A group is bounded by lines as well as bytes: 400,000 short lines in one 1 MiB group
    // would hold about 200 MiB of orders and encoded lines.
    #expect(peaks[1] - peaks[0] < 16_384, "\(peaks[0]) KiB, then \(peaks[1]) KiB")
    #expect(peaks[1] < 48 * 1024, "\(peaks[1]) KiB")
  }
}
