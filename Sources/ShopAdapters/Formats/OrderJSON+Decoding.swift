import ShopConventions
import ShopCore

// Over 300 lines on purpose: one job, reading a stored line back into an order in any JSON
// layout, with every key's rule beside the others (no key twice, totals that agree).

extension OrderJSON {
  /// Reads one line (without its newline) back into an order, or says why it is not one.
  /// Strict: totals and payable must agree with the items, every SKU must be valid, no key
  /// twice. A scan over the bytes: no dictionary, no `String` but the SKUs'.
  static func order(from line: UnsafeBufferPointer<UInt8>) throws(OrderJSONError) -> Order {
    var parser = JSONParser(bytes: line)
    return try parser.order()
  }

  /// As ``order(from:)``, and whether the line is exactly what the encoder writes for it: a
  /// listing copies only such a line (any other, such as one ending in a CR, is encoded anew,
  /// so `--json` always prints `shop`'s own layout).
  static func orderAndLayout(from line: UnsafeBufferPointer<UInt8>) throws(OrderJSONError) -> (
    order: Order, isEncoders: Bool
  ) {
    var parser = JSONParser(bytes: line)
    return try parser.orderAndLayout()
  }

  static func order(from line: [UInt8]) throws(OrderJSONError) -> Order {
    var order: Order?
    var failure = OrderJSONError.notAnObject
    line.withUnsafeBufferPointer { bytes in
      do throws(OrderJSONError) {
        order = try self.order(from: bytes)
      } catch {
        failure = error
      }
    }
    guard let order else { throw failure }
    return order
  }
}

extension JSONParser {
  /// One order object and nothing after it, read in one pass over the bytes.
  mutating func order() throws(OrderJSONError) -> Order {
    try orderAndLayout().order
  }

  /// The order, and whether its line is laid out exactly as the encoder writes it.
  mutating func orderAndLayout() throws(OrderJSONError) -> (order: Order, isEncoders: Bool) {
    let start = position
    if let order = encodersOrder() { return (order, true) }
    position = start
    return (try generalOrder(), false)
  }

  /// An order in any JSON layout, or what is wrong with it: the reader of every line the fast
  /// one does not take.
  mutating func generalOrder() throws(OrderJSONError) -> Order {
    skipSpace()
    guard consume(UInt8(ascii: "{")) else { throw .notAnObject }
    var number: Int?
    var total: Int?
    var payable: Int?
    var placedAt: Timestamp?
    var lines: [OrderLine]?
    var reference: Reference?
    var voids: Int?
    try members { parser, key throws(OrderJSONError) in
      switch key {
      case .voids: voids = try parser.integer(named: "voids")
      case .ref: reference = try parser.referenceText()
      case .number: number = try parser.integer(named: "number")
      case .total: total = try parser.integer(named: "total")
      case .payable: payable = try parser.integer(named: "payable")
      case .placedAt: placedAt = try parser.time()
      case .items: lines = try parser.items()
      case .sku, .quantity, .price, .other:
        return false
      }
      return true
    }
    skipSpace()
    guard position == bytes.count else { throw .notAnObject }
    guard let number else { throw OrderJSONError("no \"number\"") }
    if let voids {
      // A void has its number, time, ref and the order it takes back: nothing else of an
      // order's, so no reader could take it for one.
      guard total == nil, payable == nil, lines == nil else {
        throw OrderJSONError("a void has no \"items\", \"total\" or \"payable\"")
      }
      guard let placedAt else { throw .badTime }
      do {
        return try Order(storedVoid: number, voids: voids, placedAt: placedAt, reference: reference)
      } catch {
        throw OrderJSONError(
          error == .numberBelowFirst
            ? "order number \(number) is below \(Order.firstNumber)"
            : "\"voids\" must name an order before \(number), from \(Order.firstNumber)")
      }
    }
    guard let total else { throw OrderJSONError("no \"total\"") }
    guard let payable else { throw OrderJSONError("no \"payable\"") }
    guard let placedAt else { throw .badTime }
    guard let lines else { throw .badItems }
    do {
      return try Order(
        stored: number, lines: lines, total: total, payable: payable, placedAt: placedAt,
        reference: reference)
    } catch {
      switch error {
      case .numberBelowFirst:
        throw OrderJSONError("order number \(number) is below \(Order.firstNumber)")
      case .badItems: throw .badItems
      case .repeatedSKU: throw OrderJSONError(error.reason)
      case .totalsDoNotMatch: throw OrderJSONError("total or payable does not match the items")
      case .voidsNoEarlierOrder: throw OrderJSONError(error.reason)
      }
    }
  }

  /// The keys an order is read by; any other key's value is checked as JSON and skipped.
  fileprivate enum Key: Int {
    case number, ref, total, payable, placedAt, items, sku, quantity, price, voids, other

    /// Compares bytes with no `String` made: this runs for every key of every line listed.
    init(_ raw: UnsafeBufferPointer<UInt8>) {
      func matches(_ name: StaticString) -> Bool {
        guard name.utf8CodeUnitCount == raw.count else { return false }
        for index in 0..<raw.count where name.utf8Start[index] != raw[index] { return false }
        return true
      }
      switch raw.count {
      case 3: self = matches("sku") ? .sku : matches("ref") ? .ref : .other
      case 5:
        self =
          matches("items")
          ? .items
          : matches("total")
            ? .total : matches("price") ? .price : matches("voids") ? .voids : .other
      case 6: self = matches("number") ? .number : .other
      case 7: self = matches("payable") ? .payable : .other
      case 8: self = matches("placedAt") ? .placedAt : matches("quantity") ? .quantity : .other
      default: self = .other
      }
    }

    var name: StaticString {
      switch self {
      case .number: return "number"
      case .ref: return "ref"
      case .total: return "total"
      case .payable: return "payable"
      case .placedAt: return "placedAt"
      case .items: return "items"
      case .sku: return "sku"
      case .quantity: return "quantity"
      case .price: return "price"
      case .voids: return "voids"
      case .other: return ""
      }
    }
  }

