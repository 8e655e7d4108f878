import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import shop

/// `orders --sku`, `summary --sku` and `summary --csv` through the root, in-process, against
/// what the test works out from the orders it placed.
struct OwnerQuestionsTests {
  /// Forty orders of a fixed seed's SKUs at days apart, a few of them voided.
  func prepared() throws -> (RootHarness, String, [(number: Int, skus: [String], voided: Bool)]) {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let catalog = try shop.folder.write("c.csv", "pen,30\nlamp,190\nink,7\ndesk,250\n")
    var random = SplitMix(seed: 21)
    var placed: [(number: Int, skus: [String], voided: Bool)] = []
    for index in 0..<40 {
      let skus = ["pen", "lamp", "ink", "desk"].filter { _ in random.next() % 2 == 0 }
      let items = (skus.isEmpty ? ["ink"] : skus).map { "\($0)=\(random.next() % 3 + 1)" }
      let run = try shop.run(["place", "--orders", orders, "--catalog", catalog] + items)
      #expect(run.status == 0, "\(run)")
      placed.append((1001 + placed.count, items.map { String($0.prefix { $0 != "=" }) }, false))
      // Now and then an earlier order (never a void, which holds no SKU) is voided.
      if index % 7 == 3,
        let target = placed.indices.first(where: {
          $0 >= index / 2 && !placed[$0].skus.isEmpty && !placed[$0].voided
        })
      {
        let run = try shop.run("void", "--orders", orders, "\(placed[target].number)")
        #expect(run.status == 0, "\(run)")
        placed[target].voided = true
        placed.append((1001 + placed.count, [], false))
      }
    }
    return (shop, orders, placed)
  }

  @Test func ordersOfOneSKUInEveryForm() throws {
    let (shop, orders, placed) = try prepared()
    for sku in ["pen", "lamp", "ink", "desk", "chair"] {
      let holding = placed.filter { $0.skus.contains(sku) }.map(\.number)
      func numbers(_ arguments: String...) throws -> [Int] {
        let run = try shop.run(["orders", "--orders", orders, "--sku", sku] + arguments)
        #expect(run.status == 0, "\(run)")
        return run.stdout.split(separator: "\n").compactMap { Int($0.prefix { $0 != " " }) }
      }
      #expect(try numbers() == holding, "\(sku)")
      #expect(try numbers("--last", "3") == Array(holding.suffix(3)), "\(sku)")
      let count = try shop.run("orders", "--orders", orders, "--sku", sku, "--count")
      #expect(count.stdout == "\(holding.count)\n", "\(sku)")
      let json = try shop.run("orders", "--orders", orders, "--sku", sku, "--json")
      #expect(json.stdout.split(separator: "\n").count == holding.count)
      let csv = try shop.run("orders", "--orders", orders, "--sku", sku, "--csv")
      #expect(csv.stdout.split(separator: "\r\n").count == holding.count + 1)
      let text = try shop.run("orders", "--orders", orders, "--sku", sku).stdout
      for order in placed where order.voided && order.skus.contains(sku) {
        #expect(text.contains("\(order.number)  ") && text.contains("voided by"), "\(sku)")
      }
    }
    let ranged = try shop.run(
      "orders", "--orders", orders, "--sku", "pen", "--since", "2026-12-01", "--count")
    #expect(ranged.stdout == "0\n")
  }

  @Test func oneSKUsSumsAreItsLineOfTheSumsBySKU() throws {
    let (shop, orders, _) = try prepared()
    let bySKU = try shop.run("summary", "--orders", orders, "--by", "sku").stdout
    for line in bySKU.split(separator: "\n") {
      let sku = String(line.prefix { $0 != " " })
      let one = try shop.run("summary", "--orders", orders, "--sku", sku)
      #expect(one.stdout == line + "\n")
    }
    let none = try shop.run("summary", "--orders", orders, "--sku", "chair", "--json")
    #expect(none.stdout == #"{"sku":"chair","quantity":0,"revenue":0,"orders":0}"# + "\n")
    #expect(try shop.run("summary", "--sku", "pen", "--by", "day").status == 64)
    #expect(try shop.run("summary", "--sku", "p n").status == 64)
    #expect(try shop.run("orders", "--sku", "pen", "1001").status == 64)
    #expect(try shop.run("orders", "--sku", "pen", "--ref", "x").status == 64)
  }

  @Test func theSummaryAsCSV() throws {
    let (shop, orders, _) = try prepared()
    let text = try shop.run("summary", "--orders", orders).stdout
    let csv = try shop.run("summary", "--orders", orders, "--csv").stdout
    // The same numbers in the same order, as a header and a record.
    let numbers = text.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(
      csv == "orders,voided,total,payable,discount\r\n"
        + numbers.map(String.init).joined(separator: ",") + "\r\n")
    let byDay = try shop.run("summary", "--orders", orders, "--csv", "--by", "day").stdout
    #expect(byDay.hasPrefix("day,orders,voided,total,payable,discount\r\n2026-11-30,"))
    let bySKU = try shop.run("summary", "--orders", orders, "--csv", "--by", "sku").stdout
    #expect(bySKU.hasPrefix("sku,quantity,revenue,orders\r\ndesk,"))
    let empty = try shop.run(
      "summary", "--orders", orders, "--csv", "--by", "day", "--since", "2027-01-01")
    #expect(empty.stdout == "day,orders,voided,total,payable,discount\r\n")
    #expect(try shop.run("summary", "--csv", "--json").status == 64)
  }
}

/// A command's option given before the command says where it goes.
struct OptionPlacementTests {
  @Test(
    arguments: [
      (["--catalog", "F", "catalog"], "option '--catalog' goes after its command", "shop catalog"),
      (["--catalog=F", "catalog"], "option '--catalog' goes after its command", "shop catalog"),
      (
        ["--orders", "x", "orders", "--count"], "'shop orders --orders <path-or-uri> ...'",
        "shop orders"
      ),
      (
        ["-q", "place", "pen=1"],
        "option '-q' goes after its command, not before it: "
          + "'shop place -q ...'", "shop place"
      ),
      (
        ["--quiet", "batch"],
        "option '--quiet' goes after its command, not before it: "
          + "'shop batch --quiet ...' (also an option of 'place', 'void')", "shop batch"
      ),
      (["--json"], "'shop place --json ...'", "shop <command>"),
    ] as [([String], String, String)])
  func anOptionBeforeItsCommandSaysWhereItGoes(arguments: [String], says: String, usage: String)
    throws
  {
    let shop = try RootHarness()
    let run = try shop.run(arguments)
    #expect(run.status == 64 && run.stdout.isEmpty, "\(run)")
    #expect(run.stderr.contains(says) && run.stderr.contains("Usage: \(usage)"), "\(run)")
  }

  @Test func anOptionOfNoCommandIsStillUnknown() throws {
    let run = try RootHarness().run("--bogus", "catalog")
    #expect(run.status == 64 && run.stderr.hasPrefix("Error: unknown option '--bogus'"))
  }
}
