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
    #expect(line("apt-get install libpq5 postgresql"))
    #expect(line("swift build -c release"))
    #expect(line(".build/release/shop place --orders postgresql:///shop"))
    #expect(line("-u postgres createuser \"$USER\""))
    #expect(line("-u postgres createdb --owner \"$USER\" shop"))
    // Every example speaks of the same database, the one createdb made.
    let uris = Set(
      steps.split(whereSeparator: { " \n=".contains($0) }).filter { $0.hasPrefix("postgres") }
        .filter { $0.contains("://") })
    #expect(uris == ["postgresql:///shop"], "\(uris)")
  }

}
