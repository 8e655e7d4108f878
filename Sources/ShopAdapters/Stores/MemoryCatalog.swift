import ShopCore

/// Prices held in memory: the built-in catalog, or whatever a test hands in.
///
/// Kept as an array sorted by SKU and searched by halves: `shop place` with the built-in
/// catalog runs in about a millisecond, and building a `Dictionary` at start-up costs a
/// noticeable part of that (hashing seeds, generic metadata), for two entries.
public struct MemoryCatalog: Catalog {
  private let sorted: [(sku: String, price: Int)]

  public init(entries: [(sku: String, price: Int)]) {
    var sorted = entries.sorted { $0.sku < $1.sku }
    // A SKU given twice keeps its last price, as a dictionary would.
    var index = sorted.count - 1
    while index > 0 {
      if sorted[index - 1].sku == sorted[index].sku { sorted.remove(at: index - 1) }
      index -= 1
    }
    self.sorted = sorted
  }

  /// The prices `shop` uses when no catalog file is given, written only here: help, the
  /// manual and `--explain` tell them from this list, and the docs are checked against it.
  public static let builtInEntries: [(sku: String, price: Int)] = [
    (sku: "pen", price: 30), (sku: "lamp", price: 190),
  ]

  public func price(of sku: String) -> Int? {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = low + (high - low) / 2
      let entry = sorted[middle]
      if entry.sku == sku { return entry.price }
      if entry.sku < sku { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  public var entries: [(sku: String, price: Int)] { sorted }
}
