/// Where the orders file is: a flag wins over `$SHOP_ORDERS`, which wins over the XDG default
/// `$XDG_DATA_HOME/shop/orders.jsonl`, with `XDG_DATA_HOME` defaulting to `$HOME/.local/share`.
/// Empty values count as unset, and a relative `XDG_DATA_HOME` is ignored, as the XDG Base
/// Directory specification says.
func ordersLocation(flag: String?, shopOrders: String?, xdgDataHome: String?, home: String?)
  -> String?
{
  if let flag { return flag }
  if let shopOrders, !shopOrders.isEmpty { return shopOrders }
  if let xdgDataHome, xdgDataHome.hasPrefix("/") { return xdgDataHome + "/shop/orders.jsonl" }
  if let home, !home.isEmpty { return home + "/.local/share/shop/orders.jsonl" }
  return nil
}
