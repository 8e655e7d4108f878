import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Writers beside each other whatever isolation level the database, the role or the URI
/// would start a transaction at: shop's own run at READ COMMITTED, so the read after the
/// lock sees every order committed before it.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresIsolationTests {
  func draft(_ quantity: Int = 1, ref: String? = nil) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: quantity, price: 30)],
        placedAt: Timestamp(secondsSince1970: 1_796_018_803),
        reference: ref.flatMap(Reference.init)))
  }

  @Test(arguments: ["serializable", "repeatable read"], ["database", "uri"])
  func concurrentWritersShareOneNumberingAtAnyDefaultIsolation(level: String, set: String)
    async throws
  {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    let options =
      "?options=-c%20default_transaction_isolation%3D" + level.replacing(" ", with: "%5C%20")
    let uri = server.tcpURI(name) + (set == "uri" ? options : "")
    if set == "database" {
      try server.sql(
        "ALTER DATABASE \(name) SET default_transaction_isolation = '\(level)'", database: name)
    }
    let shown = try server.sql("SHOW default_transaction_isolation", database: name)
    #expect(set == "uri" || shown == level + "\n")
    // The first writer creates the table; then four tasks, each with a small group, a
    // group by COPY and a ref at a time.
    #expect(try PostgresOrders(uri: uri).save([draft()]).map(\.number) == [1001])
    let small = [try draft(), try draft(2)]
    let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 3 + 1) }
    let failures = await withTaskGroup(of: String?.self) { group in
      for worker in 0..<4 {
        group.addTask {
          do {
            // A new store each time, as each command is: its first group checks the table.
            for round in 0..<6 {
              _ = try PostgresOrders(uri: uri).save(small)
              if round % 3 == 0 { _ = try PostgresOrders(uri: uri).save(big) }
              _ = try PostgresOrders(uri: uri).place([draft(ref: "w\(worker)-\(round)")])
            }
            return nil
          } catch {
            return "worker \(worker): \(error)"
          }
        }
      }
      var failures: [String] = []
      for await failure in group { failures += failure.map { [$0] } ?? [] }
      return failures
    }
    #expect(failures == [], "\(level) by \(set)")
    let count = 1 + 4 * (6 * 3 + 2 * big.count)
    var numbers: [Int] = []
    try PostgresOrders(uri: uri).readAll { numbers.append($0.number) }
    #expect(numbers == Array(1001..<(1001 + count)), "\(level) by \(set)")
  }
}
