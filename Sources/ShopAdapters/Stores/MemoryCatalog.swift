import ShopCore

/// Prices held in memory: the built-in catalog, or whatever a test hands in.
public struct MemoryCatalog: Catalog {
  private let prices: [String: Int]

  public init(prices: [String: Int]) {
    self.prices = prices
  }

  /// The prices `shop` uses when no catalog file is given.
  public static let builtInPrices = ["pen": 30, "lamp": 190]

  public func price(of sku: String) -> Int? {
    prices[sku]
  }

  public var entries: [(sku: String, price: Int)] {
    prices.map { (sku: $0.key, price: $0.value) }.sorted { $0.sku < $1.sku }
  }
}
