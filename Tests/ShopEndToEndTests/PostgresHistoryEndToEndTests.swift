import Foundation
import ShopTestSupport
import Testing

/// `summary`, ranges and CSV through the binary, with the orders in PostgreSQL.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresHistoryEndToEndTests {
  @Test func theHistoryFormsWorkAsOnAFile() throws {
    let server = try PostgresServer.shared.get()
    let uri = server.tcpURI(try server.makeDatabase())
    let shop = try Shop()
    let file = shop.folder.file("orders.jsonl")
    for items in [["pen=2", "lamp=1"], ["lamp=1"], ["pen=1"]] {
      #expect(try shop.run(["place", "--orders", uri] + items).status == 0)
      #expect(try shop.run(["place", "--orders", file] + items).status == 0)
    }
    for arguments in [
      ["summary"], ["summary", "--by", "sku"], ["summary", "--by", "day", "--json"],
      ["summary", "--until", "2000-01-01"], ["orders", "--since", "2000-01-01", "--count"],
      ["orders", "--until", "2000-01-01"],
    ] {
      let postgres = try shop.run(arguments + ["--orders", uri])
      let local = try shop.run(arguments + ["--orders", file])
      #expect(postgres.status == 0 && postgres.stderr == "", "\(arguments): \(postgres)")
      #expect(postgres.stdout == local.stdout, "\(arguments)")
    }
    #expect(
      try shop.run("summary", "--orders", uri).stdout
        == "orders 3  voided 0  total 470  payable 445  discount 25\n")
    let csv = try shop.run("orders", "--orders", uri, "--csv", "--since", "2000-01-01")
    #expect(csv.stdout.hasPrefix("number,placedAt,items,total,payable,ref,voids,voidedBy\r\n1001,"))
    #expect(csv.stdout.split(separator: "\r\n").count == 4)
  }

  /// A row every listing refuses stops the summary too, in every grouping and form, with 65
  /// and the listing's words.
  @Test func aRowTheListingRefusesStopsEverySummaryForm() throws {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let uri = server.tcpURI(name)
    let shop = try Shop()
    for items in [["pen=2", "lamp=1"], ["lamp=1"], ["pen=1"]] {
      #expect(try shop.run(["place", "--orders", uri] + items).status == 0)
    }
    try server.sql("UPDATE shop_orders SET total = 251 WHERE number = 1003", database: name)
    let listing = try shop.run("orders", "--orders", uri)
    #expect(listing.status == 65)
    #expect(listing.stderr.contains("order 1003: total or payable does not match the items"))
    for form in [
      [], ["--by", "sku"], ["--by", "day"], ["--sku", "pen"], ["--csv"], ["--json"],
      ["--by", "sku", "--csv"], ["--by", "day", "--json"],
    ] {
      let summary = try shop.run(["summary", "--orders", uri] + form)
      #expect(summary.status == 65, "\(form): \(summary)")
      #expect(summary.stdout == "", "\(form)")
      #expect(summary.stderr == listing.stderr, "\(form)")
    }
  }
}
