import Foundation
import ShopAdapters
import ShopTestSupport
import Testing

/// libpq is loaded at run time, and only for a postgres:// store: a machine without it gets a
/// clear 69 naming the package when a URI is used, and file and memory commands never load it.
/// None of these needs a server.
struct PostgresLibraryTests {
  static let absent = "libpq-absent-for-a-test.so.5"

  @Test func aMachineWithoutLibpqIs69NamingThePackageAndCreatesNoFile() throws {
    let harness = try RootHarness()
    let uri = "postgres://shop:secret@localhost/orders"
    for (arguments, environment) in [
      (["place", "--orders", uri, "pen=1"], [:]), (["batch"], ["SHOP_ORDERS": uri]),
      (["orders", "--orders", "postgresql:///orders"], [:]),
      (["orders", "--count"], ["SHOP_ORDERS": uri]),
      (["summary", "--by", "day"], ["SHOP_ORDERS": uri]),
      (["place", "--orders", uri, "--ref", "r-1", "pen=1"], [:]),
    ] {
      let run = try harness.run(
        arguments, input: "pen=1\n", environment: environment, libpq: Self.absent)
      #expect(run.status == 69, "\(arguments): \(run)")
      #expect(run.stderr.hasPrefix("Error: the orders are in PostgreSQL"), "\(run)")
      #expect(run.stderr.contains(Self.absent) && run.stderr.contains("libpq5"), "\(run)")
      #expect(!run.stderr.contains("secret"), "\(run)")
      #expect(run.stdout.isEmpty, "\(arguments): \(run)")
    }
    let made = try FileManager.default.subpathsOfDirectory(atPath: harness.folder.path)
    #expect(!made.contains { $0.contains("postgres") }, "\(made)")
  }

  /// The same commands with a file or memory store never ask for libpq, even when it is
  /// missing: they succeed as before.
  @Test func fileAndMemoryStoresWorkWithoutLibpq() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("orders.jsonl")
    for arguments in [
      ["place", "--orders", orders, "pen=1"], ["place", "--memory", "pen=1"],
      ["orders", "--orders", orders], ["summary", "--orders", orders], ["--version"],
    ] {
      let run = try harness.run(arguments, libpq: Self.absent)
      #expect(run.status == 0 && run.stderr.isEmpty, "\(arguments): \(run)")
    }
  }

  @Test func explainSaysWhenThisMachineCantUsePostgreSQL() throws {
    let harness = try RootHarness()
    let environment = ["SHOP_ORDERS": "postgresql://e:secret@db/shop"]
    let run = try harness.run(
      ["place", "--explain", "pen=1"], environment: environment, libpq: Self.absent)
    #expect(run.status == 0, "\(run)")
    let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("orders:") })
    #expect(line.contains("PostgreSQL postgresql://e:***@db/shop (from $SHOP_ORDERS)"), "\(line)")
    #expect(line.contains("this machine can't use it") && line.contains("libpq5"), "\(line)")
    #expect(!run.stdout.contains("secret"))
  }
}
