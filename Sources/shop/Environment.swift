/// The variables `shop` reads, as the bytes they hold (nil when unset), read once by whoever
/// calls the root: main.swift from the process, a test from a dictionary.
struct Environment: Sendable {
  var shopCatalog: [UInt8]?
  var shopOrders: [UInt8]?
  var xdgDataHome: [UInt8]?
  var home: [UInt8]?
  /// The bound on connecting to a PostgreSQL store when its URI sets none (libpq's own
  /// variable, read here so the URI's `connect_timeout=0` can fall through to it).
  var pgConnectTimeout: [UInt8]?
  /// How long a read of an orders file waits for a writer's lock (``chooseReadWait(_:)``).
  var shopTimeout: [UInt8]?

  /// Reads each variable with `value(NAME)`.
  init(_ value: (String) -> [UInt8]?) {
    shopCatalog = value("SHOP_CATALOG")
    shopOrders = value("SHOP_ORDERS")
    xdgDataHome = value("XDG_DATA_HOME")
    home = value("HOME")
    pgConnectTimeout = value("PGCONNECT_TIMEOUT")
    shopTimeout = value("SHOP_TIMEOUT")
  }
}
