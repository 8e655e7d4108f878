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
      if let number = StoredLine.number(of: bytes), snapshot.voided[number] == nil {
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
    checked(line)?.number
  }

  /// The line's members, when it passes every check of ``number(of:)``: its items are kept
  /// only as their sum.
  static func checked(_ line: UnsafeBufferPointer<UInt8>) -> LaidOutOrder<Sum>? {
    checked(line, startingWith: Sum())
  }

  /// ``checked(_:)``, its items kept as `empty` keeps them as they are read (a summary's tally
  /// of them, which it takes back when the line fails a check).
  @inline(__always)
  static func checked<Items: CheckedItems>(
    _ line: UnsafeBufferPointer<UInt8>, startingWith empty: Items
  ) -> LaidOutOrder<Items>? {
    var parser = JSONParser(bytes: line)
    guard let order = parser.laidOutOrder(startingWith: empty),
      (try? Order.checkStored(number: order.number)) != nil,
      order.reference.map({ Reference.isValid($0) }) ?? true,
      order.items.sum.amount == order.total, Order.payable(total: order.total) == order.payable,
      !order.items.sum.mayRepeat || !repeatsSKU(line)
    else { return nil }
    return order
  }

  /// What items the check reads keep: at least their ``Sum``.
  protocol CheckedItems: LaidOutItems {
    var sum: Sum { get }
  }

  /// All the check keeps of the items: the sum of price × quantity, given up past `Int`, and
  /// a bit per SKU (a hash of its bytes), so that a SKU given twice (the core's rule: it is
  /// one item) is caught where its bit is already set; the exact check then runs on that
  /// line alone. Small on purpose: the parser copies it as each item is read.
  struct Sum: CheckedItems {
    var amount = 0
    var sum: Sum { self }
    /// Bits 0–62: a bit per SKU read; bit 63: a SKU's bit was already set.
    private var seen: UInt64 = 0
    var mayRepeat: Bool { seen >> 63 != 0 }

    static func empty() -> Sum { Sum() }

    mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
      let (product, productOverflow) = price.multipliedReportingOverflow(by: quantity)
      let (sum, sumOverflow) = amount.addingReportingOverflow(product)
      guard !productOverflow, !sumOverflow, let first = sku.first, let last = sku.last else {
        return false
      }
      amount = sum
      // SKUs that differ mostly differ in length or at an end; a rarer pair of SKUs that
      // share a bit costs only the exact check.
      let ends =
        UInt64(sku.count) | UInt64(first) << 8 | UInt64(last) << 16
        | UInt64(sku.count > 1 ? sku[sku.count - 2] : 0) << 24
      let bit: UInt64 = 1 << ((ends &* 0x9E37_79B9_7F4A_7C15) >> 58 % 63)
      if seen & bit != 0 { seen |= 1 << 63 }
      seen |= bit
      return true
    }
  }

  /// Whether two items of `line`, laid out as ``OrderLayout`` says, name one SKU. In that
  /// layout `{` starts only the order and each item, an item starts `{"sku":"`, and its SKU
  /// ends at the next quote.
  static func repeatsSKU(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    var skus: [UnsafeBufferPointer<UInt8>] = []
    var from = 1
    while from < line.count,
      let brace = System.firstIndex(
        of: OrderLayout.objectStart,
        in: UnsafeRawBufferPointer(start: base + from, count: line.count - from))
    {
      let start = from + brace + skuKey.count + 1
      guard start <= line.count,
        let length = System.firstIndex(
          of: OrderLayout.quote,
          in: UnsafeRawBufferPointer(start: base + start, count: line.count - start))
      else { return true }  // Not the layout after all: the plain path decides.
      let sku = UnsafeBufferPointer(start: base + start, count: length)
      if skus.contains(where: { $0.elementsEqual(sku) }) { return true }
      skus.append(sku)
      from = start + length
    }
    return false
  }

  /// What follows an item's `{`.
  private static let skuKey = Array(#""sku":""#.utf8)
}
