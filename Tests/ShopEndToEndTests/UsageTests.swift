import Foundation
import Testing

@testable import ShopCommandLine
@testable import shop

/// Usage errors, help and version: the swift-argument-parser look, exit 64 or 0.
struct UsageTests {
  static let placeUsage =
    "Usage: shop place [options] SKU=QTY...\n  See 'shop place --help' for more information.\n"
  static let ordersUsage =
    "Usage: shop orders [options] [NUMBER...]\n"
    + "  See 'shop orders --help' for more information.\n"

  @Test(arguments: [
    (["place"], "no items: expected SKU=QTY..."),
    (["place", "pen"], "'pen' is not an item: expected SKU=QTY"),
    (["place", "pen="], "'pen=': quantity must be a whole number from 1 to 1000000"),
    (["place", "=2"], "'=2': SKU must be 1-64 letters, digits, '-', '_' or '.'"),
    (["place", "pen=0"], "'pen=0': quantity must be a whole number from 1 to 1000000"),
    (["place", "pen=-1"], "'pen=-1': quantity must be a whole number from 1 to 1000000"),
    (["place", "pen=1.5"], "'pen=1.5': quantity must be a whole number from 1 to 1000000"),
    (["place", "pen=2=3"], "'pen=2=3' is not an item: expected SKU=QTY"),
    (["place", "pen=1", "p n=1"], "'p n=1': SKU must be 1-64 letters, digits, '-', '_' or '.'"),
    (["place", "p'n=1"], "'p'n=1': SKU must be 1-64 letters, digits, '-', '_' or '.'"),
    (
      ["place", "p\u{1B}[2Jn=1"],
      "'p\\x1B[2Jn=1': SKU must be 1-64 letters, digits, '-', '_' or '.'"
    ),
    (["place", "--bogus", "pen=1"], "unknown option '--bogus'"),
    (["place", "-x=1"], "unknown option '-x=1'"),
    (["place", "-q", "--json", "pen=1"], "--quiet and --json can't be used together"),
    (
      ["place", "--memory", "--orders", "o.jsonl", "pen=1"],
      "--memory and --orders can't be used together"
    ),
    (["place", "pen=1", "--orders"], "missing value for '--orders <path-or-uri>'"),
    (["place", "--orders", "--json", "pen=1"], "missing value for '--orders <path-or-uri>'"),
    (["place", "--orders=", "pen=1"], "'--orders' needs a non-empty path"),
    (["place", "--json=yes", "pen=1"], "option '--json' takes no value"),
    (["place", "--jsno", "pen=1"], "unknown option '--jsno': did you mean '--json'?"),
    (["place", "--quite", "pen=1"], "unknown option '--quite': did you mean '--quiet'?"),
    (["place", "--xyzzy", "pen=1"], "unknown option '--xyzzy'"),
    (["place", "café=1"], "'café=1': SKU must be 1-64 letters, digits, '-', '_' or '.'"),
  ])
  func placeUsageErrors(arguments: [String], message: String) throws {
    let run = try RootHarness().run(arguments)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == "Error: \(message)\n" + UsageTests.placeUsage)
  }

  @Test(arguments: [
    (
      ["frobnicate"],
      "Error: unknown command 'frobnicate'\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--bogus"],
      "Error: unknown option '--bogus'\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["batch", "a", "b"],
      "Error: unexpected argument 'b': one FILE at most\nUsage: shop batch [options] [FILE]\n  See 'shop batch --help' for more information.\n"
    ),
    (
      ["cat"],
      "Error: unknown command 'cat': did you mean 'catalog'?\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--version", "extra"],
      "Error: unexpected argument 'extra' after --version\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--help", "extra"],
      "Error: unknown command 'extra'\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--help", "place", "extra"],
      "Error: unexpected argument 'extra'\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    // An option after `--help` is not taken for a command, and a flag given a value says so.
    (
      ["--help", "--version"],
      "Error: unexpected option '--version' after --help\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--help=1"],
      "Error: option '--help' takes no value\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--version=yes"],
      "Error: option '--version' takes no value\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["plcae", "pen=1"],
      "Error: unknown command 'plcae': did you mean 'place'?\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["--verison"],
      "Error: unknown option '--verison': did you mean '--version'?\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
    (
      ["orders", "--json", "--count"],
      "Error: --json and --count can't be used together\n\(ordersUsage)"
    ),
    (
      ["orders", "--count", "--last", "2"],
      "Error: --count and --last can't be used together\n\(ordersUsage)"
    ),
    (
      ["orders", "--count", "1001"],
      "Error: --count and NUMBER can't be used together\n\(ordersUsage)"
    ),
    (
      ["orders", "--last=2", "1001"],
      "Error: --last and NUMBER can't be used together\n\(ordersUsage)"
    ),
    (
      ["orders", "--last", "0"],
      "Error: '--last' must be how many orders to list (1 or more), not '0'\n\(ordersUsage)"
    ),
    (
      ["orders", "--last", "-1"],
      "Error: '--last' must be how many orders to list (1 or more), not '-1'\n\(ordersUsage)"
    ),
    (["orders", "--last", "--json"], "Error: missing value for '--last <n>'\n\(ordersUsage)"),
    (
      ["orders", "--last", "9223372036854775808"],
      "Error: '--last' must be at most 9223372036854775807, not '9223372036854775808'\n\(ordersUsage)"
    ),
    (
      ["orders", "extra"],
      "Error: NUMBER must be an order number such as 1001, not 'extra'\n\(ordersUsage)"
    ),
    (
      ["orders", "0"], "Error: NUMBER must be an order number such as 1001, not '0'\n\(ordersUsage)"
    ),
    (
      ["orders", "99999999999999999999"],
      "Error: NUMBER must be an order number such as 1001, not '99999999999999999999'\n\(ordersUsage)"
    ),
    (
      ["catalog", "--memory"],
      "Error: unknown option '--memory'\nUsage: shop catalog [--catalog <path>] [--json] [--explain]\n  See 'shop catalog --help' for more information.\n"
    ),
    (
      ["help", "plcae"],
      "Error: unknown command 'plcae': did you mean 'place'?\nUsage: shop help [COMMAND]\n  See 'shop help --help' for more information.\n"
    ),
    (
      ["help", "place", "batch"],
      "Error: unexpected argument 'batch': one COMMAND at most\nUsage: shop help [COMMAND]\n  See 'shop help --help' for more information.\n"
    ),
    (
      ["completions", "tcsh"],
      "Error: unknown shell 'tcsh': expected bash, zsh or fish\nUsage: shop completions SHELL\n  See 'shop completions --help' for more information.\n"
    ),
    (
      ["completions"],
      "Error: missing SHELL\nUsage: shop completions SHELL\n  See 'shop completions --help' for more information.\n"
    ),
    (
      ["manual", "x"],
      "Error: unexpected argument 'x'\nUsage: shop manual\n  See 'shop manual --help' for more information.\n"
    ),
  ])
  func otherUsageErrors(arguments: [String], stderr: String) throws {
    let run = try RootHarness().run(arguments)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == stderr)
  }

  @Test func helpIsTheSameTextEveryWay() throws {
    let shop = try RootHarness()
    let top = try shop.run([])
    #expect(top.status == 0 && top.stderr == "")
    for arguments in [["--help"], ["-h"], ["help"]] {
      #expect(try shop.run(arguments).stdout == top.stdout)
    }
    for section in ["OVERVIEW:", "USAGE: shop <command> [options]", "OPTIONS:", "SUBCOMMANDS:"] {
      #expect(top.stdout.contains(section))
    }
    for command in ["place", "batch", "orders", "catalog", "help", "completions", "manual"] {
      #expect(top.stdout.contains("\n  \(command) "))
      let help = try shop.run("help", command)
      #expect(help.status == 0)
      #expect(help.stdout.hasPrefix("OVERVIEW: "))
      #expect(help.stdout.contains("USAGE: shop \(command)"))
      #expect(try shop.run(command, "--help").stdout == help.stdout)
      #expect(try shop.run(command, "-h").stdout == help.stdout)
      #expect(try shop.run("--help", command).stdout == help.stdout)
      #expect(try shop.run("-h", command).stdout == help.stdout)
    }
    let place = try shop.run("help", "place").stdout
    for section in [
      "ARGUMENTS:", "<SKU=QTY>", "-q, --quiet", "--json", "--catalog <path>",
      "--orders <path-or-uri>",
      "--memory",
    ] {
      #expect(place.contains(section))
    }
  }

  /// Help wins over whatever else the line gets wrong, before `--`: an unknown option, a bad
  /// or missing value, a conflict, a bad or extra operand; after `--` it is an operand.
  @Test func helpAnywhereWinsOverEveryOtherMistake() throws {
    let shop = try RootHarness()
    let wrong: [[String]] = [
      ["place", "--bogus"], ["place", "pen=0"], ["orders", "--last", "0"],
      ["orders", "--last"], ["orders", "--json", "--csv"], ["orders", "x"],
      ["batch", "a", "b"], ["place", "--ref"], ["summary", "--by", "week"],
      ["catalog", "--catalog="], ["orders", "--since", "bad", "--since", "2026-12-01"],
    ]
    for line in wrong {
      let command = line[0]
      let help = try shop.run("help", command).stdout
      #expect(try shop.run(line).status == 64, "\(line)")
      for flag in ["--help", "-h"] {
        for arguments in [line + [flag], [command, flag] + line.dropFirst()] {
          let run = try shop.run(arguments)
          #expect(run.status == 0 && run.stdout == help && run.stderr == "", "\(arguments)")
        }
      }
    }
    let after = try shop.run("place", "--", "--help")
    #expect(after.status != 0 && after.stdout == "", "after --, --help is an item: \(after)")
    #expect(try shop.run("place", "--help=1").status == 64)
  }

  @Test func helpHelpExplainsHelp() throws {
    let shop = try RootHarness()
    let help = try shop.run("help", "help")
    #expect(help.status == 0 && help.stderr == "")
    #expect(help.stdout.hasPrefix("OVERVIEW: Show help"))
    #expect(help.stdout.contains("USAGE: shop help [COMMAND]"))
    #expect(try shop.run("help", "--help").stdout == help.stdout)
  }

  /// Every default, in the order it is tried, the one under HOME included.
  @Test func helpNamesEveryDefaultInOrder() throws {
    let shop = try RootHarness()
    for command in ["place", "batch", "orders"] {
      let help = try shop.run("help", command).stdout
      let defaults = [
        "(default: $SHOP_ORDERS,", "else $XDG_DATA_HOME/shop/orders.jsonl,",
        "else ~/.local/share/shop/orders.jsonl)",
      ].map { help.range(of: $0)?.lowerBound }
      #expect(defaults.allSatisfy { $0 != nil }, "\(command)")
      #expect(defaults.compactMap { $0 } == defaults.compactMap { $0 }.sorted(), "\(command)")
    }
    for command in ["place", "batch", "catalog"] {
      #expect(
        try shop.run("help", command).stdout.contains(
          "(default: $SHOP_CATALOG,\n" + String(repeating: " ", count: 26)
            + "else the built-in catalog: pen 30, lamp 190)"))
    }
  }

  @Test func typedUTF8IsQuotedAsTyped() throws {
    let run = try RootHarness().run("place", "café=1", "pen=1")
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: 'café=1': SKU must be"))
    let bytes = try RootHarness().runBytes([Array("place".utf8), [0x70, 0xC3, 0x28, 0x3D, 0x31]])
    #expect(bytes.stderr.hasPrefix("Error: 'p\\xC3(=1': SKU must be"))
  }

  @Test func versionLineSpellsEveryBuild() {
    let lines = [
      BuildInfo(configuration: .release, postgreSQL: false),
      BuildInfo(configuration: .release, postgreSQL: true),
      BuildInfo(configuration: .debug, postgreSQL: false),
      BuildInfo(configuration: .debug, postgreSQL: true),
    ].map { $0.versionLine(program: "shop", version: "1.2.3") }
    #expect(
      lines == [
        "shop 1.2.3 (release, PostgreSQL: no)", "shop 1.2.3 (release, PostgreSQL: yes)",
        "shop 1.2.3 (debug, PostgreSQL: no)", "shop 1.2.3 (debug, PostgreSQL: yes)",
      ])
  }
}
