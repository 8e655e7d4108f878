/// What a customer asks for: SKUs with quantities, each SKU once, in the order first given.
public struct Cart: Equatable, Sendable {
  public struct Item: Equatable, Sendable {
    public let sku: String
    public let quantity: Int

    public init(sku: String, quantity: Int) {
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

  /// Adds `item`; a SKU given twice adds up, so `pen=1 pen=1` is `pen=2`.
  /// - Throws: ``CartError/quantityTooLarge(sku:)`` when the sum would not fit in `Int`.
  public mutating func add(_ item: Item) throws(CartError) {
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
    let (sum, overflow) = items[index].quantity.addingReportingOverflow(item.quantity)
    guard !overflow else { throw .quantityTooLarge(sku: item.sku) }
    items[index] = Item(sku: item.sku, quantity: sum)
  }

  private func position(of sku: String) -> Int? {
    items.count > Cart.scanLimit ? positions[sku] : items.firstIndex { $0.sku == sku }
  }

  public static func == (left: Cart, right: Cart) -> Bool {
    left.items == right.items
  }
}
