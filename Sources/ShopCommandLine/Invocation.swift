import ShopAdapters
import ShopCore

/// The command line as a plain value: what to run and with which choices. Parsing it builds no
/// adapter and reads no environment; the root (`runShop`) turns it into a wired app.
package enum Invocation: Equatable {
  /// Help for `shop`, or for one command.
  case help(Command?)
  case version
  case place(PlacementOptions, Cart, Reference?)
  /// `input` nil means standard input (no FILE, or `-`).
  case batch(PlacementOptions, input: FilePath?)
  case void(VoidOptions, number: Int, Reference?)
  case orders(OrdersOptions)
  case summary(SummaryOptions)
  case catalog(catalogPath: FilePath?, json: Bool, explain: Bool)
  case completions(Shell)
  case manual
}

/// The commands, as they are typed; each is described in ``CommandLineDescription/shop``.
package enum Command: String, CaseIterable, Equatable {
  case place, batch, void, orders, summary, catalog, help, completions, manual
}

/// The shells `shop completions` writes a script for.
package enum Shell: String, CaseIterable, Equatable {
  case bash, zsh, fish
}

/// How reports of placed orders are written, as `-q` and `--json` ask.
package enum ReportStyle: Equatable {
  case text, quiet, json
}

/// The choices `place` and `batch` share.
package struct PlacementOptions: Equatable {
  package var report = ReportStyle.text
  /// `--catalog`; nil leaves the choice to `$SHOP_CATALOG`, then the built-in catalog.
  package var catalogPath: FilePath?
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  package var ordersPath: FilePath?
  package var memory = false
  /// `--explain`: print what would be built and why, and touch nothing.
  package var explain = false
}

/// The choices of `shop void`.
package struct VoidOptions: Equatable {
  package var report = ReportStyle.text
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  package var ordersPath: FilePath?
  package var explain = false
}

/// The choices of `shop orders`.
package struct OrdersOptions: Equatable {
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  package var ordersPath: FilePath?
  package var json = false
  package var selection = OrderSelection.all
  package var explain = false
  package var csv = false
  /// `--since` and `--until`.
  package var range = TimeRange.all
  /// `--sku`: only the orders that hold it.
  package var sku: String?

  /// What the listing is, and why, for `--explain`.
  package var listingWhy: String {
    let form: String
    switch selection {
    case .all: form = sku == nil ? "every order and void" : "every order"
    case .count:
      form = "the count of records, orders and voids (from \(OptionDescription.count.long))"
    case .last(let count): form = "the newest \(count) (from \(OptionDescription.last.long))"
    case .numbers(let numbers): form = "orders " + numbers.map { "\($0)" }.joined(separator: ", ")
    case .reference(let reference):
      form = "the order with ref \(reference) (from \(OptionDescription.reference.long))"
    }
    let range =
      self.range.isAll
      ? ""
      : " placed in the range of \(OptionDescription.since.long) and \(OptionDescription.until.long)"
    // Only the forms this selection can take: a count is a number, and numbers have no CSV.
    let others: String
    switch selection {
    case .count: others = "a count has no other form"
    case .numbers: others = "default; \(OptionDescription.json.long)"
    default: others = "default; \(OptionDescription.json.long) or \(OptionDescription.csv.long)"
    }
    let style =
      json
      ? "JSON (from \(OptionDescription.json.long))"
      : csv ? "CSV (from \(OptionDescription.csv.long))" : "text (\(others))"
    let holding = sku.map { " that hold \($0) (from \(OptionDescription.skuSought.long))" } ?? ""
    return "\(form)\(holding)\(range), as \(style), to standard output"
  }
}

/// The choices of `shop summary`.
package struct SummaryOptions: Equatable {
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  package var ordersPath: FilePath?
  package var json = false
  package var range = TimeRange.all
  package var grouping = Summary.Grouping.none
  package var explain = false
  package var csv = false
  /// `--sku`: that SKU's sums alone.
  package var sku: String?

  /// What the summary is, and why, for `--explain`.
  package var summaryWhy: String {
    let rows: String
    switch grouping {
    case .none:
      rows =
        "one line of sums (default; \(OptionDescription.by.long) day or \(OptionDescription.by.long) sku for rows)"
    case .day: rows = "one line per UTC day (from \(OptionDescription.by.long) day)"
    case .sku: rows = "one line per SKU (from \(OptionDescription.by.long) sku)"
    }
    let range =
      self.range.isAll
      ? "every order"
      : "the orders placed in the range of \(OptionDescription.since.long) and \(OptionDescription.until.long)"
    let style =
      json
      ? "JSON (from \(OptionDescription.json.long))"
      : csv
        ? "CSV (from \(OptionDescription.csv.long))"
        : "text (default; \(OptionDescription.json.long) or \(OptionDescription.csv.long))"
    let what =
      sku.map { "the line of \($0) alone (from \(OptionDescription.skuSummed.long))" } ?? rows
    return "\(what) of \(range), as \(style), to standard output"
  }
}

extension Invocation {
  /// The store options of a command that uses a store: `--orders` and `--memory`.
  package var storeOptions: (flag: FilePath?, memory: Bool)? {
    switch self {
    case .place(let options, _, _), .batch(let options, _):
      return (options.ordersPath, options.memory)
    case .void(let options, _, _): return (options.ordersPath, false)
    case .orders(let options): return (options.ordersPath, false)
    case .summary(let options): return (options.ordersPath, false)
    default: return nil
    }
  }
}
