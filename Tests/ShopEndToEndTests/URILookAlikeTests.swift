import Foundation
import ShopAdapters
import ShopConventions
import Testing

@testable import shop

/// A value of `--orders` or `SHOP_ORDERS` that reads as a URI but is none libpq takes is a
/// usage error (64) saying what a URI looks like, never a local store in a folder named
/// `postgresql:`; every real path still names its file.
struct URILookAlikeTests {
  /// Each way a URI can be mistyped: the scheme's case, one slash or none, nothing after it,
  /// a blank before it, a misspelt or foreign scheme.
  static let lookAlikes = [
    "postgresql:/db", "POSTGRESQL:///db", "Postgres://localhost/db", "postgreSQL://h/db",
    "postgres:", "postgresql:", "postgresql:db", "postgres:/", " postgresql://localhost/db",
    "\tpostgres://h/db", "postgressql://h/db", "postgre://h/db", "mysql://h/db", "pg://h/db",
    "file:///tmp/orders.jsonl", "postgresql:/user:secret@h/db",
  ]

  @Test(arguments: lookAlikes)
  func aURILookAlikeIsAUsageErrorFromTheFlagOrTheVariable(value: String) throws {
    let harness = try RootHarness()
    let commands = [
      ["place", "pen=1"], ["batch"], ["orders"], ["orders", "--count"], ["summary"],
      ["orders", "--ref", "a-1"],
    ]
    for command in commands {
      for (arguments, environment, from) in [
        (command + ["--orders", value], [:], "--orders"),
        (command, ["SHOP_ORDERS": value], "$SHOP_ORDERS"),
      ] {
        let run = try harness.run(arguments, input: "pen=1\n", environment: environment)
        #expect(run.status == 64, "\(arguments) \(environment)")
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: '"), "\(run.stderr)")
        #expect(run.stderr.contains("(from \(from)) is not a PostgreSQL URI: "))
        #expect(run.stderr.contains("A URI is postgresql://[user@][host][:port]/database"))
        #expect(run.stderr.contains("written with ./ before it"))
        #expect(!run.stderr.contains("secret"), "a password is never printed")
      }
    }
    // Nothing was made: no folder named after the scheme, here or in HOME.
    let scheme = String(value.drop { $0 == " " || $0 == "\t" }.prefix { $0 != ":" })
    #expect(!FileManager.default.fileExists(atPath: scheme + ":"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: harness.home).isEmpty,
      "HOME holds only what the test made")
    // `--explain` says the same, and how the command would stop.
    let explained = try harness.run(["orders", "--explain", "--orders", value])
    #expect(explained.status == 0)
    #expect(explained.stdout.contains("none: the command would stop with 64: '"))
    #expect(!explained.stdout.contains("secret"))
  }

  @Test(arguments: [
    ("postgresql:/db", "its scheme is followed by one /"),
    ("postgres:", "its scheme is not followed by //"),
    ("POSTGRESQL:///db", "its scheme is not in lower case"),
    (" postgresql://db", "it starts with a blank"),
    ("mysql://h/db", "shop opens no mysql: URI"),
  ])
  func theMessageSaysWhatIsWrong(value: String, why: String) throws {
    let run = try RootHarness().run(["orders", "--orders", value])
    #expect(
      run.stderr
        == "Error: '\(value)' (from --orders) is not a PostgreSQL URI: \(why). A URI is "
        + "postgresql://[user@][host][:port]/database in lower case, as in "
        + "postgresql://shop@db.example:5432/shop or postgresql:///shop (a local socket); "
        + "a file or folder whose name starts so is written with ./ before it\n")
  }

  /// Paths that only resemble a scheme stay paths: a name with no colon, a colon after a
  /// slash or after `./`, a colon that is not a scheme's (`c:/x`, `mysql:/x`: one slash).
  @Test(arguments: [
    "postgres", "postgresql", "postgresql/db", "./postgresql:x", "./postgresql://db",
    "/srv/postgresql:/db", "orders.jsonl", "c:/orders.jsonl", "mysql:/db", "backup:2026",
    "-postgresql:", "1postgresql://x", "postgresql://", "postgres://h/db",
  ])
  func aPathThatOnlyResemblesAURIStaysAPath(value: String) {
    #expect(ConnectionURI.lookAlike(Array(value.utf8)) == nil)
  }

  @Test func aFolderNamedLikeASchemeIsReachedWithItsPath() throws {
    let harness = try RootHarness()
    let path = harness.folder.file("postgresql:") + "/orders.jsonl"
    let placed = try harness.run(["place", "--orders", path, "pen=1"])
    #expect(placed.status == 0, "\(placed)")
    #expect(try harness.run(["orders", "--count", "--orders", path]).stdout == "1\n")
  }
}
