import Foundation
import ShopTestSupport
import Testing

/// A catalog exported from a spreadsheet with more columns than `sku,price`, end to end.
struct CatalogColumnsTests {
  @Test func aSpreadsheetExportWithANameColumnPricesOrdersAndListsAsItsFirstTwo() throws {
    let shop = try RootHarness()
    let catalog = try shop.folder.write(
      "export.csv", "SKU,Price,Name\r\npen,30,\"Pen, blue\"\r\ndesk,500,Desk\r\n")
    let placed = try shop.run("place", "--catalog", catalog, "pen=1", "desk=1")
    #expect(placed.stdout == "order 1001 for 477\n", "\(placed)")
    let listed = try shop.run("catalog", "--catalog", catalog, "--json")
    #expect(
      listed.stdout == #"{"sku":"desk","price":500}"# + "\n" + #"{"sku":"pen","price":30}"# + "\n")
    #expect(
      try shop.run("place", "--catalog", catalog, "dsek=1").stdout
        == "no dsek (did you mean desk?)\n")
  }

  /// A line short of the header's columns stops the command before anything is placed.
  @Test func aLineWithoutTheHeadersColumnsIs65AndPlacesNothing() throws {
    let shop = try RootHarness()
    let catalog = try shop.folder.write("export.csv", "sku,price,name\npen,30,Pen\nlamp,190\n")
    let run = try shop.run(["batch", "--catalog", catalog], input: "pen=1\n")
    #expect(run.status == 65)
    #expect(
      run.stderr == "Error: \(catalog):3: expected 3 fields, as the header on line 1 has, found 2\n"
    )
    #expect(run.stdout == "")
    #expect(!FileManager.default.fileExists(atPath: shop.defaultOrders))
  }

  /// The example catalog of docs/commands.md is one `shop` reads.
  @Test func theReadmesExampleCatalogLoads() throws {
    let readme = try SourceTree.document("docs/commands.md")
    let example = try #require(
      readme.split(separator: "```csv\n").dropFirst().first?.split(separator: "```").first)
    let shop = try RootHarness()
    let catalog = try shop.folder.write("readme.csv", String(example))
    let run = try shop.run("catalog", "--catalog", catalog)
    #expect(run.stdout == "ink-black 7\nlamp 190\npen 30\n", "\(run)")
  }
}
