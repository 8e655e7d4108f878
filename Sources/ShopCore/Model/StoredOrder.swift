/// The rules an order is saved under, written once for every store that numbers drafts or
/// reads orders back: a store checks what it reads against the same rules it saved by.
extension Order {
  /// Why what a store holds is not an order `shop` could have saved.
  public enum StoredProblem: Error, Equatable, Sendable {
    /// The number is below ``Order/firstNumber``.
    case numberBelowFirst
    /// No items, or an item with a quantity no cart holds (below 1, above
    /// ``Cart/maximumQuantity``) or a price below 0.
    case badItems
    /// Two items of one SKU, which no cart holds: a SKU given twice is one item.
    case repeatedSKU(String)
    /// The total is not the sum of the items (or does not fit in `Int`), or the payable
    /// amount does not follow from the total.
    case totalsDoNotMatch
    /// A void names no order before it: a number below ``Order/firstNumber``, or not below
    /// its own.
    case voidsNoEarlierOrder
  }

  /// A void as a store read it back, checked: it follows the order it takes back.
  public init(
    storedVoid number: Int, voids: Int, placedAt: Timestamp, reference: Reference?
  ) throws(StoredProblem) {
    try Order.checkStored(number: number)
    guard voids >= Order.firstNumber, voids < number else { throw .voidsNoEarlierOrder }
    self.init(
      number: number, draft: Draft(voiding: voids, placedAt: placedAt, reference: reference))
  }

  /// An order as a store read it back, checked: its number, items, total and payable.
  public init(
    stored number: Int, lines: [OrderLine], total: Int, payable: Int, placedAt: Timestamp,
    reference: Reference?
  ) throws(StoredProblem) {
    try Order.checkStored(number: number)
    // What a reader takes, `place` could have written: a quantity as a cart holds it.
    let quantities = 1...Cart.maximumQuantity
    guard !lines.isEmpty, lines.allSatisfy({ quantities.contains($0.quantity) && $0.price >= 0 })
    else {
      throw .badItems
    }
    if let repeated = Order.repeatedSKU(in: lines) { throw .repeatedSKU(repeated) }
    guard let draft = Draft(lines: lines, placedAt: placedAt, reference: reference),
      draft.total == total, Order.payable(total: total) == payable
    else { throw .totalsDoNotMatch }
    self.init(number: number, draft: draft)
  }

  /// The first SKU that `lines` hold twice, if any. A few items, as most orders have, are
  /// compared in pairs, which is cheaper than hashing every SKU of every order read.
  static func repeatedSKU(in lines: [OrderLine]) -> String? {
    guard lines.count > 1 else { return nil }
    if lines.count <= 16 {
      for later in 1..<lines.count {
        for earlier in 0..<later where lines[earlier].sku == lines[later].sku {
          return lines[later].sku
        }
      }
      return nil
    }
    var seen = Set<String>(minimumCapacity: lines.count)
    return lines.first { !seen.insert($0.sku).inserted }?.sku
  }

  /// A stored number is never below ``firstNumber``; a reader checks it before the rest.
  public static func checkStored(number: Int) throws(StoredProblem) {
    guard number >= Order.firstNumber else { throw .numberBelowFirst }
  }

  /// Whether `number` may follow `previous` (nil: no order before it): numbers run from
  /// ``firstNumber`` up by one, so a repeat, a gap or a step back is never one.
  public static func isNumber(_ number: Int, after previous: Int?) -> Bool {
    Order.number(after: previous) == number
  }

  /// The drafts as orders numbered in turn after `last` (nil: no order yet), as they are.
  /// - Throws: `OrdersFull` with `last` when a number would not fit in `Int`.
  public static func numbered(_ drafts: [Draft], after last: Int?) throws(OrdersFull) -> [Order] {
    var orders: [Order] = []
    orders.reserveCapacity(drafts.count)
    var previous = last
    for draft in drafts {
      guard let number = Order.number(after: previous) else {
        throw OrdersFull(last: last ?? 0)
      }
      orders.append(Order(number: number, draft: draft))
      previous = number
    }
    return orders
  }
}
