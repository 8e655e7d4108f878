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
  var status: ExitStatus { .usage }
  var message: String {
    "the orders are at a postgres:// URI (from --orders or SHOP_ORDERS), which needs "
      + "PostgreSQL, and this shop was built without it; build it with "
      + "`swift build --traits PostgreSQL`"
  }
}
