import ShopAdapters
import ShopCore

/// The command line as a plain value: what to run and with which choices. Parsing it builds no
/// adapter and reads no environment; main.swift turns it into a wired app.
enum Invocation: Equatable {
  /// Help for `shop`, or for one command.
  case help(Command?)
  case version
  case place(PlacementOptions, Cart, Reference?)
  /// `input` nil means standard input (no FILE, or `-`).
  case batch(PlacementOptions, input: FilePath?)
  case orders(OrdersOptions)
  case catalog(catalogPath: FilePath?, json: Bool)
  case completions(Shell)
  case manual
}

/// The commands, as they are typed; each is described in ``CommandLineDescription/shop``.
enum Command: String, CaseIterable, Equatable {
  case place, batch, orders, catalog, help, completions, manual
}

/// The shells `shop completions` writes a script for.
enum Shell: String, CaseIterable, Equatable {
  case bash, zsh, fish
}

/// The choices `place` and `batch` share.
struct PlacementOptions: Equatable {
  var report = ReportStyle.text
  /// `--catalog`; nil leaves the choice to `$SHOP_CATALOG`, then the built-in catalog.
  var catalogPath: FilePath?
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  var ordersPath: FilePath?
  var memory = false
}

enum ReportStyle: Equatable {
  case text, quiet, json
}

/// The choices of `shop orders`.
struct OrdersOptions: Equatable {
  /// `--orders`; nil leaves the choice to `$SHOP_ORDERS`, then the default file.
  var ordersPath: FilePath?
  var json = false
  var selection = OrderSelection.all
}

/// Which orders `shop orders` shows.
enum OrderSelection: Equatable {
  /// Every order, oldest first.
  case all
  /// Only how many there are (`--count`).
  case count
  /// The newest N (`--last N`).
  case last(Int)
  /// These numbers, in the order given.
  case numbers([Int])
  /// The order that holds this reference (`--ref REF`).
  case reference(Reference)
}
