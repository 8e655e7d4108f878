import ShopCore

/// The command line as a plain value: what to run and with which choices. Parsing it builds no
/// adapter and reads no environment; main.swift turns it into a wired app.
enum Invocation: Equatable {
  case help(Command?)
  case version
  case place(PlacementOptions, Cart)
  /// `input` nil means standard input (no FILE, or `-`).
  case batch(PlacementOptions, input: String?)
  case orders(ordersPath: String?, listing: Listing)
  case catalog(catalogPath: String?, json: Bool)
}

/// The commands, as they are typed. `help` is not one of them: it only names one.
enum Command: String, CaseIterable, Equatable {
  case place, batch, orders, catalog
}

/// The choices `place` and `batch` share.
struct PlacementOptions: Equatable {
  var report = ReportStyle.text
  /// `--catalog`; nil leaves the choice to `$SHOP_CATALOG`, then the built-in catalog.
  var catalogPath: String?
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  var ordersPath: String?
  var memory = false
}

enum ReportStyle: Equatable {
  case text, quiet, json
}

/// How `shop orders` shows the orders.
enum Listing: Equatable {
  case text, json, count
}
