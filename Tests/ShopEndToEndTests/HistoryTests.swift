import Foundation
import ShopAdapters
import ShopConventions
import ShopCore
import Testing

@testable import ShopCommandLine
@testable import shop

/// `--since`/`--until`, `--csv` and `summary` as the command line reads them, in process.
struct HistoryOptionsTests {
  func parse(_ words: String...) throws(UsageError) -> Invocation {
    try Invocation(parsing: words.map { Array($0.utf8) })
  }

  static let december1 = Timestamp(secondsSince1970: 1_796_083_200)
  static let december2 = Timestamp(secondsSince1970: 1_796_083_200 + 86400)

  @Test func aRangeAppliesToEveryListingFormButNumbers() throws {
    let range = TimeRange(
      since: HistoryOptionsTests.december1, until: HistoryOptionsTests.december2)
    #expect(
      try parse("orders", "--since", "2026-12-01", "--until=2026-12-02")
        == .orders(OrdersOptions(range: range)))
    #expect(
      try parse("orders", "--until", "2026-12-02T00:00Z", "--last", "3", "--since=2026-12-01")
        == .orders(OrdersOptions(selection: .last(3), range: range)))
    #expect(
      try parse("orders", "--count", "--since", "2026-12-01T00:00:00Z")
        == .orders(
          OrdersOptions(
            selection: .count, range: TimeRange(since: HistoryOptionsTests.december1, until: nil))))
    #expect(
      try parse("orders", "--csv", "--until", "2026-12-02")
        == .orders(
          OrdersOptions(
            style: .csv, range: TimeRange(since: nil, until: HistoryOptionsTests.december2))))
    #expect(try parse("orders", "--json", "--since", "2026-12-01") != .orders(OrdersOptions()))
    // Given twice, the last one counts, as for every option.
    #expect(
      try parse("orders", "--since", "2020-01-01", "--since", "2026-12-01")
        == .orders(
          OrdersOptions(range: TimeRange(since: HistoryOptionsTests.december1, until: nil))))
  }

  @Test func summaryForms() throws {
    #expect(try parse("summary") == .summary(SummaryOptions()))
    #expect(
      try parse("summary", "--by", "day", "--json", "--since", "2026-12-01")
        == .summary(
          SummaryOptions(
            style: .json, range: TimeRange(since: HistoryOptionsTests.december1, until: nil),
            grouping: .day)))
    #expect(try parse("summary", "--by=sku") == .summary(SummaryOptions(grouping: .sku)))
  }

  @Test func everyShellCompletesTheWordsOfBy() {
    #expect(
      Completions.bash(.shop).contains(
        #"--by) mapfile -t COMPREPLY < <(compgen -W "day sku" -- "$cur") && return ;;"#))
    #expect(
      Completions.zsh(.shop).contains(
        "'--by=[One line per day or per SKU: day or sku.]:group:(day sku)'"))
    #expect(Completions.fish(.shop).contains("-l by -x -a 'day sku' -d"))
    // A time has nothing to offer: no file names after --since.
    #expect(Completions.fish(.shop).contains("-l since -x -d"))
  }

  @Test(arguments: [
    (
      ["orders", "--since", "tomorrow"],
      "'--since' must be \(TimeArgument.forms), not 'tomorrow'"
    ),
    (
      ["summary", "--until=2026-02-30"],
      "'--until' must be \(TimeArgument.forms), not '2026-02-30'"
    ),
    (
      ["orders", "--since", "2026-12-01T09:30"],
      "'--since' must be \(TimeArgument.forms), not '2026-12-01T09:30'"
    ),
    (["orders", "--since"], "missing value for '--since <time>'"),
    (
      ["orders", "--since", "2026-12-02", "--until", "2026-12-01"],
      "'--until' '2026-12-01' must be later than '--since' '2026-12-02'"
    ),
    (
      ["summary", "--since", "2026-12-01", "--until", "2026-12-01T00:00Z"],
      "'--until' '2026-12-01T00:00Z' must be later than '--since' '2026-12-01'"
    ),
    (["orders", "--since", "2026-12-01", "1001"], "--since and NUMBER can't be used together"),
    (["orders", "1001", "--until", "2026-12-01"], "--until and NUMBER can't be used together"),
    (["orders", "--csv", "--json"], "--json and --csv can't be used together"),
    (["orders", "--csv", "--count"], "--csv and --count can't be used together"),
    (["orders", "--csv", "1001"], "--csv and NUMBER can't be used together"),
    (["summary", "--by", "week"], "unknown '--by' 'week': expected day or sku"),
    (["summary", "--by", "dya"], "unknown '--by' 'dya': did you mean 'day'?"),
    (["summary", "1001"], "unexpected argument '1001'"),
    (["summary", "--last", "1"], "unknown option '--last'"),
  ])
  func badValuesAreUsageErrorsNamingTheArgument(words: [String], expected: String) {
    let got: String?
    do {
      _ = try Invocation(parsing: words.map { Array($0.utf8) })
      got = nil
    } catch {
      #expect(error.status == .usage)
      got = error.reason
    }
    #expect(got == expected, "\(words)")
  }
}

