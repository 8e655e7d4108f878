import ShopCore

/// The fast path of `shop orders --json` of every order in a file (issue 18), fenced here: a
/// line laid out exactly as `shop` writes it is checked where it lies, by the rules of the
/// fast decoder (``JSONParser/encodersOrder()``), and copied, without building its order: no
/// `String` per SKU, no array of items, no ``Order``. Its number is checked as
/// ``FileOrders/readAll(_:)`` checks it. Any other line takes the plain path (parsed, its
/// order handed on to be encoded), and so does every error, so what is printed and where a
/// listing stops are the plain path's: `StoredLineCopyTests` holds the two equal.
extension FileOrders {
  public func readAllLines(
    _ copy: (UnsafeBufferPointer<UInt8>) throws -> Void, orders: (Order) throws -> Void
  ) throws {
    try readAllChecked { offset, lineNumber, bytes, snapshot, check in
      if let number = StoredLine.number(of: bytes) {
        try check(number)
        try copy(bytes)
        return
      }
      let (order, stored) = try parse(bytes, line: lineNumber, at: offset, in: snapshot)
      try check(order.number)
      if let stored { try copy(stored) } else { try orders(order) }
    }
  }
}

/// The order on a line laid out exactly as ``OrderLayout`` says, read by the fast decoder's own
/// reader of the layout (``JSONParser/laidOutOrder(_:)``) keeping only the items' sum, and
/// checked as ``JSONParser/encodersOrder()`` checks it (the layout, SKU and reference syntax, a
/// quantity a cart holds, price 0 or more, each SKU once, the total the sum of the items without overflow, payable by the
/// rule, a real time, by the core's ``ShopCore/Order/init(stored:lines:total:payable:placedAt:reference:)``
/// rules): its number, or nil where that decoder would give up.
enum StoredLine {
  static func number(of line: UnsafeBufferPointer<UInt8>) -> Int? {
    var parser = JSONParser(bytes: line)
    guard let order = parser.laidOutOrder(Sum.self),
      (try? Order.checkStored(number: order.number)) != nil,
      order.reference.map({ Reference.isValid($0) }) ?? true,
      order.items.amount == order.total, Order.payable(total: order.total) == order.payable
    else { return nil }
    return order.number
  }

  /// All the check keeps of the items: the sum of price × quantity, given up past `Int`, and
  /// where each SKU lies in the line, given up at a SKU given twice (the core's rule).
  struct Sum: LaidOutItems {
    var amount = 0
    /// The first three SKUs, inline, as most orders have no more; the rest in `more`.
    private var first = (Sum.none(), Sum.none(), Sum.none())
    private var more: [UnsafeBufferPointer<UInt8>] = []
    private var count = 0
    private static func none() -> UnsafeBufferPointer<UInt8> { .init(start: nil, count: 0) }

    static func empty() -> Sum { Sum() }

    mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
      let (product, productOverflow) = price.multipliedReportingOverflow(by: quantity)
      let (sum, sumOverflow) = amount.addingReportingOverflow(product)
      guard !productOverflow, !sumOverflow, !holds(sku) else { return false }
      amount = sum
      switch count {
      case 0: first.0 = sku
      case 1: first.1 = sku
      case 2: first.2 = sku
      default: more.append(sku)
      }
      count += 1
      return true
    }

    private func holds(_ sku: UnsafeBufferPointer<UInt8>) -> Bool {
      func same(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard other.count == sku.count else { return false }
        guard let a = other.baseAddress, let b = sku.baseAddress else { return true }
        return System.equalBytes(a, b, count: sku.count)
      }
      return (count > 0 && same(first.0)) || (count > 1 && same(first.1))
        || (count > 2 && same(first.2)) || more.contains(where: same)
    }
  }
}