  /// A key, read straight from the bytes when it has no escapes (as every key `shop` writes);
  /// the text of a key the order does not use goes to `otherKey`.
  private mutating func key(otherKey: inout String) throws(OrderJSONError) -> Key {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
      throw .notAnObject
    }
    if let raw = plainString() {
      let key = Key(raw)
      if case .other = key { otherKey = String(decoding: raw, as: UTF8.self) }
      return key
    }
    guard let text = string() else { throw .notAnObject }
    var copy = text
    let key = copy.withUTF8 { Key($0) }
    otherKey = text
    return key
  }

  /// Reads an object's members, its `{` already consumed, up to and with its `}`. `read`
  /// reads the value of a key it uses and returns true; the value of any other key is checked
  /// as JSON and skipped, and no key may come twice (one `read` took is refused before its
  /// value is read again).
  private mutating func members(
    _ read: (inout JSONParser, Key) throws(OrderJSONError) -> Bool
  ) throws(OrderJSONError) {
    // A set, not a list: a line of 150,000 extra keys must not cost 150,000² comparisons.
    var others: Set<String> = []
    // The keys `read` took, a bit each.
    var taken: UInt16 = 0
    var otherKey = ""
    skipSpace()
    if consume(UInt8(ascii: "}")) { return }
    repeat {
      skipSpace()
      let key = try self.key(otherKey: &otherKey)
      skipSpace()
      guard consume(UInt8(ascii: ":")) else { throw .notAnObject }
      skipSpace()
      let bit: UInt16 = 1 << key.rawValue
      guard taken & bit == 0 else { throw .repeated(key) }
      if try read(&self, key) {
        taken |= bit
      } else {
        let name = key == .other ? otherKey : "\(key.name)"
        guard others.insert(name).inserted else { throw .repeatedKey(name) }
        guard value() != nil else { throw .notAnObject }
      }
      skipSpace()
    } while consume(UInt8(ascii: ","))
    guard consume(UInt8(ascii: "}")) else { throw .notAnObject }
  }

  private mutating func integer(named key: String) throws(OrderJSONError) -> Int {
    if let value = plainInteger() { return value }
    let start = position
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "-") || OrderLayout.isDigit(bytes[position]),
      case .integer(let value) = number()
    {
      return value
    }
    position = start
    guard value() != nil else { throw .notAnObject }
    throw OrderJSONError("\"\(key)\" is not an integer")
  }

  private mutating func time() throws(OrderJSONError) -> Timestamp {
    if position < bytes.count, bytes[position] == UInt8(ascii: "\""), let text = plainString() {
      guard let time = UTCTime.parse(text) else { throw .badTime }
      return time
    }
    guard let value = value() else { throw .notAnObject }
    guard case .string(let text) = value, let time = UTCTime.parse(text) else {
      throw .badTime
    }
    return time
  }

  private mutating func items() throws(OrderJSONError) -> [OrderLine] {
    guard consume(UInt8(ascii: "[")) else {
      guard value() != nil else { throw .notAnObject }
      throw .badItems
    }
    var lines: [OrderLine] = []
    skipSpace()
    guard !consume(UInt8(ascii: "]")) else { throw .badItems }
    repeat {
      skipSpace()
      lines.append(try item())
      skipSpace()
    } while consume(UInt8(ascii: ","))
    guard consume(UInt8(ascii: "]")) else { throw .notAnObject }
    return lines
  }

  private mutating func item() throws(OrderJSONError) -> OrderLine {
    guard consume(UInt8(ascii: "{")) else {
      guard value() != nil else { throw .notAnObject }
      throw .badItem
    }
    var sku: String?
    var quantity: Int?
    var price: Int?
    try members { parser, key throws(OrderJSONError) in
      switch key {
      case .sku: sku = try parser.skuText()
      case .quantity: quantity = try parser.itemInteger()
      case .price: price = try parser.itemInteger()
      case .number, .ref, .total, .payable, .placedAt, .items, .voids, .other:
        return false
      }
      return true
    }
    guard let sku, let quantity, (1...Cart.maximumQuantity).contains(quantity), let price,
      price >= 0
    else { throw .badItem }
    return OrderLine(sku: sku, quantity: quantity, price: price)
  }

  private mutating func itemInteger() throws(OrderJSONError) -> Int {
    if let value = plainInteger() { return value }
    let start = position
    guard case .integer(let value) = number() else {
      position = start
      guard self.value() != nil else { throw .notAnObject }
      throw .badItem
    }
    return value
  }

  private mutating func referenceText() throws(OrderJSONError) -> Reference {
    guard let value = value() else { throw .notAnObject }
    guard case .string(let text) = value, let reference = Reference(text) else {
      throw OrderJSONError("\"ref\" is not a ref of 1-64 letters, digits, '-', '_', '.', ':', '/'")
    }
    return reference
  }

  private mutating func skuText() throws(OrderJSONError) -> String {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
      guard value() != nil else { throw .notAnObject }
      throw .badItem
    }
    if let raw = plainString() {
      guard SKU.isValid(raw) else { throw .badItem }
      return String(decoding: raw, as: UTF8.self)
    }
    guard let text = string() else { throw .notAnObject }
    guard SKU.isValid(text) else { throw .badItem }
    return text
  }
}

extension OrderJSONError {
  fileprivate static func repeated(_ key: JSONParser.Key) -> OrderJSONError {
    repeatedKey("\(key.name)")
  }
}