/// The history through the root, in-process: what a shop owner runs.
struct HistoryTests {
  /// A sandbox whose orders file holds the orders of `lines`, placed by one batch.
  func shop(_ lines: [String]) throws -> (RootHarness, String) {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    let run = try shop.run(
      ["batch", "-q", "--orders", orders], input: lines.joined(separator: "\n"))
    #expect(run.status == 0, "\(run)")
    return (shop, orders)
  }

  /// `--until` is compared with `--since` as typed, to its last digit: later only by a
  /// fraction of a second is a range (empty when both count as one whole second), equal or
  /// earlier is 64. The orders are stamped 06:06:43.
  @Test(
    arguments: [
      ("06:06:42.2Z", "06:06:43Z", 0),
      ("06:06:42.2Z", "06:06:42.5Z", 0),
      ("06:06:42.2Z", "06:06:42.25Z", 0),
      ("06:06:42.999999Z", "06:06:43Z", 0),
      ("07:06:42.5+01:00", "06:06:42.6Z", 0),
      ("06:06:59.999Z", "06:06:60Z", 0),
      ("06:06:42.2Z", "06:06:43.5Z", 3),
      ("06:06:43Z", "06:06:43.001Z", 3),
      ("06:06:42.5Z", "06:06:42.2Z", nil),
      ("06:06:42.20Z", "06:06:42.2Z", nil),
      ("06:06:43Z", "06:06:43.000Z", nil),
      ("06:06:42.3Z", "06:06:42.25Z", nil),
      ("07:06:43+01:00", "06:06:43Z", nil),
    ] as [(String, String, Int?)])
  func untilIsComparedWithSinceAsTyped(since: String, until: String, count: Int?) throws {
    let (shop, orders) = try shop(["pen=1", "lamp=1", "pen=2"])
    let bounds = ["--since", "2026-11-30T" + since, "--until", "2026-11-30T" + until]
    let counted = try shop.run(["orders", "--count", "--orders", orders] + bounds)
    let summed = try shop.run(["summary", "--orders", orders] + bounds)
    if let count {
      #expect(counted.status == 0 && counted.stdout == "\(count)\n" && counted.stderr == "")
      #expect(summed.status == 0 && summed.stdout.hasPrefix("orders \(count)  "), "\(summed)")
    } else {
      for run in [counted, summed] {
        #expect(run.status == 64 && run.stdout == "", "\(run)")
        #expect(run.stderr.contains("must be later than '--since'"), "\(run)")
      }
    }
  }

