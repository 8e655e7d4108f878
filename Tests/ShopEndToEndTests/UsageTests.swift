import Foundation
import Testing

/// Usage errors, help and version: the swift-argument-parser look, exit 64 or 0.
struct UsageTests {
  static let placeUsage =
    "Usage: shop place [options] SKU=QTY...\n  See 'shop place --help' for more information.\n"

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
    (["place", "p'n=1"], "'p\\x27n=1': SKU must be 1-64 letters, digits, '-', '_' or '.'"),
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
    (["place", "pen=1", "--orders"], "missing value for '--orders <path>'"),
    (["place", "--orders", "--json", "pen=1"], "missing value for '--orders <path>'"),
    (["place", "--orders=", "pen=1"], "'--orders' needs a non-empty path"),
    (["place", "--json=yes", "pen=1"], "option '--json' takes no value"),
  ])
  func placeUsageErrors(arguments: [String], message: String) throws {
    let run = try Shop().run(arguments)
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
      ["orders", "--json", "--count"],
      "Error: --json and --count can't be used together\nUsage: shop orders [--orders PATH] [--json | --count]\n  See 'shop orders --help' for more information.\n"
    ),
    (
      ["orders", "extra"],
      "Error: unexpected argument 'extra'\nUsage: shop orders [--orders PATH] [--json | --count]\n  See 'shop orders --help' for more information.\n"
    ),
    (
      ["catalog", "--memory"],
      "Error: unknown option '--memory'\nUsage: shop catalog [--catalog PATH] [--json]\n  See 'shop catalog --help' for more information.\n"
    ),
    (
      ["help", "nosuch"],
      "Error: unknown command 'nosuch'\nUsage: shop <command> [options]\n  See 'shop --help' for more information.\n"
    ),
  ])
  func otherUsageErrors(arguments: [String], stderr: String) throws {
    let run = try Shop().run(arguments)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == stderr)
  }

  @Test func helpIsTheSameTextEveryWay() throws {
    let shop = try Shop()
    let top = try shop.run([])
    #expect(top.status == 0 && top.stderr == "")
    for arguments in [["--help"], ["-h"], ["help"], ["help", "--help"]] {
      #expect(try shop.run(arguments).stdout == top.stdout)
    }
    for section in ["OVERVIEW:", "USAGE: shop <command> [options]", "OPTIONS:", "SUBCOMMANDS:"] {
      #expect(top.stdout.contains(section))
    }
    for command in ["place", "batch", "orders", "catalog"] {
      let help = try shop.run("help", command)
      #expect(help.status == 0)
      #expect(help.stdout.hasPrefix("OVERVIEW: "))
      #expect(help.stdout.contains("USAGE: shop \(command)"))
      #expect(try shop.run(command, "--help").stdout == help.stdout)
      #expect(try shop.run(command, "-h").stdout == help.stdout)
    }
    let place = try shop.run("help", "place").stdout
    for section in [
      "ARGUMENTS:", "<SKU=QTY>", "-q, --quiet", "--json", "--catalog <path>", "--orders <path>",
      "--memory",
    ] {
      #expect(place.contains(section))
    }
  }

  @Test func version() throws {
    let run = try Shop().run("--version")
    #expect(run.status == 0)
    #expect(run.stdout.split(separator: ".").count == 3)
  }
}
