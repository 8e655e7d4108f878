import Foundation
import ShopAdapters
import ShopTestSupport
import Testing

/// The composition root called in-process: each choice it makes, each step of the
/// precedence, and `--explain` saying what the command then does.
struct RootTests {
  /// Every way to name the orders file, and where the order must then land.
  enum StoreCase: CaseIterable {
    case flag, variable, xdg, home, relativeXDG, memory

    func arguments(_ harness: RootHarness) -> [String] {
      switch self {
      case .flag: return ["--orders", harness.folder.file("flag.jsonl")]
      case .memory: return ["--memory"]
      default: return []
      }
    }

    func environment(_ harness: RootHarness) -> [String: String] {
      var variables: [String: String] = [:]
      // Each later step also has the earlier steps' lower-precedence variables set, so the
      // order of precedence is what is tested, not only each one alone.
      switch self {
      case .flag, .variable:
        variables["SHOP_ORDERS"] = harness.folder.file("variable.jsonl")
        variables["XDG_DATA_HOME"] = harness.folder.file("xdg")
      case .xdg: variables["XDG_DATA_HOME"] = harness.folder.file("xdg")
      case .relativeXDG: variables["XDG_DATA_HOME"] = "relative/xdg"
      case .home, .memory: break
      }
      return variables
    }

    /// The file the order lands in; nil for memory.
    func file(_ harness: RootHarness) -> String? {
      switch self {
      case .flag: return harness.folder.file("flag.jsonl")
      case .variable: return harness.folder.file("variable.jsonl")
      case .xdg: return harness.folder.file("xdg") + "/shop/orders.jsonl"
      case .home, .relativeXDG: return harness.defaultOrders
      case .memory: return nil
      }
    }

    var why: String {
      switch self {
      case .flag: return "(from --orders)"
      case .variable: return "(from $SHOP_ORDERS)"
      case .xdg: return "(default: $XDG_DATA_HOME/shop/orders.jsonl; $SHOP_ORDERS unset)"
      case .home:
        return
          "(default: $HOME/.local/share/shop/orders.jsonl; $SHOP_ORDERS and $XDG_DATA_HOME unset)"
      case .relativeXDG:
        return "(default: $HOME/.local/share/shop/orders.jsonl; $SHOP_ORDERS unset; "
          + "$XDG_DATA_HOME 'relative/xdg' is relative, so ignored)"
      case .memory: return "(from --memory)"
      }
    }
  }

  enum CatalogCase: CaseIterable {
    case flag, variable, builtIn
  }

  @Test(arguments: StoreCase.allCases, CatalogCase.allCases)
  func explainSaysWhereTheOrderGoesAndTheCommandPutsItThere(
    store: StoreCase, catalog: CatalogCase
  ) throws {
    let harness = try RootHarness()
    let flagCatalog = try harness.folder.write("flag.csv", "pen,7\n")
    let variableCatalog = try harness.folder.write("variable.csv", "pen,8\n")
    var environment = store.environment(harness)
    var arguments = ["place"] + store.arguments(harness)
    switch catalog {
    case .flag:
      arguments += ["--catalog", flagCatalog]
      environment["SHOP_CATALOG"] = variableCatalog
    case .variable: environment["SHOP_CATALOG"] = variableCatalog
    case .builtIn: break
    }
    let explained = try harness.run(arguments + ["--explain", "pen=1"], environment: environment)
    #expect(explained.status == 0, "\(explained)")
    #expect(explained.stderr.isEmpty)
    let lines = explained.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(explained)")
    // Nothing was made: no file, no folder.
    for file in ["flag.jsonl", "variable.jsonl", "xdg", "home/.local"] {
      #expect(!FileManager.default.fileExists(atPath: harness.folder.file(file)), "\(file)")
    }
    let ordersLine = try #require(lines.first { $0.hasPrefix("orders:") })
    if let file = store.file(harness) {
      #expect(ordersLine == "orders:  file \(file) \(store.why)")
    } else {
      #expect(ordersLine == "orders:  memory, for this run only \(store.why)")
    }
    let catalogLine = try #require(lines.first { $0.hasPrefix("catalog:") })
    let price: Int
    switch catalog {
    case .flag:
      #expect(catalogLine == "catalog: file \(flagCatalog) (from --catalog)")
      price = 7
    case .variable:
      #expect(catalogLine == "catalog: file \(variableCatalog) (from $SHOP_CATALOG)")
      price = 8
    case .builtIn:
      #expect(catalogLine.hasPrefix("catalog: built-in: pen 30, lamp 190 (default"))
      price = 30
    }
    #expect(
      lines.contains("report:  text to standard output (default; -q for none, --json for JSON)"))
    #expect(lines.last?.hasPrefix("clock:   fixed clock") == true)

