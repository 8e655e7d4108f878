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
}
