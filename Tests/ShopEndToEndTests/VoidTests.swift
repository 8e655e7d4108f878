import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import shop

/// `shop void` through the root, in-process: its replies and statuses, every reader after it,
/// `--json`, `-q`, `--ref`, `--explain` and a store it can't use.
struct VoidTests {
  /// Three orders in a private file: 1001 pen=2 lamp=1 (225), 1002 lamp=1 under web-1, 1003 pen=1.
  func prepared() throws -> (RootHarness, String) {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    try shop.run("place", "--orders", orders, "pen=2", "lamp=1")
    try shop.run("place", "--orders", orders, "--ref", "web-1", "lamp=1")
    try shop.run("place", "--orders", orders, "pen=1")
    return (shop, orders)
  }

  @Test func theRepliesAndStatusesOfAVoid() throws {
    let (shop, orders) = try prepared()
    let first = try shop.run("void", "--orders", orders, "1002")
    #expect(first.status == 0 && first.stdout == "order 1002 void (void 1004)\n", "\(first)")
    let again = try shop.run("void", "--orders", orders, "1002")
    #expect(again.status == 0 && again.stdout == "order 1002 already void (void 1004)\n")
    let none = try shop.run("void", "--orders", orders, "1009")
    #expect(none.status == 1 && none.stdout == "no order 1009\n" && none.stderr.isEmpty)
    let ofAVoid = try shop.run("void", "--orders", orders, "1004")
    #expect(ofAVoid.status == 1 && ofAVoid.stdout.hasPrefix("1004 is a void of order 1002"))
    let quiet = try shop.run("void", "-q", "--orders", orders, "1003")
    #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    let json = try shop.run("void", "--json", "--orders", orders, "1001")
    #expect(
      json.stdout == #"{"number":1006,"voids":1001,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n")
    let jsonAgain = try shop.run("void", "--json", "--orders", orders, "1001")
    #expect(jsonAgain.stdout.hasSuffix(#","voidedBy":1006,"alreadyVoid":true}"# + "\n"))
    #expect(
      try shop.run("void", "--json", "--orders", orders, "1010").stdout == #"{"missing":1010}"#
        + "\n")
    // Nothing but the three voids was saved.
    #expect(try shop.lines(of: orders).count == 6)
  }

  @Test func aRefMakesARerunSafe() throws {
    let (shop, orders) = try prepared()
    let first = try shop.run("void", "--orders", orders, "--ref", "undo-7", "1001")
    #expect(first.stdout == "order 1001 void (void 1004)\n")
    let rerun = try shop.run("void", "--orders", orders, "--ref", "undo-7", "1001")
    #expect(rerun.status == 0 && rerun.stdout == "order 1001 already void (void 1004)\n")
    let other = try shop.run("void", "--orders", orders, "--ref", "undo-7", "1003")
    #expect(other.status == 1 && other.stdout.contains("ref undo-7 is void 1004"), "\(other)")
    let taken = try shop.run("void", "--orders", orders, "--ref", "web-1", "1003")
    #expect(taken.status == 1 && taken.stdout.contains("ref web-1 is order 1002"), "\(taken)")
    // A place under the void's ref is refused, and `orders --ref` finds the void.
    let place = try shop.run("place", "--orders", orders, "--ref", "undo-7", "pen=1")
    #expect(place.status == 1 && place.stdout.contains("is void 1004"), "\(place)")
    let found = try shop.run("orders", "--orders", orders, "--ref", "undo-7")
    #expect(found.stdout == "1004  2026-11-30T06:06:43Z  @undo-7 void of 1001\n")
    #expect(try shop.lines(of: orders).count == 4)
  }

  @Test func everyReaderShowsTheVoid() throws {
    let (shop, orders) = try prepared()
    try shop.run("void", "--orders", orders, "1001")
    let text = try shop.run("orders", "--orders", orders)
    #expect(
      text.stdout
        == """
        1001  2026-11-30T06:06:43Z  pen=2 lamp=1  total 250  payable 225  voided by 1004
        1002  2026-11-30T06:06:43Z  @web-1 lamp=1  total 190  payable 190
        1003  2026-11-30T06:06:43Z  pen=1  total 30  payable 30
        1004  2026-11-30T06:06:43Z  void of 1001

        """)
    for form in [["1001"], ["--last", "4"], ["--since", "2026-11-30"], ["--ref", "web-1"]] {
      let listed = try shop.run(["orders", "--orders", orders, "--json"] + form)
      let first = try #require(listed.stdout.split(separator: "\n").first)
      #expect(
        first.hasSuffix(form == ["--ref", "web-1"] ? "Z\"}" : #","voidedBy":1004}"#), "\(form)")
    }
    let csv = try shop.run("orders", "--orders", orders, "--csv")
    #expect(
      csv.stdout
        == "number,placedAt,items,total,payable,ref,voids,voidedBy\r\n"
        + "1001,2026-11-30T06:06:43Z,pen=2 lamp=1,250,225,,,1004\r\n"
        + "1002,2026-11-30T06:06:43Z,lamp=1,190,190,web-1,,\r\n"
        + "1003,2026-11-30T06:06:43Z,pen=1,30,30,,,\r\n"
        + "1004,2026-11-30T06:06:43Z,,,,,1001,\r\n")
    #expect(try shop.run("orders", "--orders", orders, "--count").stdout == "4\n")
    let summary = try shop.run("summary", "--orders", orders)
    #expect(summary.stdout == "orders 3  voided 1  total 220  payable 220  discount 0\n")
    let byDay = try shop.run("summary", "--orders", orders, "--by", "day", "--json")
    #expect(
      byDay.stdout
        == #"{"day":"2026-11-30","orders":3,"voided":1,"total":220,"payable":220,"discount":0}"#
        + "\n")
    let bySKU = try shop.run("summary", "--orders", orders, "--by", "sku")
    #expect(
      bySKU.stdout
        == "lamp  quantity 1  revenue 190  orders 1\npen  quantity 1  revenue 30  orders 1\n")
  }

  @Test func explainHelpAndAStoreThatCanNotTakeAVoid() throws {
    let (shop, orders) = try prepared()
    let explained = try shop.run("void", "--orders", orders, "--explain", "1001")
    #expect(explained.status == 0 && explained.stdout.hasPrefix("orders: file "))
    #expect(explained.stdout.contains("report: text to standard output"))
    #expect(try shop.lines(of: orders).count == 3)
    let help = try shop.run("void", "--help")
    #expect(help.stdout.contains("USAGE: shop void [options] NUMBER"))
    #expect(try shop.run("help", "void").stdout == help.stdout)
    #expect(try shop.run("void").status == 64)
    #expect(try shop.run("void", "1001", "1002").status == 64)
    #expect(try shop.run("void", "-q", "--json", "1001").status == 64)
    let database = try shop.run(
      "void", "--orders", "postgresql://localhost/shop", "--explain", "1001")
    #expect(database.status == 0 && database.stdout.hasPrefix("orders: PostgreSQL"), "\(database)")
    for shell in ["bash", "zsh", "fish"] {
      #expect(try shop.run("completions", shell).stdout.contains("void"), "\(shell)")
    }
    #expect(try shop.run("manual").stdout.contains("void"))
  }
}

