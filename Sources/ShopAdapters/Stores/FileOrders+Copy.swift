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

/// The order on a line laid out exactly as ``OrderLayout`` says, checked in place as
/// ``JSONParser/encodersOrder()`` checks it (the layout, SKU and reference syntax, quantity
/// above 0, price 0 or more, the total the sum of the items without overflow, payable by the
/// rule, a real time, by the core's ``ShopCore/Order/init(stored:lines:total:payable:placedAt:reference:)``
/// rules): its number, or nil where that decoder would give up.
struct StoredLine {
  private var parser: JSONParser

  static func number(of line: UnsafeBufferPointer<UInt8>) -> Int? {
    var line = StoredLine(parser: JSONParser(bytes: line))
    return line.order()
  }

  private mutating func order() -> Int? {
    guard parser.consume(OrderLayout.objectStart) else { return nil }
    var number: Int?
    var sum: Int?
    var total: Int?
    var payable: Int?
    var timed = false
    var first = true
    for field in OrderLayout.order {
      defer { first = false }
      guard parser.key(field, first: first) else {
        if field.isOptional { continue }
        return nil
      }
      switch field {
      case .number:
        guard let value = parser.plainInteger(), (try? Order.checkStored(number: value)) != nil
        else { return nil }
        number = value
      case .reference:
        guard parser.consume(OrderLayout.quote),
          let end = end(of: Reference.isAllowed, Reference.maximumLength),
          Reference.isValid(UnsafeBufferPointer(rebasing: parser.bytes[parser.position..<end]))
        else { return nil }
        parser.position = end + 1
      case .items:
        guard let value = items() else { return nil }
        sum = value
      case .total:
        guard let value = parser.plainInteger() else { return nil }
        total = value
      case .payable:
        guard let value = parser.plainInteger() else { return nil }
        payable = value
      case .placedAt:
        let start = parser.position + 1
        guard parser.consume(OrderLayout.quote), start + UTCTime.length <= parser.bytes.count,
          UTCTime.parse(
            UnsafeBufferPointer(rebasing: parser.bytes[start..<(start + UTCTime.length)])) != nil
        else { return nil }
        parser.position = start + UTCTime.length
        guard parser.consume(OrderLayout.quote) else { return nil }
        timed = true
      case .sku, .quantity, .price:
        return nil
      }
    }
    guard parser.consume(OrderLayout.objectEnd), parser.position == parser.bytes.count,
      let number, let sum, let total, let payable, timed,
      sum == total, Order.payable(total: total) == payable
    else { return nil }
    return number
  }

  /// `[`, one or more items, `]`: the sum of price × quantity, nil if it overflows.
  private mutating func items() -> Int? {
    guard parser.consume(OrderLayout.listStart) else { return nil }
    var sum = 0
    repeat {
      guard let amount = item() else { return nil }
      let (next, overflow) = sum.addingReportingOverflow(amount)
      guard !overflow else { return nil }
      sum = next
    } while parser.consume(OrderLayout.separator)
    return parser.consume(OrderLayout.listEnd) ? sum : nil
  }

  /// One item: its price × quantity, nil if it overflows.
  private mutating func item() -> Int? {
    guard parser.consume(OrderLayout.objectStart) else { return nil }
    var quantity: Int?
    var price: Int?
    var named = false
    var first = true
    for field in OrderLayout.item {
      defer { first = false }
      guard parser.key(field, first: first) else { return nil }
      switch field {
      case .sku:
        guard parser.consume(OrderLayout.quote), let end = end(of: SKU.isAllowed, SKU.maximumLength)
        else { return nil }
        parser.position = end + 1
        named = true
      case .quantity:
        guard let value = parser.plainInteger(), value > 0 else { return nil }
        quantity = value
      case .price:
        guard let value = parser.plainInteger(), value >= 0 else { return nil }
        price = value
      case .number, .reference, .items, .total, .payable, .placedAt:
        return nil
      }
    }
    guard parser.consume(OrderLayout.objectEnd), named, let quantity, let price else { return nil }
    let (amount, overflow) = price.multipliedReportingOverflow(by: quantity)
    return overflow ? nil : amount
  }

  /// Where the closing quote of a run of 1 to `maximum` allowed bytes at the position is.
  @inline(__always)
  private func end(of allowed: (UInt8) -> Bool, _ maximum: Int) -> Int? {
    let bytes = parser.bytes
    let start = parser.position
    var end = start
    while end < bytes.count, end - start < maximum, allowed(bytes[end]) { end += 1 }
    guard end > start, end < bytes.count, bytes[end] == OrderLayout.quote else { return nil }
    return end
  }
}
