import Foundation
import ShopTestSupport
import Testing

/// `shop batch`, through the root in-process.
struct BatchTests {
  static let input = "pen=2 lamp=1\n\n# a comment\nchair=1 pen=1 desk=1\npen=0\nlamp=1\tpen=1\n"
  static let reports = """
    order 1001 for 225
    line 4: no chair, desk
    line 5: 'pen=0': quantity must be a whole number from 1 to 1000000
    order 1002 for 198

    """

  @Test func fileDashAndStandardInputReadTheSame() throws {
    let shop = try RootHarness()
    let file = try shop.folder.write("batch.txt", BatchTests.input)
    for arguments in [
      ["batch", "--memory", file], ["batch", "--memory", "-"], ["batch", "--memory"],
    ] {
      let run = try shop.run(arguments, input: BatchTests.input)
      #expect(run.stdout == BatchTests.reports, "\(arguments)")
      #expect(run.stderr == "")
      #expect(run.status == 1)
    }
  }

  @Test func everyOrderIsSavedAndAllPlacedIsExitZero() throws {
    let shop = try RootHarness()
    let run = try shop.run(["batch"], input: "pen=1\nlamp=1\n# done\n")
    #expect(run.stdout == "order 1001 for 30\norder 1002 for 190\n")
    #expect(run.status == 0)
    #expect(try shop.run("place", "pen=1").stdout == "order 1003 for 30\n")
    #expect(try shop.run(["batch"], input: "").status == 0)
  }

  @Test func quietPrintsTheLinesNotPlacedOnStandardErrorAsTheLoudReportDoes() throws {
    let shop = try RootHarness()
    let run = try shop.run(["batch", "-q"], input: BatchTests.input)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "line 4: no chair, desk\n"
        + "line 5: 'pen=0': quantity must be a whole number from 1 to 1000000\n")
    #expect(run.status == 1)
    #expect(try shop.run("orders", "--count").stdout == "2\n")
  }

  @Test func jsonReportsCarryTheirLine() throws {
    let shop = try RootHarness()
    let run = try shop.run(["batch", "--json"], input: BatchTests.input)
    let objects = try run.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.map { $0["line"] as? Int } == [1, 4, 5, 6])
    #expect(objects[0]["number"] as? Int == 1001)
    #expect(objects[1]["unknown"] as? [String] == ["chair", "desk"])
    #expect((objects[2]["error"] as? String)?.contains("quantity") == true)
    #expect(objects[3]["payable"] as? Int == 198)
  }

  @Test func malformedLinesAreReportedAndSkipped() throws {
    let shop = try RootHarness()
    let catalog = try shop.folder.write("c.csv", "pen,30\ngold,9223372036854775807\n")
    var input = Array("pen=1\np\u{1}n=1\n".utf8)
    input.append(contentsOf: [0x70, 0xC3, 0x28, 0x3D, 0x31, 0x0A])  // invalid UTF-8
    input.append(contentsOf: Array("gold=2\npen=1 pen\n\"pen\"=1\npen=1\n".utf8))
    let run = try shop.runBytes(
      ["batch", "--catalog", catalog].map { Array($0.utf8) }, input: input)
    #expect(
      run.stdout == """
        order 1001 for 30
        line 2: 'p\\x01n=1': SKU must be 1-64 letters, digits, '-', '_' or '.'
        line 3: 'p\\xC3(=1': SKU must be 1-64 letters, digits, '-', '_' or '.'
        line 4: the order's total is too large to compute
        line 5: 'pen' is not an item: expected SKU=QTY
        line 6: '"pen"=1': SKU must be 1-64 letters, digits, '-', '_' or '.'
        order 1002 for 30

        """)
    #expect(run.status == 1)
  }

  @Test func aMissingFileIs66AndPlacesNothing() throws {
    let shop = try RootHarness()
    let run = try shop.run("batch", shop.folder.file("none.txt"))
    #expect(run.status == 66)
    #expect(
      run.stderr
        == "Error: cannot read '\(shop.folder.file("none.txt"))': No such file or directory\n")
    #expect(run.stdout == "")
  }

  @Test func aStoreThatCanNotBeCreatedStopsTheBatch() throws {
    let shop = try RootHarness()
    let file = try shop.folder.write("plain", "x")
    let run = try shop.run(["batch", "--orders", file + "/o.jsonl"], input: "pen=1\npen=2\n")
    #expect(run.status == 73)
    #expect(run.stdout == "")
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  @Test func aLargeBatchMatchesAnIndependentComputation() throws {
    let shop = try RootHarness()
    var random = SplitMix(seed: 20_261_130)
    var prices: [String: Int] = [:]
    var catalog = "sku,price\n"
    for index in 0..<300 {
      let price = Int(random.next() % 400)
      prices["s\(index)"] = price
      catalog += "s\(index),\(price)\n"
    }
    let catalogPath = try shop.folder.write("catalog.csv", catalog)
    var input = ""
    var expected = ""
    var number = 1001
    // More lines than one group holds (16,384), so the second group numbers on from the first;
    // up to four items a line at the start and across the group's edge, one in between.
    for line in 1...17_000 {
      var items: [(String, Int)] = []
      for _ in 0...(line > 2_000 && line < 16_000 ? 0 : random.next() % 4) {
        // One in sixteen is not in the catalog, and far from every SKU that is: no suggestion.
        let index = random.next() % 320
        items.append((index < 300 ? "s\(index)" : "none-\(index)", Int(random.next() % 9) + 1))
      }
      if random.next() % 50 == 0 {
        input += items.map { "\($0.0)=0" }.joined(separator: " ") + "\n"
        expected +=
          "line \(line): '\(items[0].0)=0': quantity must be a whole number from 1 to 1000000\n"
        continue
      }
      input += items.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + "\n"
      var seen: [String] = []
      var unknown: [String] = []
      var total = 0
      for (sku, quantity) in items {
        if let price = prices[sku] {
          total += price * quantity
        } else if !unknown.contains(sku) {
          unknown.append(sku)
        }
        seen.append(sku)
      }
      if !unknown.isEmpty {
        expected += "line \(line): no \(unknown.joined(separator: ", "))\n"
      } else {
        expected += "order \(number) for \(total >= 200 ? total - total / 10 : total)\n"
        number += 1
      }
    }
    let file = try shop.folder.write("batch.txt", input)
    let run = try shop.run("batch", "--catalog", catalogPath, file)
    #expect(run.stdout == expected)
    #expect(run.status == 1)
    #expect(try shop.run("orders", "--count").stdout == "\(number - 1001)\n")
  }
}