/// `--since` and `--until` in the forms tools write, through the root with its fixed clock
/// (2026-11-30T06:06:43Z): `today` and `yesterday` are UTC days of that clock.
struct TimeFormTests {
  @Test func todayYesterdayAndOffsetsSelectTheSameOrders() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    func count(_ arguments: String...) throws -> String {
      try shop.run(["orders", "--orders", orders, "--count"] + arguments).stdout
    }
    #expect(try count("--since", "today") == "1\n")
    #expect(try count("--since", "yesterday", "--until", "today") == "0\n")
    #expect(try count("--until", "yesterday") == "0\n")
    #expect(try count("--since", "2026-11-30T11:36:43+05:30") == "1\n")
    #expect(try count("--since", "2026-11-30T11:36:44+05:30") == "0\n")
    #expect(try count("--since", "2026-11-29T22:06:43-08:00") == "1\n")
    #expect(try count("--until", "2026-11-30T06:06:43.001Z") == "1\n")
    #expect(try count("--since", "2026-11-30T06:06:43.001Z") == "0\n")
    #expect(try count("--since", "2026-11-30 06:06:43z") == "1\n")
    let summary = try shop.run("summary", "--orders", orders, "--since", "today")
    #expect(summary.stdout == "orders 1  voided 0  total 30  payable 30  discount 0\n")
    let refused = try shop.run("summary", "--since", "2026-11-30T06:06:43")
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("today or yesterday (UTC days)"), "\(refused)")
    #expect(refused.stderr.contains("2026-12-01T15:00:00+05:30"), "\(refused)")
  }
}
