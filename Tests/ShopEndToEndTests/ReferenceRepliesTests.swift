import Foundation
import ShopTestSupport
import Testing

/// `--ref` and `@REF` through the root in-process: the replies, and a batch fixed and run again.
struct ReferenceRepliesTests {
  @Test func theRepliesOfARepeatedRef() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    #expect(
      try shop.run("place", "--orders", orders, "--ref", "web-5512", "pen=2", "lamp=1").stdout
        == "order 1001 for 225\n")
    let again = try shop.run("place", "--orders", orders, "lamp=1", "--ref=web-5512", "pen=2")
    #expect(again.status == 0)
    #expect(again.stdout == "order 1001 for 225 (already placed)\n")
    let json = try shop.run(
      "place", "--orders", orders, "--json", "--ref", "web-5512", "pen=2", "lamp=1")
    #expect(json.stdout.hasPrefix(#"{"number":1001,"ref":"web-5512","items":["#))
    #expect(json.stdout.hasSuffix(#"Z","alreadyPlaced":true}"# + "\n"))
    let other = try shop.run("place", "--orders", orders, "--ref", "web-5512", "pen=1")
    #expect(other.status == 1)
    #expect(other.stdout == "ref web-5512 is order 1001, with other items\n")
    let quiet = try shop.run("place", "-q", "--orders", orders, "--ref", "web-5512", "pen=1")
    #expect(quiet.status == 1)
    #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    for bad in ["", "web 1", "@web", String(repeating: "x", count: 65), "é"] {
      let usage = try shop.run("place", "--orders", orders, "--ref", bad, "pen=1")
      #expect(usage.status == 64, "\(bad)")
      #expect(usage.stderr.hasPrefix("Error: '--ref' must be 1-64 letters"), "\(usage)")
    }
    #expect(try OrdersFile.refs(orders).count == 1)

    let listed = try shop.run("orders", "--orders", orders, "--ref", "web-5512")
    #expect(listed.status == 0)
    #expect(listed.stdout.hasPrefix("1001  "))
    #expect(listed.stdout.hasSuffix("  @web-5512 pen=2 lamp=1  total 250  payable 225\n"))
    let none = try shop.run("orders", "--orders", orders, "--ref", "web-1")
    #expect(none.status == 1)
    #expect(none.stdout == "no order with ref web-1\n")
    #expect(
      try shop.run("orders", "--orders", orders, "--json", "--ref", "web-1").stdout
        == #"{"missingRef":"web-1"}"# + "\n")
    // CSV has no record for it: the spreadsheet gets its header, standard error the news.
    let csv = try shop.run("orders", "--orders", orders, "--csv", "--ref", "web-1")
    #expect(csv.status == 1)
    #expect(csv.stdout == "number,placedAt,items,total,payable,ref,voids,voidedBy\r\n")
    #expect(csv.stderr == "no order with ref web-1\n")
    #expect(try shop.run("orders", "--orders", orders, "--ref", "web-1", "1001").status == 64)
    // A ref names its order, as NUMBERs do: a range beside it is a usage error, not ignored.
    for range in [["--since", "2030-01-01"], ["--until", "2020-01-01"]] {
      let ranged = try shop.run(["orders", "--orders", orders, "--ref", "web-5512"] + range)
      #expect(ranged.status == 64, "\(ranged)")
      #expect(ranged.stdout.isEmpty)
      #expect(ranged.stderr.contains("--ref"), "\(ranged)")
    }
    #expect(try shop.run("orders", "--orders", shop.folder.file("none"), "--ref", "a").status == 1)
  }

  /// A retry asks for the same goods even after the catalog changed: a ref already held is
  /// answered by its order when the catalog no longer sells one of its SKUs or prices it too
  /// high to total, by `place` and by a batch (loud, quiet, JSON, a file and the plain way).
  @Test func aRetryIsAlreadyPlacedEvenWhenTheCatalogCanNoLongerPriceIt() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let first = try shop.folder.write("first.csv", "sku,price\npen,30\nlamp,190\n")
    try shop.run("place", "--orders", orders, "--catalog", first, "--ref", "p1", "pen=2", "lamp=1")
    let dropped = try shop.folder.write("dropped.csv", "sku,price\npen,31\n")
    let huge = try shop.folder.write("huge.csv", "sku,price\npen,30\nlamp,9223372036854775807\n")
    for catalog in [dropped, huge] {
      let again = try shop.run(
        "place", "--orders", orders, "--catalog", catalog, "--ref", "p1", "lamp=1", "pen=2")
      #expect(again.status == 0, "\(again)")
      #expect(again.stdout == "order 1001 for 225 (already placed)\n")
      let other = try shop.run(
        "place", "--orders", orders, "--catalog", catalog, "--ref", "p1", "lamp=3")
      #expect(other.status == 1, "\(other)")
      #expect(other.stdout == "ref p1 is order 1001, with other items\n")
      let loud = try shop.run(
        ["batch", "--orders", orders, "--catalog", catalog],
        input: "@p1 pen=2 lamp=1\n@p2 lamp=2\n@p1 pen=1 pen=1 lamp=1\n")
      #expect(loud.status == 1, "\(loud)")
      #expect(loud.stdout.hasPrefix("order 1001 for 225 (already placed)\nline 2: "), "\(loud)")
      #expect(loud.stdout.hasSuffix("\norder 1001 for 225 (already placed)\n"), "\(loud)")
      let quiet = try shop.run(
        ["batch", "-q", "--orders", orders, "--catalog", catalog], input: "@p1 pen=2 lamp=1\n")
      #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet)")
      let json = try shop.run(
        ["batch", "--json", "--orders", orders, "--catalog", catalog], input: "@p1 pen=2 lamp=1\n")
      #expect(json.stdout.hasSuffix(#""alreadyPlaced":true}"# + "\n"), "\(json)")
    }
    // A new ref the catalog can't price is refused as any such request is.
    let new = try shop.run(
      "place", "--orders", orders, "--catalog", dropped, "--ref", "p3", "lamp=1")
    #expect(new.status == 1)
    #expect(new.stdout == "no lamp\n")
    #expect(try OrdersFile.refs(orders).map(\.number) == [1001])
  }

  @Test func aBatchWithABadLineFixedAndRunAgainPlacesEachLineOnce() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let first = try shop.run(
      ["batch", "--orders", orders],
      input: "@web-1 pen=2 lamp=1\n@web-2 pen=0\n@web-3 lamp=1\n@web-1 pen=2 lamp=1\n")
    #expect(first.status == 1)
    #expect(
      first.stdout == """
        order 1001 for 225
        line 2: 'pen=0': quantity must be a whole number from 1 to 1000000
        order 1002 for 190
        order 1001 for 225 (already placed)

        """)
    let fixed = try shop.run(
      ["batch", "--orders", orders, "--json"],
      input: "@web-1 pen=2 lamp=1\n@web-2 pen=1\n@web-3 lamp=1\n@web-3 lamp=2\n")
    #expect(fixed.status == 1)
    let lines = fixed.stdout.split(separator: "\n")
    #expect(lines[0].hasPrefix(#"{"line":1,"number":1001,"ref":"web-1","#))
    #expect(lines[0].hasSuffix(#","alreadyPlaced":true}"#))
    #expect(lines[1].hasPrefix(#"{"line":2,"number":1003,"ref":"web-2","#))
    #expect(!lines[1].contains("alreadyPlaced"))
    #expect(lines[2].hasPrefix(#"{"line":3,"number":1002,"ref":"web-3","#))
    #expect(
      lines[3]
        == #"{"line":4,"error":"ref web-3 is order 1002, with other items","ref":"web-3","order":1002}"#
    )
    #expect(try OrdersFile.refsPlacedOnce(orders, ["web-1", "web-2", "web-3"]) == nil, "fixed")
  }
}

