import ShopConventions
import ShopCore

/// What a read of the encoder's layout keeps of an order's items: the items themselves (the
/// fast decoder), or only what they come to (a listing's check of a stored line).
protocol LaidOutItems {
  /// None yet.
  static func empty() -> Self
  /// One more item, its SKU's bytes checked by the layout's rule; false to give the line up.
  mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool
  /// ``append(sku:quantity:price:)`` from a reader that itself compares each SKU with the
  /// line's others (``LaidOutWords``): no watch for a repeat need be kept.
  mutating func appendCompared(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int)
    -> Bool
}

extension LaidOutItems {
  mutating func appendCompared(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int)
    -> Bool
  {
    append(sku: sku, quantity: quantity, price: price)
  }
}

/// An order line's members as ``OrderLayout`` lays them out, read in place by the layout's
/// syntax (digits, allowed bytes and lengths, a real time, quantities from 1 to
/// ``ShopCore/Cart/maximumQuantity`` and prices 0 or more); the core's rules for a stored order
/// (its number, its sums) are the reader's.
struct LaidOutOrder<Items: LaidOutItems> {
  var number: Int
  /// The bytes of the reference, when the line has one.
  var reference: UnsafeBufferPointer<UInt8>?
  var items: Items
  var total: Int
  var payable: Int
  var placedAt: Timestamp
}

extension [OrderLine]: LaidOutItems {
  static func empty() -> [OrderLine] {
    var lines: [OrderLine] = []
    lines.reserveCapacity(4)
    return lines
  }

  mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
    append(OrderLine(sku: String(decoding: sku, as: UTF8.self), quantity: quantity, price: price))
    return true
  }
}

extension JSONParser {
  /// An order laid out exactly as ``OrderLayout`` says, read by matching the fixed text and
  /// reading the values between: every line `shop` wrote, at a fraction of the general cost.
  /// Nil at the first difference; the general reader, which takes any JSON layout and says
  /// what is wrong, then reads the line from its start.
  mutating func encodersOrder() -> Order? {
    guard let line = laidOutOrder([OrderLine].self) else { return nil }
    var reference: Reference?
    if let bytes = line.reference {
      guard let valid = Reference(bytes) else { return nil }
      reference = valid
    }
    return try? Order(
      stored: line.number, lines: line.items, total: line.total, payable: line.payable,
      placedAt: line.placedAt, reference: reference)
  }

  /// The one reader of the encoder's layout: a whole line's members, and nothing after them.
  @inline(__always)
  mutating func laidOutOrder<Items: LaidOutItems>(_: Items.Type) -> LaidOutOrder<Items>? {
    laidOutOrder(startingWith: Items.empty())
  }

  /// ``laidOutOrder(_:)``, the items kept in `empty` as they are read.
  @inline(__always)
  mutating func laidOutOrder<Items: LaidOutItems>(startingWith empty: Items) -> LaidOutOrder<Items>?
  {
    var number: Int?
    var reference: UnsafeBufferPointer<UInt8>?
    var items: Items?
    var total: Int?
    var payable: Int?
    var placedAt: Timestamp?
    let laidOut = layoutObject(OrderLayout.order) { parser, field in
      switch field {
      case .number: return keep(parser.plainInteger(), in: &number)
      case .reference:
        return keep(parser.quotedRun(Reference.isAllowed, Reference.maximumLength), in: &reference)
      case .items: return keep(parser.laidOutItems(empty), in: &items)
      case .total: return keep(parser.plainInteger(), in: &total)
      case .payable: return keep(parser.plainInteger(), in: &payable)
      case .placedAt: return keep(parser.quotedTime(), in: &placedAt)
      case .sku, .quantity, .price, .voids: return false
      }
    }
    guard laidOut, position == bytes.count, let number, let items, let total, let payable,
      let placedAt
    else { return nil }
    return LaidOutOrder(
      number: number, reference: reference, items: items, total: total, payable: payable,
      placedAt: placedAt)
  }

  /// `[`, one or more items, `]`.
  private mutating func laidOutItems<Items: LaidOutItems>(_ empty: Items) -> Items? {
    guard consume(OrderLayout.listStart) else { return nil }
    var items = empty
    repeat {
      guard laidOutItem(into: &items) else { return nil }
    } while consume(OrderLayout.separator)
    return consume(OrderLayout.listEnd) ? items : nil
  }

  @inline(__always)
  private mutating func laidOutItem<Items: LaidOutItems>(into items: inout Items) -> Bool {
    var sku: UnsafeBufferPointer<UInt8>?
    var quantity: Int?
    var price: Int?
    let laidOut = layoutObject(OrderLayout.item) { parser, field in
      switch field {
      case .sku: return keep(parser.quotedRun(SKU.isAllowed, SKU.maximumLength), in: &sku)
      case .quantity:
        let quantities = 1...Cart.maximumQuantity
        return keep(
          parser.plainInteger().flatMap { quantities.contains($0) ? $0 : nil }, in: &quantity)
      case .price: return keep(parser.plainInteger().flatMap { $0 >= 0 ? $0 : nil }, in: &price)
      case .number, .reference, .items, .total, .payable, .placedAt, .voids: return false
      }
    }
    guard laidOut, let sku, let quantity, let price else { return false }
    return items.append(sku: sku, quantity: quantity, price: price)
  }

  /// An object laid out as ``OrderLayout`` says: `{`, then each of `fields` in their order,
  /// its key (with the comma before it unless it is the first) and the value `member` reads,
  /// then `}`. An optional member may be absent. False at the first difference.
  @inline(__always)
  private mutating func layoutObject(
    _ fields: [OrderLayout.Field], _ member: (inout JSONParser, OrderLayout.Field) -> Bool
  ) -> Bool {
    guard consume(OrderLayout.objectStart) else { return false }
    for (index, field) in fields.enumerated() {
      guard key(field, first: index == 0) else {
        if field.isOptional { continue }
        return false
      }
      guard member(&self, field) else { return false }
    }
    return consume(OrderLayout.objectEnd)
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

  /// A quoted run of 1 to `maximum` allowed bytes, consumed with its quotes: its bytes.
  @inline(__always)
  private mutating func quotedRun(_ allowed: (UInt8) -> Bool, _ maximum: Int)
    -> UnsafeBufferPointer<UInt8>?
  {
    guard position < bytes.count, bytes[position] == OrderLayout.quote else { return nil }
    let start = position + 1
    var end = start
    while end < bytes.count, end - start < maximum, allowed(bytes[end]) { end += 1 }
    guard end > start, end < bytes.count, bytes[end] == OrderLayout.quote else { return nil }
    position = end + 1
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  /// A quoted ``UTCTime``, consumed with its quotes.
  private mutating func quotedTime() -> Timestamp? {
    let start = position + 1
    let end = start + UTCTime.length
    guard position < bytes.count, bytes[position] == OrderLayout.quote, end < bytes.count,
      bytes[end] == OrderLayout.quote,
      let time = UTCTime.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    else { return nil }
    position = end + 1
    return time
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
      let value = integer.value,
      // `-0` is JSON, but no writer's form: the full reader takes it, and it is written anew.
      value != 0 || bytes[position] != UInt8(ascii: "-")
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

/// Keeps `value` in `slot`: whether there was one, as a member's reader answers.
@inline(__always)
private func keep<Value>(_ value: Value?, in slot: inout Value?) -> Bool {
  slot = value
  return value != nil
}
