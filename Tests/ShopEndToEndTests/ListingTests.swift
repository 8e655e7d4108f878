import Foundation
import Testing

/// `shop orders` and `shop catalog`.
struct ListingTests {
  @Test func ordersListOldestFirstInThreeForms() throws {
    let shop = try Shop()
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
    let shop = try Shop()
    let run = try shop.run("orders")
    #expect(run.status == 0 && run.stdout == "" && run.stderr == "")
    #expect(try shop.run("orders", "--count").stdout == "0\n")
  }

  @Test func aCorruptLineStopsTheListingWith65AtItsLine() throws {
    let shop = try Shop()
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
    let shop = try Shop()
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