    let placed = try harness.run(arguments + ["pen=1"], environment: environment)
    #expect(placed.stdout == "order 1001 for \(price)\n", "\(placed)")
    if let file = store.file(harness) {
      let stored = try harness.lines(of: file)
      #expect(stored.count == 1)
      #expect(stored.first?.contains(#""price":\#(price)"#) == true)
    }
    // Exactly one store received it.
    let others = StoreCase.allCases.compactMap { $0.file(harness) }.filter {
      $0 != store.file(harness)
    }
    for other in Set(others) { #expect(!FileManager.default.fileExists(atPath: other), "\(other)") }
  }

  @Test func explainNamesTheBatchInputTheReportAndTheListing() throws {
    let harness = try RootHarness()
    let input = harness.folder.file("in.txt")
    let batch = try harness.run("batch", "--explain", "-q", input)
    #expect(batch.stdout.hasPrefix("input:   file \(input) (FILE)\n"), "\(batch)")
    #expect(
      batch.stdout.contains(
        "report:  none; batch lines not placed are told on standard error (from -q)\n"))
    let json = try harness.run("batch", "--explain", "--json")
    #expect(json.stdout.hasPrefix("input:   standard input (no FILE, or -)\n"))
    #expect(json.stdout.contains("report:  JSON to standard output (from --json)\n"))
    let orders = try harness.run("orders", "--explain", "--last", "3", "--json")
    #expect(
      orders.stdout
        == "orders:  file \(harness.defaultOrders) (default: $HOME/.local/share/shop/orders.jsonl; $SHOP_ORDERS and $XDG_DATA_HOME unset)\n"
        + "wait:    at most 30 s for a writer's lock, then 75 (default; $SHOP_TIMEOUT for another)\n"
        + "listing: the newest 3 (from --last), as JSON (from --json), to standard output\n")
    let summary = try harness.run(
      ["summary", "--explain", "--by", "sku", "--since", "2026-12-01"],
      environment: ["SHOP_ORDERS": harness.folder.file("s.jsonl")])
    #expect(
      summary.stdout == "orders:  file \(harness.folder.file("s.jsonl")) (from $SHOP_ORDERS)\n"
        + "wait:    at most 30 s for a writer's lock, then 75 (default; $SHOP_TIMEOUT for another)\n"
        + "listing: one line per SKU (from --by sku) of the orders placed in the range of "
        + "--since and --until, as text (default; --json or --csv), to standard output\n",
      "\(summary)")
    let catalog = try harness.run("catalog", "--explain")
    #expect(catalog.stdout.hasPrefix("catalog: built-in"))
    #expect(
      catalog.stdout.hasSuffix("listing: text to standard output (default; --json for JSON)\n"))
    #expect(!FileManager.default.fileExists(atPath: harness.home + "/.local"))
  }

  @Test func explainNeverTouchesAStoreOrACatalogEvenWhenTheyAreBroken() throws {
    let harness = try RootHarness()
    let broken = try harness.folder.write("o.jsonl", "not an order\n")
    let missingFolder = harness.folder.file("no/such/folder/o.jsonl")
    for orders in [broken, missingFolder] {
      let run = try harness.run(
        "place", "--orders", orders, "--catalog", harness.folder.file("none.csv"), "--explain",
        "pen=1")
      #expect(run.status == 0, "\(run)")
      #expect(run.stdout.contains("orders:  file \(orders) (from --orders)"))
    }
    #expect(try harness.folder.read("o.jsonl") == "not an order\n")
    #expect(!FileManager.default.fileExists(atPath: harness.folder.file("no")))
  }

  @Test func explainShowsAURIWithoutItsPassword() throws {
    let harness = try RootHarness()
    for (uri, shown) in [
      ("postgresql://shop:e@db.example/shop", "postgresql://shop:***@db.example/shop"),
      ("postgres://u:secret@h:5432/d?sslmode=require", "postgres://u:***@h:5432/d?sslmode=require"),
      (
        "postgresql:///shop?host=/run/pg&password=pw&user=e",
        "postgresql:///shop?host=/run/pg&password=***&user=e"
      ),
      ("postgresql://only-user@host/db", "postgresql://only-user@host/db"),
      // The key percent-encoded, as libpq decodes it.
      ("postgresql://h/db?pass%77ord=secret", "postgresql://h/db?pass%77ord=***"),
    ] {
      let run = try harness.run(["orders", "--explain"], environment: ["SHOP_ORDERS": uri])
      #expect(run.status == 0, "\(run)")
      #expect(run.stdout.hasPrefix("orders:  PostgreSQL \(shown) (from $SHOP_ORDERS)"), "\(run)")
      #expect(
        !run.stdout.contains("secret") && !run.stdout.contains(":e@") && !run.stdout.contains("=pw")
      )
    }
  }

  /// A URI's control characters, and those libpq's reading of its %-escapes makes, are
  /// escaped wherever it is shown: one line per port, one line per error.
  @Test func aURIIsShownEscapedInTheExplanationAndInErrors() throws {
    let harness = try RootHarness()
    let typed = Array("postgresql://u@127.0.0.1:1/d\n\u{1B}[2Jb".utf8) + [0xFF]
    let explained = try harness.runBytes(
      [Array("orders".utf8), Array("--explain".utf8)] + [
        Array("--orders".utf8), typed,
      ])
    #expect(explained.status == 0)
    #expect(
      explained.stdout.split(separator: "\n").first
        == "orders:  PostgreSQL postgresql://u@127.0.0.1:1/d\\x0A\\x1B[2Jb%FF (from --orders)",
      "\(explained)")
    #expect(explained.stdout.split(separator: "\n").count == 2)
    let refused = try harness.run(["orders", "--orders", "postgresql://u@127.0.0.1:1/d%0A%1Bb"])
    #expect(refused.status == 69, "\(refused)")
    #expect(refused.stderr.hasPrefix("Error: the orders database 'd\\x0A\\x1Bb' on 127.0.0.1:1: "))
    #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
  }

  /// Not only reports: no explanation, help, listing or error may land among the orders,
  /// whichever standard stream is the orders file and whatever names it.
  @Test(arguments: StandardStream.allCases)
  func nothingShopPrintsLandsInTheOrdersFileWhateverTheCommand(stream: StandardStream) throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("orders.jsonl")
    try harness.run("place", "--orders", orders, "lamp=1")
    let before = try Data(contentsOf: URL(fileURLWithPath: orders))
    let commands = [
      ["place", "--explain", "pen=1"], ["place", "-q", "pen=1"], ["batch", "--explain"],
      ["orders"], ["orders", "--explain"], ["orders", "--json", "--explain"], ["summary"],
      ["summary", "--explain"], ["catalog"], ["catalog", "--explain"], ["help"],
      ["help", "orders"], ["--version"], ["completions", "bash"], ["manual"],
      ["place", "--help"], ["orders", "--help"],
    ]
    for command in commands {
      for named in [["SHOP_ORDERS": orders], ["XDG_DATA_HOME": harness.folder.path + "/x"]] {
        let arguments = named["SHOP_ORDERS"] == nil ? command + ["--orders", orders] : command
        // `--orders` is taken by the commands that use a store; the others, by the variable.
        guard
          named["SHOP_ORDERS"] != nil
            || ["place", "batch", "orders", "summary"].contains(command[0])
        else { continue }
        let run = try harness.run(
          arguments, environment: named, streamsWriteTo: [(stream, orders)])
        #expect(run.status == 73, "\(arguments) \(named): \(run)")
        #expect(run.stdout.isEmpty, "\(arguments): \(run)")
        // What would have gone to the orders file is not printed at all.
        #expect(
          run.stderr
            == (stream == .output
              ? "Error: '\(orders)' is also standard output: what shop prints would land among "
                + "the orders\n" : ""),
          "\(arguments): \(run)")
      }
    }
    // A usage error is told, with its own status, on standard error unless that is the file.
    let usage = try harness.run(
      ["orders", "--count", "--json"], environment: ["SHOP_ORDERS": orders],
      streamsWriteTo: [(stream, orders)])
    #expect(usage.status == 64 && usage.stdout.isEmpty)
    #expect(usage.stderr.isEmpty == (stream == .errors), "\(usage)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: orders)) == before)
  }

  /// The store the environment names (the variable, XDG_DATA_HOME's or HOME's default) is
  /// the store of every command without `--orders`: a command that uses `--memory` or
  /// another file prints into it no more than one that uses it.
  @Test(arguments: StandardStream.allCases)
  func theEnvironmentsStoreIsNeverPrintedIntoByACommandUsingAnother(stream: StandardStream)
    throws
  {
    let harness = try RootHarness()
    let other = harness.folder.file("other.jsonl")
    let xdg = harness.folder.path + "/xdg"
    let places: [(String, [String: String])] = [
      (harness.folder.file("named.jsonl"), ["SHOP_ORDERS": harness.folder.file("named.jsonl")]),
      (xdg + "/shop/orders.jsonl", ["XDG_DATA_HOME": xdg]),
      (harness.home + "/.local/share/shop/orders.jsonl", [:]),
    ]
    let commands = [
      ["place", "--memory", "pen=1"], ["place", "--memory", "chair=1"],
      ["place", "--memory", "--explain", "pen=1"], ["batch", "--memory"],
      ["place", "--orders", other, "pen=1"], ["place", "--orders", other, "chair=1"],
      ["orders", "--orders", other], ["summary", "--orders", other],
      ["orders", "--orders", other, "--count", "--json"],
    ]
    for (store, environment) in places {
      try harness.run(["place", "lamp=1"], environment: environment)
      let before = try Data(contentsOf: URL(fileURLWithPath: store))
      for command in commands {
        let run = try harness.run(
          command, input: "pen=1\n", environment: environment,
          streamsWriteTo: [(stream, store)])
        // A usage error keeps its own status, and is told unless standard error is the store.
        let status = command.contains("--count") ? 64 : 73
        #expect(run.status == status, "\(command) \(environment): \(run)")
        #expect(run.stdout.isEmpty, "\(command) \(environment): \(run)")
        if stream == .errors { #expect(run.stderr.isEmpty, "\(command): \(run)") }
        #expect(
          try Data(contentsOf: URL(fileURLWithPath: store)) == before,
          "\(command) \(environment)")
      }
    }
  }

  /// The forms `--explain` offers besides text are ones the command line takes with the same
  /// selection: each, added to it, runs; and a selection with other forms offers some.
  @Test func theFormsAnExplanationOffersAreOnesTheCommandTakes() throws {
    let harness = try RootHarness()
    try harness.run("place", "--ref", "a", "pen=1")
    try harness.run("place", "lamp=1")
    let selections = [
      [], ["--count"], ["--last", "2"], ["1001"], ["1001", "1002"], ["--ref", "a"],
      ["--since", "2026-01-01"], ["--count", "--until", "2030-01-01"],
      ["--last", "1", "--since", "2026-01-01"],
    ]
    for selection in selections {
      let explained = try harness.run(["orders", "--explain"] + selection)
      let listing = try #require(
        explained.stdout.split(separator: "\n").first { $0.hasPrefix("listing:") },
        "\(selection): \(explained)")
      let text = try #require(listing.range(of: "as text ("), "\(listing)")
      let offered = listing[text.upperBound...].prefix { $0 != ")" }
        .split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "," })
        .filter { $0.hasPrefix("--") }
      #expect(offered.isEmpty == selection.contains("--count"), "\(selection): \(listing)")
      for option in offered {
        let run = try harness.run(["orders"] + selection + [String(option)])
        #expect(run.status == 0, "\(selection) \(option): \(run)")
      }
    }
  }

  @Test func explainSaysAURIThatTheCommandRefusesWithItsStatusAndMessage() throws {
    let harness = try RootHarness()
    for uri in [
      "postgresql://u:secret@h/db?shop_timeout=abc", "postgresql://u:secret@h/db?shop_timeout=0",
    ] {
      let explained = try harness.run(["place", "--explain", "--orders", uri, "pen=1"])
      let run = try harness.run(["place", "--orders", uri, "pen=1"])
      #expect(run.status == 64, "\(run)")
      let message = String(run.stderr.dropFirst("Error: ".count).prefix { $0 != "\n" })
      #expect(explained.status == 0)
      #expect(
        explained.stdout.contains("the command would stop with 64: \(message)"), "\(explained)")
      #expect(!explained.stdout.contains("secret"))
    }
  }

  /// `--last N` of a range counts back as `--last N` does, also when the last line lacks only
  /// its newline (a whole order, listed).
  @Test func theNewestOfARangeAreTheNewestEvenWithoutAFinalNewline() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    for _ in 0..<3 { try harness.run("place", "--orders", orders, "pen=1") }
    let text = try harness.folder.read("o.jsonl")
    try Data(text.dropLast().utf8).write(to: URL(fileURLWithPath: orders))
    for arguments in [["--last", "1"], ["--since", "2026-01-01", "--last", "1"]] {
      let run = try harness.run(["orders", "--orders", orders] + arguments)
      #expect(run.status == 0, "\(run)")
      #expect(run.stdout.split(separator: "\n").map { $0.prefix(4) } == ["1003"], "\(arguments)")
    }
    let two = try harness.run("orders", "--orders", orders, "--since", "2026-01-01", "--last", "2")
    #expect(two.stdout.split(separator: "\n").map { $0.prefix(4) } == ["1002", "1003"])
  }

  @Test func noPlaceForTheOrdersIsSaidByExplainAndIs73() throws {
    let harness = try RootHarness()
    for home in ["", "relative/home"] {
      let explained = try harness.run(["place", "--explain", "pen=1"], environment: ["HOME": home])
      #expect(explained.status == 0)
      #expect(explained.stdout.contains("orders:  none ("), "\(explained)")
      #expect(explained.stdout.contains("the command would stop with 73"))
      let placed = try harness.run(["place", "pen=1"], environment: ["HOME": home])
      #expect(placed.status == 73, "\(placed)")
      #expect(placed.stderr.contains("no place for the orders file"))
      // A catalog that can't be read changes neither: explain reads no catalog, and the
      // command finds no place for its orders before it reads one.
      let none = harness.folder.file("none.csv")
      for command in [["place", "--catalog", none, "pen=1"], ["batch", "--catalog", none]] {
        let explainedToo = try harness.run(
          command + ["--explain"], input: "pen=1\n", environment: ["HOME": home])
        #expect(explainedToo.stdout.contains("the command would stop with 73"), "\(explainedToo)")
        let run = try harness.run(command, input: "pen=1\n", environment: ["HOME": home])
        #expect(run.status == 73, "\(command): \(run)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: "relative"))
  }

  @Test func aClosedStandardOutputStopsBeforeAnythingIsPlaced() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    let run = try harness.run(["place", "--orders", orders, "pen=1"], closed: (false, true))
    #expect(run.status == 74)
    #expect(!FileManager.default.fileExists(atPath: orders))
    let quiet = try harness.run(
      ["place", "-q", "--orders", orders, "pen=1"], closed: (false, true))
    #expect(quiet.status == 0)
    let batch = try harness.run(["batch", "-q", "--orders", orders], closed: (true, false))
    #expect(batch.status == 66)
  }

  @Test func aBatchThatStopsSaysWhichOrderItReportedLast() throws {
    let harness = try RootHarness()
    let orders = harness.folder.file("o.jsonl")
    let input = "pen=1\npen=2\n"
    // Standard output fails at the first delivery: the group is saved, none of it reported.
    let failing = BufferSink(failure: SystemError(call: "write", code: 28))
    let run = try harness.run(["batch", "--orders", orders], input: input, output: failing)
    #expect(run.status == 74, "\(run)")
    #expect(try harness.lines(of: orders).count == 2)
    #expect(!run.stderr.contains("the last order this batch reported"), "nothing was reported")
    #expect(
      run.stderr
        == "Error: cannot write 'standard output': No space left on device; the last order this "
        + "batch saved is 1002; none of its reports is known to have arrived\n")
  }

  /// A report that can't be written after its orders were saved says which were saved, so
  /// nobody places them again: the group reported before it, and the one saved after.
  @Test func aReportThatFailsAfterTheOrdersWereSavedSaysWhichWere() throws {
    let harness = try RootHarness()
    let full = SystemError(call: "write", code: 28)
    let orders = harness.folder.file("o.jsonl")
    let place = try harness.run(
      ["place", "--orders", orders, "pen=1"], output: BufferSink(failure: full))
    #expect(place.status == 74)
    #expect(
      place.stderr
        == "Error: cannot write 'standard output': No space left on device; order 1001 was "
        + "saved, but its report may not have arrived\n")
    // A batch's first group is 16,384 lines; its reports fit, the second group's do not. Into
    // a file, both groups go the priced way, which tells its reports itself.
    let reports = (1001...17384).map { "order \($0) for 30\n".utf8.count }.reduce(0, +)
    for store in [["--memory"], ["--orders", harness.folder.file("batch.jsonl")]] {
      let batch = try harness.run(
        ["batch"] + store, input: String(repeating: "pen=1\n", count: 16_386),
        output: BufferSink(failure: full, limit: reports + 10))
      #expect(batch.status == 74)
      #expect(
        batch.stderr
          == "Error: cannot write 'standard output': No space left on device; the last order "
          + "this batch saved is 17386; the last order this batch reported is 17384\n")
    }
    let saved = try harness.folder.read("batch.jsonl").split(separator: "\n")
    #expect(saved.count == 16_386 && saved.last?.hasPrefix(#"{"number":17386,"#) == true)
    // An order placed already, reported again, was saved before: the failure is the report's.
    let again = try harness.run(
      ["place", "--orders", orders, "--ref", "web-1", "pen=1"], output: BufferSink())
    #expect(again.status == 0)
    let repeated = try harness.run(
      ["place", "--orders", orders, "--ref", "web-1", "pen=1"], output: BufferSink(failure: full))
    #expect(repeated.status == 74)
    #expect(repeated.stderr == "Error: cannot write 'standard output': No space left on device\n")
  }
}
