import Foundation
import ShopTestSupport
import Testing

/// `shop place` and the shared command-line contract, on the built binary.
struct PlaceTests {
  @Test func theFirstCommandOfTheREADME() throws {
    let shop = try RootHarness()
    let first = try shop.run("place", "pen=2", "lamp=1")
    #expect(first.stdout == "order 1001 for 225\n")
    #expect(first.stderr == "")
    #expect(first.status == 0)
    #expect(try shop.run("place", "lamp=1").stdout == "order 1002 for 190\n")
    #expect(try shop.lines(of: shop.defaultOrders).count == 2)
  }

  @Test func unknownSKUsAreNamedOnceInOrderAndNothingIsSaved() throws {
    let shop = try RootHarness()
    let run = try shop.run("place", "chair=1", "pen=1", "desk=2", "chair=3")
    #expect(run.stdout == "no chair, desk\n")
    #expect(run.status == 1)
    #expect(try shop.run("orders", "--count").stdout == "0\n")
  }

  @Test func duplicatesAddUpAndTheDiscountStartsAt200() throws {
    let shop = try RootHarness()
    #expect(try shop.run("place", "pen=1", "pen=1").stdout == "order 1001 for 60\n")
    #expect(
      try shop.run("place", "--", "lamp=1", "pen=0000000000000000000000000001").stdout
        == "order 1002 for 198\n")
  }

  @Test func aSKUGivenTwiceIsHeldToTheMaximumQuantity() throws {
    let shop = try RootHarness()
    let place = try shop.run("place", "pen=500000", "pen=500001")
    #expect(place.status == 64)
    #expect(place.stderr.contains("'pen': quantities add up to 1000001, more than 1000000"))
    let batch = try shop.run(
      ["batch"], input: "pen=500000 pen=500001\nlamp=1 lamp=999999\npen=999999 lamp=1 pen=1\n")
    #expect(
      batch.stdout == """
        line 1: 'pen': quantities add up to 1000001, more than 1000000
        order 1001 for 171000000
        order 1002 for 27000171

        """)
    #expect(batch.status == 1)
    let stored = try shop.lines(of: shop.defaultOrders)
    #expect(stored.count == 2 && stored.allSatisfy { $0.contains(#""quantity":1000000"#) })
  }

  @Test func quietSaysNothingAndStillSaves() throws {
    let shop = try RootHarness()
    let placed = try shop.run("place", "-q", "pen=1")
    #expect(placed.stdout == "" && placed.stderr == "" && placed.status == 0)
    let rejected = try shop.run("place", "pen=1", "--quiet", "chair=1")
    #expect(rejected.stdout == "" && rejected.status == 1)
    #expect(try shop.run("orders", "--count").stdout == "1\n")
  }

  @Test func jsonReportsCarryTheOrder() throws {
    let shop = try RootHarness()
    let placed = try shop.run("place", "--json", "pen=2", "lamp=1")
    let object = try JSONSerialization.jsonObject(with: Data(placed.stdout.utf8)) as? [String: Any]
    #expect(object?["number"] as? Int == 1001)
    #expect(object?["total"] as? Int == 250)
    #expect(object?["payable"] as? Int == 225)
    let rejected = try shop.run("place", "desk=1", "--json", "chair=1")
    #expect(rejected.stdout == #"{"unknown":["desk","chair"]}"# + "\n")
    #expect(rejected.status == 1)
  }

  @Test func memoryKeepsNothingOnDisk() throws {
    let shop = try RootHarness()
    #expect(try shop.run("place", "--memory", "pen=1").stdout == "order 1001 for 30\n")
    #expect(try shop.run("place", "--memory", "pen=1").stdout == "order 1001 for 30\n")
    #expect(!FileManager.default.fileExists(atPath: shop.home + "/.local"))
  }

  @Test func whereTheOrdersGoFlagThenVariableThenXDGThenHome() throws {
    let shop = try RootHarness()
    let flag = shop.folder.file("flag.jsonl")
    let variable = shop.folder.file("variable.jsonl")
    let xdg = shop.folder.file("xdg")
    try shop.run(["place", "--orders", flag, "pen=1"], environment: ["SHOP_ORDERS": variable])
    try shop.run(["place", "--orders=" + flag, "pen=1"])
    try shop.run(["place", "pen=1"], environment: ["SHOP_ORDERS": variable, "XDG_DATA_HOME": xdg])
    try shop.run(["place", "pen=1"], environment: ["XDG_DATA_HOME": xdg])
    try shop.run(["place", "pen=1"], environment: ["XDG_DATA_HOME": "relative/is/ignored"])
    try shop.run(["place", "pen=1"], environment: ["SHOP_ORDERS": "", "XDG_DATA_HOME": ""])
    #expect(try shop.lines(of: flag).count == 2)
    #expect(try shop.lines(of: variable).count == 1)
    #expect(try shop.lines(of: xdg + "/shop/orders.jsonl").count == 1)
    #expect(try shop.lines(of: shop.defaultOrders).count == 2)
    #expect(!FileManager.default.fileExists(atPath: shop.home + "/relative"))
  }

  @Test func noHomeAndNoPathIsAClearError() throws {
    let shop = try RootHarness()
    let run = try shop.run(["place", "pen=1"], environment: ["HOME": ""])
    #expect(run.status == 73)
    #expect(run.stderr.hasPrefix("Error: no place for the orders file"))
  }

  @Test func catalogFromFlagOrVariable() throws {
    let shop = try RootHarness()
    let catalog = try shop.folder.write("prices.csv", "sku,price\nink,7\n-dash,1\n")
    let other = try shop.folder.write("other.csv", "ink,9\n")
    #expect(try shop.run("place", "--catalog", catalog, "ink=2").stdout == "order 1001 for 14\n")
    #expect(
      try shop.run(["place", "ink=2"], environment: ["SHOP_CATALOG": catalog]).stdout
        == "order 1002 for 14\n")
    #expect(
      try shop.run(
        ["place", "--catalog=" + other, "ink=1"], environment: ["SHOP_CATALOG": catalog]
      ).stdout
        == "order 1003 for 9\n")
    #expect(
      try shop.run("place", "--catalog", catalog, "--", "-dash=1").stdout == "order 1004 for 1\n")
    #expect(try shop.run("place", "--catalog", catalog, "pen=1").stdout == "no pen\n")
  }

  /// What a spreadsheet saves as "CSV UTF-8": a byte order mark, then a capitalised header.
  @Test func aSpreadsheetsCatalogIsRead() throws {
    let shop = try RootHarness()
    let catalog = try shop.folder.write("sheet.csv", "\u{FEFF}SKU,Price\r\nink,7\r\n")
    let run = try shop.run("place", "--catalog", catalog, "ink=2")
    #expect(run.stdout == "order 1001 for 14\n" && run.stderr == "", "\(run)")
    #expect(try shop.run("catalog", "--catalog", catalog).stdout == "ink 7\n")
  }

  @Test func aBadCatalogStopsWithItsLineAndSavesNothing() throws {
    let shop = try RootHarness()
    let bad = try shop.folder.write("bad.csv", "sku,price\nink,7\nink,8\n")
    let run = try shop.run("place", "--catalog", bad, "ink=1")
    #expect(run.status == 65)
    #expect(run.stderr == "Error: \(bad):3: 'ink' is already listed on line 2\n")
    #expect(run.stdout == "")
    let missing = try shop.run("place", "--catalog", shop.folder.file("none.csv"), "ink=1")
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("none.csv': No such file or directory"))
    #expect(!FileManager.default.fileExists(atPath: shop.defaultOrders))
  }

  @Test func aTotalTooLargeIsRefusedWithExit65() throws {
    let shop = try RootHarness()
    let catalog = try shop.folder.write("gold.csv", "gold,9223372036854775807\n")
    let run = try shop.run("place", "--catalog", catalog, "gold=2")
    #expect(run.status == 65)
    #expect(run.stderr == "Error: the order's total is too large to compute; nothing was saved\n")
    #expect(run.stdout == "")
    #expect(!FileManager.default.fileExists(atPath: shop.defaultOrders))
  }

  @Test func anOrdersPathThatCanNotBeCreatedIs73() throws {
    let shop = try RootHarness()
    let file = try shop.folder.write("plain", "x")
    let run = try shop.run("place", "--orders", file + "/orders.jsonl", "pen=1")
    #expect(run.status == 73)
    #expect(run.stderr == "Error: cannot create folder '\(file)': Not a directory\n")
    #expect(run.stdout == "")
  }

  @Test func aCorruptLastOrderRefusesWith65AndChangesNothing() throws {
    let shop = try RootHarness()
    let orders = try shop.folder.write("orders.jsonl", "not an order\n")
    let run = try shop.run("place", "--orders", orders, "pen=1")
    #expect(run.status == 65)
    #expect(run.stderr.hasPrefix("Error: \(orders):1: the last order is unreadable"))
    #expect(try shop.folder.read("orders.jsonl") == "not an order\n")
  }
}
