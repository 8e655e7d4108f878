/// Gateway to prices. The use case asks it for one SKU at a time and never learns where the
/// prices come from (built in, a CSV file, a test's dictionary).
public protocol Catalog {
  /// The price of one unit of `sku`, or nil when the catalog does not sell it.
  func price(of sku: String) -> Int?

  /// Every SKU with its price, sorted by SKU (byte order), for listing the catalog.
  var entries: [(sku: String, price: Int)] { get }

  /// The SKU this catalog sells that `sku`, which it does not sell, was most likely meant to
  /// be, by ``Spelling/nearest(to:among:)``; nil when none is close. The use case asks only
  /// for SKUs it found unknown, to report `no pne (did you mean pen?)`. The default searches
  /// ``entries``; a catalog that keeps its SKUs otherwise may search them in its own order,
  /// which must be the same on every run (ties go to the earlier SKU).
  func suggestion(for sku: String) -> String?
}

extension Catalog {
  public func suggestion(for sku: String) -> String? {
    Spelling.nearest(to: sku, among: entries.lazy.map(\.sku))
  }
}
