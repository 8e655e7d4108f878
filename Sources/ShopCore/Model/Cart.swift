/// What a customer asks for: SKUs with quantities, each SKU once, in the order first given.
public struct Cart: Equatable, Sendable {
  /// The most of one SKU a cart holds, given at once or added up.
  public static let maximumQuantity = 1_000_000

  /// One SKU and how many of it: always from 1 to ``Cart/maximumQuantity``, so no cart, and
  /// no order placed from one, holds a line of zero, a negative line or one that overflows.
  public struct Item: Equatable, Sendable {
    public let sku: String
    public let quantity: Int

    /// - Throws: ``CartError/badQuantity(_:)`` below 1, as `pen=0` is refused when read, and
    ///   ``CartError/quantityTooLarge(sku:sum:)`` above ``Cart/maximumQuantity``.
    public init(sku: String, quantity: Int) throws(CartError) {
      guard quantity >= 1 else { throw .badQuantity("'\(sku)=\(quantity)'") }
      guard quantity <= Cart.maximumQuantity else {
        throw .quantityTooLarge(sku: sku, sum: quantity)
      }
      self.sku = sku
      self.quantity = quantity
    }
  }

  public private(set) var items: [Item] = []
  /// Positions by SKU, built only for long carts: a scan is faster for the usual few items,
  /// and the index keeps a line of 100,000 items from costing quadratic time.
  private var positions: [String: Int] = [:]
  private static let scanLimit = 16

  public init() {}

  /// Adds `item`; a SKU given twice adds up, so `pen=1 pen=1` is `pen=2`, and the sum is held
  /// to the maximum of one quantity: `pen=500000 pen=500001` is refused, never stored.
  /// - Throws: ``CartError/quantityTooLarge(sku:sum:)`` when the sum is above
  ///   ``Cart/maximumQuantity``.
  public mutating func add(_ item: Item) throws(CartError) {
    // Every item is at most the maximum, so two quantities add up without overflow.
    guard let index = position(of: item.sku) else {
      items.append(item)
      if items.count > Cart.scanLimit {
        if positions.isEmpty {
          for (index, item) in items.enumerated() { positions[item.sku] = index }
        } else {
          positions[item.sku] = items.count - 1
        }
      }
      return
    }
    items[index] = try Item(sku: item.sku, quantity: items[index].quantity + item.quantity)
  }

  private func position(of sku: String) -> Int? {
    items.count > Cart.scanLimit ? positions[sku] : items.firstIndex { $0.sku == sku }
  }

  public static func == (left: Cart, right: Cart) -> Bool {
    left.items == right.items
  }
}
