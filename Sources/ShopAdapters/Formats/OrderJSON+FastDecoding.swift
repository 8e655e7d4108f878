import ShopCore

extension JSONParser {
  /// An order laid out exactly as ``OrderLayout`` says, read by matching the fixed text and
  /// reading the values between: every line `shop` wrote, at a fraction of the general cost.
  /// Nil at the first difference; the general reader, which takes any JSON layout and says
  /// what is wrong, then reads the line from its start.
  mutating func encodersOrder() -> Order? {
    guard consume(OrderLayout.objectStart) else { return nil }
    var number: Int?
    var reference: Reference?
    var lines: [OrderLine]?
    var total: Int?
    var payable: Int?
    var placedAt: Timestamp?
    for (index, field) in OrderLayout.order.enumerated() {
      guard key(field, first: index == 0) else {
        if field.isOptional { continue }
        return nil
      }
      switch field {
      case .number:
        guard let value = plainInteger() else { return nil }
        number = value
      case .reference:
        guard consume(OrderLayout.quote), let value = plainReference() else { return nil }
        reference = value
      case .items:
        guard let value = encodersItems() else { return nil }
        lines = value
      case .total:
        guard let value = plainInteger() else { return nil }
        total = value
      case .payable:
        guard let value = plainInteger() else { return nil }
        payable = value
      case .placedAt:
        guard consume(OrderLayout.quote), position + UTCTime.length <= bytes.count,
          let value = UTCTime.parse(
            UnsafeBufferPointer(rebasing: bytes[position..<(position + UTCTime.length)]))
        else { return nil }
        position += UTCTime.length
        guard consume(OrderLayout.quote) else { return nil }
        placedAt = value
      case .sku, .quantity, .price:
        return nil
      }
    }
    guard consume(OrderLayout.objectEnd), position == bytes.count, let number, let lines,
      let total, let payable, let placedAt
    else { return nil }
    return try? Order(
      stored: number, lines: lines, total: total, payable: payable, placedAt: placedAt,
      reference: reference)
  }

  /// `[`, one or more items, `]`.
  private mutating func encodersItems() -> [OrderLine]? {
    guard consume(OrderLayout.listStart) else { return nil }
    var lines: [OrderLine] = []
    lines.reserveCapacity(4)
    repeat {
      guard let line = encodersItem() else { return nil }
      lines.append(line)
    } while consume(OrderLayout.separator)
    return consume(OrderLayout.listEnd) ? lines : nil
  }

  private mutating func encodersItem() -> OrderLine? {
    guard consume(OrderLayout.objectStart) else { return nil }
    var sku: String?
    var quantity: Int?
    var price: Int?
    for (index, field) in OrderLayout.item.enumerated() {
      guard key(field, first: index == 0) else { return nil }
      switch field {
      case .sku:
        guard consume(OrderLayout.quote), let value = plainSKU() else { return nil }
        sku = value
      case .quantity:
        guard let value = plainInteger(), value > 0 else { return nil }
        quantity = value
      case .price:
        guard let value = plainInteger(), value >= 0 else { return nil }
        price = value
      case .number, .reference, .items, .total, .payable, .placedAt:
        return nil
      }
    }
    guard consume(OrderLayout.objectEnd), let sku, let quantity, let price else { return nil }
    return OrderLine(sku: sku, quantity: quantity, price: price)
  }

  /// Consumes a member's key, and the comma before it unless it is the object's first, when
  /// the bytes at the position are exactly those; nothing otherwise.
  mutating func key(_ field: OrderLayout.Field, first: Bool) -> Bool {
    let key = field.key
    let start = first ? position : position + 1
    guard start + key.utf8CodeUnitCount <= bytes.count, let base = bytes.baseAddress,
      first || bytes[position] == OrderLayout.separator,
      System.equalBytes(base + start, key.utf8Start, count: key.utf8CodeUnitCount)
    else { return false }
    position = start + key.utf8CodeUnitCount
    return true
  }

  /// A reference's bytes and its closing quote.
  private mutating func plainReference() -> Reference? {
    var end = position
    while end < bytes.count, end - position < Reference.maximumLength,
      Reference.isAllowed(bytes[end])
    {
      end += 1
    }
    guard end > position, end < bytes.count, bytes[end] == OrderLayout.quote,
      let reference = Reference(UnsafeBufferPointer(rebasing: bytes[position..<end]))
    else { return nil }
    position = end + 1
    return reference
  }

  /// A SKU's letters and its closing quote.
  private mutating func plainSKU() -> String? {
    var end = position
    while end < bytes.count, end - position < SKU.maximumLength, SKU.isAllowed(bytes[end]) {
      end += 1
    }
    guard end > position, end < bytes.count, bytes[end] == OrderLayout.quote else {
      return nil
    }
    let sku = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
    position = end + 1
    return sku
  }

  /// The bytes of a string with no escape and no control byte, consumed with its quotes; nil
  /// (and nothing consumed) for any other string, which the full reader then takes.
  mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
    var end = position + 1
    var high: UInt8 = 0
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") {
        let text = UnsafeBufferPointer(rebasing: bytes[(position + 1)..<end])
        guard high < 0x80 || String(validating: text, as: UTF8.self) != nil else { return nil }
        position = end + 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      high |= byte
      end += 1
    }
    return nil
  }

  /// An integer in the plain form every writer uses (`-`?, digits, no leading zero), read in
  /// place; nil, with nothing consumed, for anything else, which the full reader then takes.
  mutating func plainInteger() -> Int? {
    guard let integer = JSONParser.integer.scan(bytes, from: position),
      let value = integer.value
    else { return nil }
    let end = integer.end
    if end < bytes.count {
      let next = bytes[end]
      if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
        return nil
      }
    }
    position = end
    return value
  }
}
