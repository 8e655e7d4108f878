import Foundation
import ShopTestSupport
import Testing

@testable import ShopCommandLine

/// docs/commands.md's table of options is written by hand; the description is the truth. So a
/// row names exactly the commands that take its option, and every option has a row.
struct OptionsTableTests {
  /// The long name of each row's option (`--quiet` for `-q`, `--quiet`) and the commands its
  /// second cell names: `all` is every command, `none (…)` none (an option before a command).
  static func rows() throws -> [String: Set<String>] {
    let text = try SourceTree.document("docs/commands.md")
    guard let start = text.range(of: "\n## Options\n") else { return [:] }
    let section = text[start.upperBound...].prefix { _ in true }
    let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
    var rows: [String: Set<String>] = [:]
    let commands = CommandLineDescription.shop.commands.map(\.name)
    for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `-") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count > 3,
        let long = cells[1].split(separator: "`").first(where: { $0.hasPrefix("--") })
      else { continue }
      let name = String(long.split(separator: " ").first ?? long)
      let named = cells[2]
      if named == "all" {
        rows[name] = Set(commands)
      } else if named.hasPrefix("none") {
        rows[name] = []
      } else {
        rows[name] = Set(
          named.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
      }
    }
    return rows
  }

  /// What the description says: each option's long name and the commands that take it.
  static func described() -> [String: Set<String>] {
    let description = CommandLineDescription.shop
    var taken: [String: Set<String>] = [:]
    for option in description.options { taken[option.long, default: []] = [] }
    for command in description.commands {
      for option in command.options { taken[option.long, default: []].insert(command.name) }
    }
    return taken
  }

  @Test func everyOptionHasARowNamingExactlyTheCommandsThatTakeIt() throws {
    let rows = try Self.rows()
    let described = Self.described()
    #expect(!rows.isEmpty, "docs/commands.md has no table of options under '## Options'")
    for (option, commands) in described.sorted(by: { $0.key < $1.key }) {
      #expect(
        rows[option] == commands,
        "\(option): the table says \(rows[option].map { $0.sorted() } ?? []), the description \(commands.sorted())"
      )
    }
    let unknown = Set(rows.keys).subtracting(described.keys)
    #expect(unknown.isEmpty, "rows for options shop does not have: \(unknown.sorted())")
  }
}
