import ShopConventions
import ShopCore

/// What the adapter that would connect to a PostgreSQL store says of it on this machine, asked by
/// the root for `--explain`, as the command checks before connecting: the URI's own parameters,
/// then the library, then libpq's reading of the URI.
package enum DatabaseVerdict {
  case usable
  /// The URI is refused: the command would stop with this status and message.
  case refused(status: ExitStatus, message: String)
  /// This machine's libpq can't be used, and why.
  case unusable(String)
}

/// What `--explain` prints: one line per port the root would build for this command line,
/// what it is and why, made from the same ``Chosen`` decisions the root builds from.
package struct Explanation {
  private(set) var lines: [(port: String, text: String)] = []

  package var text: String {
    let width = (lines.map { $0.port.count }.max() ?? 0) + 2
    return lines.map { line in
      let label = line.port + ":"
      // A URI, or libpq's reading of it, may hold a control character: one line per port.
      return label + String(repeating: " ", count: width - label.count)
        + TerminalText.escaped(line.text.utf8) + "\n"
    }.joined()
  }

  package static func placement(
    input: FilePath??, catalog: Chosen<CatalogSource>, store: Chosen<StoreSource>,
    report: Chosen<ReportStyle>, clock: any WallClock, database: (String) -> DatabaseVerdict
  ) -> Explanation {
    var explanation = Explanation()
    if let input {
      let text = input.map { "file \(display($0))" } ?? "standard input"
      explanation.lines.append(("input", text + (input == nil ? " (no FILE, or -)" : " (FILE)")))
    }
    explanation.add(catalog)
    explanation.add(store, database: database)
    let style: String
    switch report.value {
    case .text: style = "text to standard output"
    case .quiet: style = "none; batch lines not placed are told on standard error"
    case .json: style = "JSON to standard output"
    }
    explanation.lines.append(("report", "\(style) (\(report.why))"))
    explanation.lines.append(("clock", "\(clock)"))
    return explanation
  }

  package static func void(
    _ store: Chosen<StoreSource>, report: Chosen<ReportStyle>, clock: any WallClock,
    database: (String) -> DatabaseVerdict
  ) -> Explanation {
    var explanation = Explanation()
    explanation.add(store, database: database)
    let style: String
    switch report.value {
    case .text: style = "text to standard output"
    case .quiet: style = "none; the exit status tells"
    case .json: style = "JSON to standard output"
    }
    explanation.lines.append(("report", "\(style) (\(report.why))"))
    explanation.lines.append(("clock", "\(clock)"))
    return explanation
  }

  /// `orders`: the store, then what is listed and how.
  package static func orders(
    _ store: Chosen<StoreSource>, _ options: OrdersOptions, style: Chosen<ListingFormat>,
    wait: Chosen<ReadWaitBound>, database: (String) -> DatabaseVerdict
  ) -> Explanation {
    let form: String
    switch options.selection {
    case .all: form = options.sku == nil ? "every order and void" : "every order"
    case .count:
      form = "the count of records, orders and voids (from \(OptionDescription.count.long))"
    case .last(let count): form = "the newest \(count) (from \(OptionDescription.last.long))"
    case .numbers(let numbers): form = "orders " + numbers.map { "\($0)" }.joined(separator: ", ")
    case .reference(let reference):
      form = "the order with ref \(reference) (from \(OptionDescription.reference.long))"
    }
    let holding =
      options.sku.map { " that hold \($0) (from \(OptionDescription.skuSought.long))" } ?? ""
    let range = options.range.isAll ? "" : " placed in " + inRange
    var explanation = Explanation()
    explanation.add(store, database: database)
    explanation.add(wait, for: store)
    explanation.lines.append(
      ("listing", "\(form)\(holding)\(range), as \(told(style)), to standard output"))
    return explanation
  }

  /// `summary`: the store, then which sums of which orders, and how.
  package static func summary(
    _ store: Chosen<StoreSource>, _ options: SummaryOptions, grouping: Chosen<Summary.Grouping>,
    style: Chosen<ListingFormat>, wait: Chosen<ReadWaitBound>, database: (String) -> DatabaseVerdict
  ) -> Explanation {
    let rows: String
    switch grouping.value {
    case .none: rows = "one line of sums (\(grouping.why))"
    case .day: rows = "one line per UTC day (\(grouping.why))"
    case .sku: rows = "one line per SKU (\(grouping.why))"
    }
    let what =
      options.sku.map { "the line of \($0) alone (from \(OptionDescription.skuSummed.long))" }
      ?? rows
    let range = options.range.isAll ? "every order" : "the orders placed in " + inRange
    var explanation = Explanation()
    explanation.add(store, database: database)
    explanation.add(wait, for: store)
    explanation.lines.append(
      ("listing", "\(what) of \(range), as \(told(style)), to standard output"))
    return explanation
  }

  /// How long a read waits for a writer's lock: only a file has one to wait for.
  private mutating func add(_ wait: Chosen<ReadWaitBound>, for store: Chosen<StoreSource>) {
    guard case .file = store.value else { return }
    switch wait.value {
    case .seconds(let seconds):
      lines.append(("wait", "at most \(seconds) s for a writer's lock, then 75 (\(wait.why))"))
    case .invalid(let value, let most):
      let error = BadReadWait(value: value, most: most)
      lines.append(
        ("wait", "none: the command would stop with \(error.status.rawValue): \(error.message)"))
    }
  }

  private static let inRange =
    "the range of \(OptionDescription.since.long) and \(OptionDescription.until.long)"

  /// `JSON (from --json)`, `text (default; --json or --csv)`.
  private static func told(_ style: Chosen<ListingFormat>) -> String {
    switch style.value {
    case .text: "text (\(style.why))"
    case .json: "JSON (\(style.why))"
    case .csv: "CSV (\(style.why))"
    }
  }

  package static func catalog(_ catalog: Chosen<CatalogSource>, format: Chosen<CatalogFormat>)
    -> Explanation
  {
    var explanation = Explanation()
    explanation.add(catalog)
    let told: String
    switch format.value {
    case .text: told = "text"
    case .json: told = "JSON"
    }
    explanation.lines.append(("listing", "\(told) to standard output (\(format.why))"))
    return explanation
  }

  private mutating func add(_ catalog: Chosen<CatalogSource>) {
    switch catalog.value {
    case .file(let path): lines.append(("catalog", "file \(display(path)) (\(catalog.why))"))
    case .builtIn(let prices):
      lines.append(
        ("catalog", "built-in: \(CommandLineDescription.told(prices)) (\(catalog.why))"))
    }
  }

  /// A PostgreSQL store is told with what `database` (the root's question to the adapter that
  /// would connect) says of it on this machine.
  private mutating func add(
    _ store: Chosen<StoreSource>, database: (String) -> DatabaseVerdict
  ) {
    let text: String
    switch store.value {
    case .memory: text = "memory, for this run only (\(store.why))"
    case .file(let path): text = "file \(Explanation.display(path)) (\(store.why))"
    case .postgreSQL(let uri):
      let verdict: String
      switch database(uri) {
      case .usable: verdict = ""
      case .refused(let status, let message):
        verdict = ": the command would stop with \(status.rawValue): \(message)"
      case .unusable(let why): verdict = "; this machine can't use it: \(why)"
      }
      text = "PostgreSQL \(ConnectionURI(uri)) (\(store.why))" + verdict
    case .notAURI(let uri, let why):
      let error = NotAURI(text: uri, why: why, from: store.why)
      text = "none: the command would stop with \(error.status.rawValue): \(error.message)"
    case .nowhere:
      text =
        "none (\(store.why)): the command would stop with \(NoOrdersLocation().status.rawValue)"
    }
    lines.append(("orders", text))
  }

  /// A path as typed, escaped where it is not printable UTF-8, without the quotes.
  private static func display(_ path: FilePath) -> String {
    String(path.description.dropFirst().dropLast())
  }

  private func display(_ path: FilePath) -> String { Explanation.display(path) }
}
