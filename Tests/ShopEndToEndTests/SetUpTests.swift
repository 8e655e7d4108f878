import Foundation
import ShopAdapters
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopCommandLine
@testable import shop

/// What a new user follows to set `shop` up: the README's steps and the hints the binary gives
/// agree with each other.
struct SetUpTests {
  static func readme() throws -> String {
    try SourceTree.readme()
  }

  /// The fenced blocks of the README's section `title` (a `## ` or `### ` heading), up to the
  /// next heading.
  static func blocks(_ title: String) throws -> [String] {
    let readme = try readme()
    let section = try #require(
      readme.split(separator: "\n## \(title)\n").dropFirst().first
        ?? readme.split(separator: "\n### \(title)\n").dropFirst().first)
    let body = section.split(separator: "\n##").first ?? section
    return body.split(separator: "```", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  /// The README's quick start works as root without sudo and as a user with it, from a stopped
  /// cluster: it starts the server itself, and names the role by `id -un`, never `$USER`.
  @Test func thePostgreSQLStepsStartFromAptGetAndUseOneDatabase() throws {
    let steps = try #require(try SetUpTests.blocks("Moving to PostgreSQL").first)
    let lines = steps.split(separator: "\n").map { $0.prefix { $0 != "#" } }
    func line(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
    #expect(line("sudo=$([ \"$(id -u)\" = 0 ] || echo sudo)"))
    #expect(line("me=$(id -un)"))
    #expect(line("$sudo apt-get update && $sudo apt-get install -y libpq5 postgresql"))
    #expect(line("|| $sudo pg_ctlcluster 15 main start"))
    #expect(line("$sudo su postgres -c \"createuser $me\""))
    #expect(line("$sudo su postgres -c \"createdb --owner $me shop\""))
    #expect(line("export SHOP_ORDERS=postgresql:///shop"))
    #expect(lines.last?.hasPrefix("shop place ") == true, "\(lines)")
    #expect(!lines.contains { $0.contains("$USER") })
    // Every example speaks of the same database, the one createdb made.
    let uris = Set(
      steps.split(whereSeparator: { " \n=".contains($0) }).filter { $0.hasPrefix("postgres") }
        .filter { $0.contains("://") })
    #expect(uris == ["postgresql:///shop"], "\(uris)")
  }

}
