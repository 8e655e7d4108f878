import ShopConventions
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
  case catalog(catalogPath: FilePath?, format: CatalogFormat, explain: Bool)
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

/// How `orders` and `summary` print, as `--json` and `--csv` ask: one choice, since the two
/// can't be given together. The root builds the listing it names.
package enum ListingFormat: Equatable {
  case text, json, csv
}

/// How `catalog` prints, as `--json` asks. The root builds the listing it names.
package enum CatalogFormat: Equatable {
  case text, json
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
  package var style = ListingFormat.text
  package var selection = OrderSelection.all
  package var explain = false
  /// `--since` and `--until`.
  package var range = TimeRange.all
  /// `--sku`: only the orders that hold it.
  package var sku: String?
}

/// The choices of `shop summary`.
package struct SummaryOptions: Equatable {
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  package var ordersPath: FilePath?
  package var style = ListingFormat.text
  package var range = TimeRange.all
  /// `--by`: how the rows are grouped; none without it.
  package var grouping = Summary.Grouping.none
  package var explain = false
  /// `--sku`: that SKU's sums alone.
  package var sku: String?
}
