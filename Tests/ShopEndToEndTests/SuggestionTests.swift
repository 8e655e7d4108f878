import Foundation
import ShopTestSupport
import Testing

/// `no pne (did you mean pen?)`, from whichever catalog the command uses, in every report.
struct SKUSuggestionTests {
  @Test func aMistypedSKUGetsTheNearestOfTheBuiltInCatalogAndNothingIsSaved() throws {
    let shop = try RootHarness()
    let run = try shop.run("place", "pne=1", "chair=1", "lmap=2")
    #expect(run.stdout == "no pne (did you mean pen?), chair, lmap (did you mean lamp?)\n")
    #expect(run.stderr == "" && run.status == 1)
    #expect(!FileManager.default.fileExists(atPath: shop.defaultOrders))
    // The seed's wording stays when nothing is close.
    #expect(try shop.run("place", "chair=1").stdout == "no chair\n")
    let json = try shop.run("place", "--json", "pne=1", "chair=1")
    #expect(json.stdout == #"{"unknown":["pne","chair"],"suggestions":{"pne":"pen"}}"# + "\n")
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["unknown"] as? [String] == ["pne", "chair"])
    let quiet = try shop.run("place", "-q", "pne=1")
    #expect(quiet.stdout == "" && quiet.stderr == "" && quiet.status == 1)
  }

  /// A SKU of the built-in catalog is no suggestion when another catalog is in use.
  @Test func theSuggestionComesFromTheCatalogInUse() throws {
    let shop = try RootHarness()
    let desks = try shop.folder.write("desks.csv", "sku,price\ndesk,5\ndeskmat,2\n")
    let flag = try shop.run("place", "--catalog", desks, "dsk=1", "pne=1")
    #expect(flag.stdout == "no dsk (did you mean desk?), pne\n", "\(flag)")
    let variable = try shop.run(["place", "deskmta=1"], environment: ["SHOP_CATALOG": desks])
    #expect(variable.stdout == "no deskmta (did you mean deskmat?)\n", "\(variable)")
  }

  @Test func everyBatchLineGetsItsSuggestions() throws {
    let shop = try RootHarness()
    let input = "pne=1\npen=1\n\nchair=1 lmap=1\npne=2\n"
    let loud = try shop.run(["batch"], input: input)
    #expect(
      loud.stdout == """
        line 1: no pne (did you mean pen?)
        order 1001 for 30
        line 4: no chair, lmap (did you mean lamp?)
        line 5: no pne (did you mean pen?)

        """, "\(loud)")
    #expect(loud.status == 1)
    let quiet = try shop.run(["batch", "-q"], input: input)
    #expect(quiet.stdout == "")
    #expect(
      quiet.stderr.split(separator: "\n") == [
        "line 1: no pne (did you mean pen?)", "line 4: no chair, lmap (did you mean lamp?)",
        "line 5: no pne (did you mean pen?)",
      ])
    let json = try shop.run(["batch", "--json", "--memory"], input: input)
    let lines = json.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines.first == #"{"line":1,"unknown":["pne"],"suggestions":{"pne":"pen"}}"#)
    #expect(
      lines.dropFirst(2) == [
        #"{"line":4,"unknown":["chair","lmap"],"suggestions":{"lmap":"lamp"}}"#,
        #"{"line":5,"unknown":["pne"],"suggestions":{"pne":"pen"}}"#,
      ])
    #expect(try shop.run("orders", "--count").stdout == "2\n")
  }
}
