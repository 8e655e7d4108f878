import ShopTestSupport
import Testing

@testable import ShopCommandLine
@testable import shop

/// docs/commands.md against the binary it describes, through the root in-process.
struct ReadmeTests {
  /// The sessions of docs/commands.md, run after `shop place pen=2 lamp=1`, print what the page
  /// shows (but the time); its usage lines and option table are the description's.
  @Test func theCommandsPageShowsWhatAReaderGets() throws {
    let using = try SourceTree.document("docs/commands.md")
    let blocks = using.split(separator: "```\n").enumerated().filter { $0.offset % 2 == 1 }.map {
      String($0.element)
    }
    let description = CommandLineDescription.shop
    for command in description.commands {
      #expect(blocks[0].contains(HelpText.usage(command, in: description) + "\n"))
      for option in command.options { #expect(using.contains("`\(option.long)")) }
    }
    // Every exit status the description declares has its row in the page's table.
    for status in description.exitStatuses {
      #expect(using.contains("\n| \(status.name) | "), "no row for exit status \(status.name)")
    }
    #expect(description.exitStatuses.count >= 11)
    let shop = try RootHarness()
    #expect(try shop.run("place", "pen=2", "lamp=1").stdout == "order 1001 for 225\n")
    let sessions = blocks.filter { $0.hasPrefix("$ ") }
    #expect(sessions.count == 4)
    var checked = 0
    for session in sessions {
      var expected = ""
      var pending: (arguments: [String], input: String?)?
      func check() throws {
        guard let (arguments, input) = pending else { return }
        let run = try shop.run(arguments, input: input)
        #expect(
          ReadmeTests.timeless(run.stdout + run.stderr)
            == ReadmeTests.timeless(expected), "\(arguments)")
        checked += 1
      }
      for line in session.split(separator: "\n", omittingEmptySubsequences: false) {
        guard line.hasPrefix("$ ") else {
          expected += line.isEmpty ? "" : line + "\n"
          continue
        }
        try check()
        expected = ""
        var command = String(line.dropFirst(2))
        var input: String?
        if command.hasPrefix("printf '"), let bar = command.range(of: "' | ") {
          input = String(command[command.index(command.startIndex, offsetBy: 8)..<bar.lowerBound])
            .replacing("\\n", with: "\n")
          command = String(command[bar.upperBound...])
        }
        pending = (Array(command.split(separator: " ").dropFirst().map(String.init)), input)
      }
      try check()
      pending = nil
    }
    #expect(checked == 13)
  }

  static func timeless(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "TIME")
  }
}
