import Foundation
import ShopAdapters
import ShopCore
import ShopTestSupport
import Testing

@testable import shop

/// What a new user follows to set `shop` up: the README's steps and the hints the binary gives
/// agree with each other.
struct SetUpTests {
  static func readme() throws -> String {
    try SourceTree.readme()
  }

  /// The fenced blocks of the README's section `title` (up to the next `## `).
  static func blocks(_ title: String) throws -> [String] {
    let readme = try readme()
    let section = try #require(readme.split(separator: "\n## \(title)\n").dropFirst().first)
    let body = section.split(separator: "\n## ").first ?? section
    return body.split(separator: "```", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  @Test func thePostgreSQLStepsStartFromAptGetAndUseOneDatabase() throws {
    let steps = try #require(try SetUpTests.blocks("Many machines: PostgreSQL").first)
    let lines = steps.split(separator: "\n").map { $0.prefix { $0 != "#" } }
    func line(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
    #expect(line("apt-get install libpq-dev pkg-config postgresql"))
    #expect(line("-u postgres createuser \"$USER\""))
    #expect(line("-u postgres createdb --owner \"$USER\" shop"))
    // The build the hint of a build without PostgreSQL gives, word for word.
    #expect(
      lines.contains { $0.trimmingCharacters(in: .whitespaces) == PostgreSQLNotBuilt.buildCommand })
    // Every example speaks of the same database, the one createdb made.
    let uris = Set(
      steps.split(whereSeparator: { " \n=".contains($0) }).filter { $0.hasPrefix("postgres") }
        .filter { $0.contains("://") })
    #expect(uris == ["postgresql:///shop"], "\(uris)")
  }

  @Test(arguments: [
    ("postgresql:///shop", "--orders", true), ("postgres://shop@db.example/shop", "--orders", true),
    ("postgresql:///shop", "SHOP_ORDERS", false), ("postgres://db/shop", "SHOP_ORDERS", false),
  ])
  func theNotBuiltHintNamesTheSchemeAsTypedAndTheReadmesBuild(
    uri: String, source: String, flag: Bool
  ) {
    let chosen = chooseStore(
      flag: flag ? FilePath(uri) : nil, memory: false,
      Environment(flag ? [:] : ["SHOP_ORDERS": uri]))
    let error = PostgreSQLNotBuilt(uri: ConnectionURI(uri), source: chosen.source)
    let scheme = uri.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
    #expect(error.status == .usage)
    #expect(error.message.hasPrefix("the orders are at a \(scheme) URI (from \(source)),"))
    #expect(error.message.contains("`\(PostgreSQLNotBuilt.buildCommand)`"))
    let other = scheme == "postgres://" ? "postgresql://" : "postgres://"
    #expect(!error.message.contains(other), "\(error.message)")
  }

  #if !PostgreSQL
    @Test func aBuildWithoutPostgreSQLSaysTheSchemeTyped() throws {
      let shop = try RootHarness()
      for (arguments, environment, said) in [
        (["orders", "--orders", "postgresql:///shop"], [:], "a postgresql:// URI (from --orders)"),
        (["orders"], ["SHOP_ORDERS": "postgres:///shop"], "a postgres:// URI (from SHOP_ORDERS)"),
      ] {
        let run = try shop.run(arguments, environment: environment)
        #expect(run.status == 64 && run.stdout == "", "\(run)")
        #expect(run.stderr.contains(said), "\(run)")
      }
    }
  #endif

}
