import ShopAdapters
import ShopCore

/// Where the orders are: a flag wins over `$SHOP_ORDERS`, which wins over the XDG default
/// `$XDG_DATA_HOME/shop/orders.jsonl`, with `XDG_DATA_HOME` defaulting to `$HOME/.local/share`.
/// Empty values count as unset, and a relative `XDG_DATA_HOME` is ignored, as the XDG Base
/// Directory specification says. Every value is used as the bytes it holds.
func ordersLocation(
  flag: FilePath?, shopOrders: [UInt8]?, xdgDataHome: [UInt8]?, home: [UInt8]?
) -> FilePath? {
  if let flag { return flag }
  if let shopOrders, !shopOrders.isEmpty { return FilePath(shopOrders) }
  if let xdgDataHome, xdgDataHome.first == UInt8(ascii: "/") {
    return FilePath(xdgDataHome).appending("shop/orders.jsonl")
  }
  if let home, !home.isEmpty { return FilePath(home).appending(".local/share/shop/orders.jsonl") }
  return nil
}

/// No flag, variable or home folder says where the orders file is.
struct NoOrdersLocation: ShopError {
  var status: ExitStatus { .cannotCreate }
  var message: String {
    "no place for the orders file: set --orders, SHOP_ORDERS, XDG_DATA_HOME or HOME"
  }
}

/// `--orders` or `SHOP_ORDERS` names a PostgreSQL database, and this `shop` was built without it.
struct PostgreSQLNotBuilt: ShopError {
  /// `postgresql://` or `postgres://`, as the user typed it.
  var scheme: String
  /// `--orders` or `SHOP_ORDERS`: where the URI came from.
  var source: String

  /// The README's build of the PostgreSQL binary, word for word (a test compares them).
  static let buildCommand =
    "swift build -c release --traits PostgreSQL --scratch-path .build/postgresql"

  /// For `location`, found as ``ordersLocation(flag:shopOrders:xdgDataHome:home:)`` finds it.
  init(_ location: FilePath, flag: FilePath?, shopOrders: [UInt8]?) {
    scheme = location.hasPrefix("postgres://") ? "postgres://" : "postgresql://"
    // XDG_DATA_HOME must start with `/`, so only an odd HOME is left.
    if flag != nil {
      source = "--orders"
    } else if let shopOrders, !shopOrders.isEmpty {
      source = "SHOP_ORDERS"
    } else {
      source = "HOME"
    }
  }

  var status: ExitStatus { .usage }
  var message: String {
    "the orders are at a \(scheme) URI (from \(source)), which needs PostgreSQL, and this shop "
      + "was built without it; build one with `\(PostgreSQLNotBuilt.buildCommand)` and run "
      + "`.build/postgresql/release/shop`"
  }
}
