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

  /// A CSV listing that stops before its first order prints nothing, not a lone header; one
  /// that ends complete with no order prints the header; one that stops after some orders
  /// keeps its header and those orders.
  @Test func aCSVListingThatFailsBeforeItsFirstOrderPrintsNoHeader() throws {
    let shop = try RootHarness()
    let header = "number,placedAt,items,total,payable,ref,voids,voidedBy"
    let folder = shop.folder.file("a-folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let broken = try shop.folder.write("broken.jsonl", "{oops}\n")
    for (orders, status) in [
      (folder, 66), (broken, 65), ("postgresql://h/db?shop_timeout=abc", 64),
    ] {
      let run = try shop.run("orders", "--csv", "--orders", orders)
      #expect(run.status == Int32(status) && run.stdout == "", "\(orders): \(run)")
      #expect(run.stderr.hasPrefix("Error: "), "\(orders): \(run)")
    }
    let empty = try shop.run("orders", "--csv", "--orders", shop.folder.file("none.jsonl"))
    #expect(empty.status == 0 && empty.stdout.hasPrefix(header), "\(empty)")
    let orders = shop.folder.file("o.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    let good = try String(contentsOfFile: orders, encoding: .utf8)
    try (good + "{oops}\n").write(toFile: orders, atomically: false, encoding: .utf8)
    let partial = try shop.run("orders", "--csv", "--orders", orders)
    #expect(partial.status == 65 && partial.stdout.hasPrefix(header), "\(partial)")
    #expect(partial.stdout.contains("\n1001,"), "\(partial)")
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

/// The forms of `shop orders` beyond the full listing, and what `--json` prints of lines
/// another tool wrote.
struct OrderFormsTests {
  /// A sandbox whose orders file holds `count` orders, placed by a quiet batch.
  func shop(withOrders count: Int) throws -> (RootHarness, String) {
    let shop = try RootHarness()
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

  static let line =
    #"{"number":1001,"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"payable":30,"#
    + #""placedAt":"2026-11-30T06:06:43Z"}"#

  @Test func jsonListsALineWithACRInShopsOwnLayout() throws {
    let shop = try RootHarness()
    let orders = try shop.folder.write(
      "o.jsonl",
      OrderFormsTests.line + "\r\n"
        + OrderFormsTests.line.replacingOccurrences(of: "1001", with: "1002") + "\r\n")
    let expected =
      OrderFormsTests.line + "\n"
      + OrderFormsTests.line.replacingOccurrences(of: "1001", with: "1002") + "\n"
    let all = try shop.run("orders", "--json", "--orders", orders)
    #expect(all.status == 0 && all.stdout == expected, "\(all)")
    let last = try shop.run("orders", "--json", "--last", "1", "--orders", orders)
    #expect(last.stdout == expected.split(separator: "\n")[1] + "\n")
    let one = try shop.run("orders", "--json", "--orders", orders, "1001")
    #expect(one.stdout == OrderFormsTests.line + "\n")
    // Spaces and an extra key are written anew too: --json is always shop's own layout.
    let spaced = try shop.folder.write(
      "s.jsonl",
      OrderFormsTests.line.replacingOccurrences(of: ",\"total\"", with: ", \"x\": 1, \"total\"")
        + "\n")
    #expect(
      try shop.run("orders", "--json", "--orders", spaced).stdout == OrderFormsTests.line + "\n")
  }
}