  @Test func theSummaryIsTheSumOfTheListedOrders() throws {
    let items = ["pen=2 lamp=1", "lamp=1", "pen=1", "pen=9", "lamp=3 pen=1", "pen=7 lamp=1"]
    let (shop, orders) = try shop(items)
    // The sums computed here from the JSON listing, not by shop.
    let listed = try shop.run("orders", "--json", "--orders", orders).stdout
      .split(separator: "\n").map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
    let totals = listed.map { $0["total"] as? Int ?? -1 }
    let payables = listed.map { $0["payable"] as? Int ?? -1 }
    let total = totals.reduce(0, +)
    let payable = payables.reduce(0, +)
    #expect(listed.count == items.count)
    let summary = try shop.run("summary", "--orders", orders)
    #expect(summary.status == 0 && summary.stderr == "")
    #expect(
      summary.stdout
        == "orders 6  voided 0  total \(total)  payable \(payable)  discount \(total - payable)\n")
    var quantities: [String: (Int, Int, Int)] = [:]
    for order in listed {
      for item in order["items"] as? [[String: Any]] ?? [] {
        let sku = item["sku"] as? String ?? "?"
        let quantity = item["quantity"] as? Int ?? 0
        let price = item["price"] as? Int ?? 0
        let before = quantities[sku] ?? (0, 0, 0)
        quantities[sku] = (before.0 + quantity, before.1 + quantity * price, before.2 + 1)
      }
    }
    let bySKU = quantities.keys.sorted().map { sku in
      let (quantity, revenue, count) = quantities[sku] ?? (0, 0, 0)
      return "\(sku)  quantity \(quantity)  revenue \(revenue)  orders \(count)\n"
    }
    #expect(try shop.run("summary", "--orders", orders, "--by", "sku").stdout == bySKU.joined())
    let byDay = try shop.run("summary", "--orders", orders, "--by", "day", "--json").stdout
    let days = byDay.split(separator: "\n")
    // Placed just now: one day, or two across a midnight; and every order counted once.
    #expect(days.count == 1 || days.count == 2)
    #expect(days.map { $0.contains(#""orders":"#) }.allSatisfy { $0 })
    #expect(byDay.contains(#""day":"20"#))
    // An empty range: zero sums, no rows, status 0.
    let empty = try shop.run("summary", "--orders", orders, "--until", "2000-01-01")
    #expect(
      empty.status == 0 && empty.stdout == "orders 0  voided 0  total 0  payable 0  discount 0\n")
    #expect(
      try shop.run("summary", "--orders", orders, "--until", "2000-01-01", "--by", "day").stdout
        == "")
  }

  @Test func rangesOverADayBoundaryInEveryForm() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    // Orders on either side of midnight: as stored by shop, times never going down.
    let times = [
      "2026-11-30T23:59:58Z", "2026-11-30T23:59:59Z", "2026-12-01T00:00:00Z",
      "2026-12-01T00:00:01Z", "2026-12-02T12:00:00Z",
    ]
    var text = ""
    for (index, time) in times.enumerated() {
      text +=
        #"{"number":\#(1001 + index),"items":[{"sku":"pen","quantity":1,"price":30}],"#
        + #""total":30,"payable":30,"placedAt":"\#(time)"}"# + "\n"
    }
    try text.write(toFile: orders, atomically: false, encoding: .utf8)
    func numbers(_ arguments: String...) throws -> [String] {
      let run = try shop.run(["orders", "--orders", orders] + arguments)
      #expect(run.status == 0, "\(run)")
      return run.stdout.split(separator: "\n").map { String($0.prefix(4)) }
    }
    #expect(try numbers("--since", "2026-12-01") == ["1003", "1004", "1005"])
    #expect(try numbers("--until", "2026-12-01") == ["1001", "1002"])
    #expect(try numbers("--since", "2026-11-30", "--until", "2026-12-01") == ["1001", "1002"])
    #expect(
      try numbers("--since", "2026-11-30T23:59:59Z", "--until", "2026-12-01T00:00:01Z")
        == ["1002", "1003"])
    #expect(try numbers("--since", "2026-12-01", "--last", "2") == ["1004", "1005"])
    #expect(try numbers("--until", "2026-12-02", "--last", "1") == ["1004"])
    #expect(try numbers("--since", "2026-12-03").isEmpty)
    #expect(try numbers("--since", "2026-12-01", "--count") == ["3"])
    #expect(try numbers("--since", "2027-01-01", "--count") == ["0"])
    let json = try shop.run("orders", "--orders", orders, "--json", "--since", "2026-12-02")
    #expect(json.stdout == String(text.split(separator: "\n")[4]) + "\n")
    let csv = try shop.run("orders", "--orders", orders, "--csv", "--until", "2026-12-01")
    #expect(
      csv.stdout == "number,placedAt,items,total,payable,ref,voids,voidedBy\r\n"
        + "1001,2026-11-30T23:59:58Z,pen=1,30,30,,,\r\n1002,2026-11-30T23:59:59Z,pen=1,30,30,,,\r\n"
    )
    let byDay = try shop.run("summary", "--orders", orders, "--by", "day")
    #expect(
      byDay.stdout == "2026-11-30  orders 2  voided 0  total 60  payable 60  discount 0\n"
        + "2026-12-01  orders 2  voided 0  total 60  payable 60  discount 0\n"
        + "2026-12-02  orders 1  voided 0  total 30  payable 30  discount 0\n")
    let oneDay = try shop.run(
      "summary", "--orders", orders, "--since", "2026-12-01", "--until", "2026-12-02")
    #expect(oneDay.stdout == "orders 2  voided 0  total 60  payable 60  discount 0\n")
  }

  @Test func aBrokenNumberingStopsTheSummaryAndARangeWith65() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("orders.jsonl")
    var text = ""
    for number in [1001, 1002, 1004] {
      text +=
        #"{"number":\#(number),"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"#
        + #""payable":30,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    }
    try text.write(toFile: orders, atomically: false, encoding: .utf8)
    let message = "Error: \(orders):3: order 1004 follows order 1002: numbers must go up by one\n"
    for arguments in [
      ["summary"], ["summary", "--by", "day"], ["summary", "--by", "sku", "--json"],
      ["summary", "--since", "2026-11-30"], ["orders", "--since", "2026-11-30"],
      ["orders", "--csv"], ["orders", "--until", "2026-12-01", "--count"],
    ] {
      let run = try shop.run(arguments + ["--orders", orders])
      #expect(run.status == 65, "\(arguments)")
      #expect(run.stderr == message, "\(arguments)")
    }
    // A summary prints nothing when its sums are wrong: no partial total.
    #expect(try shop.run("summary", "--orders", orders).stdout == "")
  }

  @Test func aBadTimeIs64OnStandardErrorNamingTheOption() throws {
    let shop = try RootHarness()
    let run = try shop.run("orders", "--until", "2026-12-01T25:00Z")
    #expect(run.status == 64 && run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "Error: '--until' must be \(TimeArgument.forms), not '2026-12-01T25:00Z'\n"
          + "Usage: shop orders [options]"))
  }
}
