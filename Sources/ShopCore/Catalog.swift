/// Gateway to prices. The use case asks it for one SKU at a time and never learns where the
/// prices come from (built in, a CSV file, a test's dictionary).
public protocol Catalog {
  /// The price of one unit of `sku`, or nil when the catalog does not sell it.
  func price(of sku: String) -> Int?

  /// Every SKU with its price, sorted by SKU (byte order), for listing the catalog.
  var entries: [(sku: String, price: Int)] { get }
}