extension ReferenceRepliesTests {
  /// The issue's first and third reproductions through the root: a flipped bit in a slot, then
  /// an edit in place that gives an earlier order the ref placed next; and a store that holds
  /// a ref twice, refused with 65 at its line by `place --ref`, `batch` and `orders --ref`.
  @Test func aDamagedIndexOrAnEditedFileNeverPlacesARefTwice() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("o.jsonl")
    #expect(
      try shop.run(
        ["batch", "-q", "--orders", orders], input: "@w-1 pen=1\n@w-2 pen=1\n@w-3 pen=1\n"
      ).status == 0)
    var index = [UInt8](try Data(contentsOf: URL(fileURLWithPath: orders + ".refs")))
    let slot = try #require(
      stride(from: 4096, to: 4096 + 256 * 16, by: 16).first { index[$0] | index[$0 + 1] != 0 })
    index[slot] ^= 1
    let handle = try #require(FileHandle(forUpdatingAtPath: orders + ".refs"))
    try handle.write(contentsOf: Data(index))
    try handle.close()
    for ref in ["w-1", "w-2", "w-3"] {
      let again = try shop.run("place", "--orders", orders, "--ref", ref, "pen=1")
      #expect(again.stdout.hasSuffix("(already placed)\n"), "\(again)")
    }
    // web-2 becomes web-9 in place: placing web-9 finds it.
    var text = try String(contentsOfFile: orders, encoding: .utf8)
    text = text.replacingOccurrences(of: #""ref":"w-2""#, with: #""ref":"w-9""#)
    let rewrite = try #require(FileHandle(forUpdatingAtPath: orders))
    try rewrite.write(contentsOf: Data(text.utf8))
    try rewrite.close()
    let nine = try shop.run("place", "--orders", orders, "--ref", "w-9", "pen=1")
    #expect(nine.stdout == "order 1002 for 30 (already placed)\n", "\(nine)")
    // w-3 becomes w-1: the store holds w-1 twice, and every command that meets refs says so.
    text = text.replacingOccurrences(of: #""ref":"w-3""#, with: #""ref":"w-1""#)
    let twice = try #require(FileHandle(forUpdatingAtPath: orders))
    try twice.write(contentsOf: Data(text.utf8))
    try twice.close()
    for run in [
      try shop.run("place", "--orders", orders, "--ref", "w-7", "pen=1"),
      try shop.run(["batch", "--orders", orders], input: "@w-8 pen=1\n"),
      try shop.run("orders", "--orders", orders, "--ref", "w-9"),
    ] {
      #expect(run.status == 65, "\(run)")
      #expect(run.stderr.contains("o.jsonl:3: ref w-1 is held twice, here and on line 1"), "\(run)")
    }
    #expect(try String(contentsOfFile: orders, encoding: .utf8) == text, "nothing written")
  }
}
