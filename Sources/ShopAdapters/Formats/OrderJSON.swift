import ShopCore

/// One order as one line of JSON, the format of the orders file and of `--json` reports:
///
///     {"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}
///
/// Written by hand, into memory sized beforehand (``ByteWriter``): a batch writes millions of these, and `JSONEncoder` per
/// order would cost more than everything else together.
enum OrderJSON {
  /// Writes orders; keeps the text of the last timestamp, which a whole batch group shares.
  struct Encoder {
    private var cachedTime = Timestamp(secondsSince1970: .min)
    private var cachedText: [UInt8] = []

    init() {}

    mutating func append(_ order: Order, line: Int? = nil, to bytes: inout [UInt8]) {
      if order.placedAt != cachedTime {
        cachedTime = order.placedAt
        cachedText.removeAll(keepingCapacity: true)
        UTCTime.append(order.placedAt, to: &cachedText)
      }
      // Fixed text and six integers of at most 20 digits, then each item's share.
      var bound = 256
      for item in order.lines { bound += 96 + ByteWriter.jsonStringBound(item.sku) }
      ByteWriter.append(to: &bytes, capacity: bound) { writer in
        writer.putObjectStart(line: line)
        writer.put(Fragment.number)
        writer.put(order.number)
        for (index, item) in order.lines.enumerated() {
          writer.put(index == 0 ? Fragment.firstSKU : Fragment.nextSKU)
          writer.putJSONString(item.sku)
          writer.put(Fragment.quantity)
          writer.put(item.quantity)
          writer.put(Fragment.price)
          writer.put(item.price)
          writer.put(UInt8(ascii: "}"))
        }
        writer.put(Fragment.total)
        writer.put(order.total)
        writer.put(Fragment.payable)
        writer.put(order.payable)
        writer.put(Fragment.placedAt)
        writer.put(cachedText)
        writer.put(Fragment.end)
      }
    }
  }

  /// The fixed text between the values, as bytes once rather than a literal's UTF-8 view.
  fileprivate enum Fragment {
    static let number = Array(#""number":"#.utf8)
    static let firstSKU = Array(#","items":[{"sku":"#.utf8)
    static let nextSKU = Array(#",{"sku":"#.utf8)
    static let quantity = Array(#","quantity":"#.utf8)
    static let price = Array(#","price":"#.utf8)
    static let total = Array(#"],"total":"#.utf8)
    static let payable = Array(#","payable":"#.utf8)
    static let placedAt = Array(#","placedAt":""#.utf8)
    static let end = Array("\"}\n".utf8)
    static let line = Array(#""line":"#.utf8)
  }

  /// `{`, and `"line":N,` when the object reports a batch line.
  static func appendObjectStart(line: Int?, to bytes: inout [UInt8]) {
    ByteWriter.append(to: &bytes, capacity: 32) { $0.putObjectStart(line: line) }
  }

  static func appendInt(_ value: Int, to bytes: inout [UInt8]) {
    ByteWriter.append(to: &bytes, capacity: 20) { $0.put(value) }
  }

  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    ByteWriter.append(to: &bytes, capacity: ByteWriter.jsonStringBound(text)) {
      $0.putJSONString(text)
    }
  }

  /// Reads one line (without its newline) back into an order, or says why it is not one.
  /// Strict: totals and payable must agree with the items, every SKU must be valid, no key
  /// twice. A scan over the bytes: no dictionary, no `String` but the SKUs'.
  static func order(from line: UnsafeBufferPointer<UInt8>) -> Result<Order, OrderJSONError> {
    var parser = JSONParser(bytes: line)
    do {
      return .success(try parser.order())
    } catch {
      return .failure(error)
    }
  }

  /// Whether `bytes` could be the start of the line the encoder writes for order `number`:
  /// the only torn tail a writer may cut, since anything else is a file `shop` did not write.
  static func isStartOfLine(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
    var head: [UInt8] = [UInt8(ascii: "{")]
    head.append(contentsOf: Fragment.number)
    appendInt(number, to: &head)
    head.append(contentsOf: Fragment.firstSKU)
    head.append(UInt8(ascii: "\""))
    var match = PrefixMatch(bytes: bytes)
    do {
      try match.literal(head)
      while true {
        try match.run(1...SKU.maximumLength, where: SKU.isAllowed)
        try match.literal([UInt8(ascii: "\"")])
        try match.literal(Fragment.quantity)
        try match.run(1...20, where: PrefixMatch.isDigit)
        try match.literal(Fragment.price)
        try match.run(1...20, where: PrefixMatch.isDigit)
        try match.literal([UInt8(ascii: "}")])
        guard try match.next() == UInt8(ascii: ",") else { break }
        try match.literal(Fragment.nextSKU)
        try match.literal([UInt8(ascii: "\"")])
      }
      for (fragment, width) in [(Fragment.total, 1...20), (Fragment.payable, 1...20)] {
        try match.literal(fragment)
        try match.run(width, where: PrefixMatch.isDigit)
      }
      try match.literal(Fragment.placedAt)
      try match.run(UTCTime.length...UTCTime.length) {
        PrefixMatch.isDigit($0) || "-:TZ".utf8.contains($0)
      }
      try match.literal(Fragment.end.dropLast())
      return false  // A whole line without its newline is still more than a torn write leaves.
    } catch .ended {
      return true
    } catch {
      return false
    }
  }
}

/// Matches bytes against the encoder's grammar, one piece at a time; running out of bytes
/// partway means they were a prefix.
private struct PrefixMatch {
  enum Stop: Error {
    case ended, mismatch
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  func next() throws(Stop) -> UInt8 {
    guard position < bytes.count else { throw .ended }
    return bytes[position]
  }

  mutating func literal(_ expected: some Collection<UInt8>) throws(Stop) {
    for byte in expected {
      guard try next() == byte else { throw .mismatch }
      position += 1
    }
  }

  mutating func run(_ length: ClosedRange<Int>, where allowed: (UInt8) -> Bool) throws(Stop) {
    var count = 0
    while count < length.upperBound, try allowed(next()) {
      position += 1
      count += 1
    }
    guard count >= length.lowerBound else { throw .mismatch }
  }
}

/// Why a line of the orders file is not an order.
struct OrderJSONError: Error, Equatable {
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}

extension ByteWriter {
  fileprivate mutating func putObjectStart(line: Int?) {
    put(UInt8(ascii: "{"))
    if let line {
      put(OrderJSON.Fragment.line)
      put(line)
      put(UInt8(ascii: ","))
    }
  }
}

extension JSONParser {
  /// One order object and nothing after it, read in one pass over the bytes.
  mutating func order() throws(OrderJSONError) -> Order {
    skipSpace()
    guard consume(UInt8(ascii: "{")) else { throw .notAnObject }
    var number: Int?
    var total: Int?
    var payable: Int?
    var placedAt: Timestamp?
    var lines: [OrderLine]?
    var otherKeys: [String] = []
    skipSpace()
    if !consume(UInt8(ascii: "}")) {
      repeat {
        skipSpace()
        let key = try self.key()
        skipSpace()
        guard consume(UInt8(ascii: ":")) else { throw .notAnObject }
        skipSpace()
        switch key {
        case "number":
          guard number == nil else { throw .notAnObject }
          number = try integer(named: key)
        case "total":
          guard total == nil else { throw .notAnObject }
          total = try integer(named: key)
        case "payable":
          guard payable == nil else { throw .notAnObject }
          payable = try integer(named: key)
        case "placedAt":
          guard placedAt == nil else { throw .notAnObject }
          placedAt = try time()
        case "items":
          guard lines == nil else { throw .notAnObject }
          lines = try items()
        default:
          guard !otherKeys.contains(key), value() != nil else { throw .notAnObject }
          otherKeys.append(key)
        }
        skipSpace()
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "}")) else { throw .notAnObject }
    }
    skipSpace()
    guard position == bytes.count else { throw .notAnObject }
    guard let number else { throw OrderJSONError("no \"number\"") }
    guard let total else { throw OrderJSONError("no \"total\"") }
    guard let payable else { throw OrderJSONError("no \"payable\"") }
    guard let placedAt else { throw .badTime }
    guard let lines else { throw .badItems }
    guard number >= Order.firstNumber else {
      throw OrderJSONError("order number \(number) is below \(Order.firstNumber)")
    }
    guard let draft = Draft(lines: lines, placedAt: placedAt), draft.total == total,
      Order.payable(total: total) == payable
    else { throw OrderJSONError("total or payable does not match the items") }
    return Order(number: number, draft: draft)
  }

  /// A key, read straight from the bytes when it has no escapes (as every key `shop` writes).
  private mutating func key() throws(OrderJSONError) -> String {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
      throw .notAnObject
    }
    if let raw = plainString() { return String(decoding: raw, as: UTF8.self) }
    guard let text = string() else { throw .notAnObject }
    return text
  }

  /// The bytes of a string with no escape and no control byte, consumed with its quotes; nil
  /// (and nothing consumed) for any other string, which the full reader then takes.
  private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
    var end = position + 1
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") {
        let text = UnsafeBufferPointer(rebasing: bytes[(position + 1)..<end])
        guard text.allSatisfy({ $0 < 0x80 }) || String(validating: text, as: UTF8.self) != nil
        else { return nil }
        position = end + 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      end += 1
    }
    return nil
  }

  private mutating func integer(named key: String) throws(OrderJSONError) -> Int {
    let start = position
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "-") || PrefixMatch.isDigit(bytes[position]),
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
    var otherKeys: [String] = []
    skipSpace()
    if !consume(UInt8(ascii: "}")) {
      repeat {
        skipSpace()
        let key = try self.key()
        skipSpace()
        guard consume(UInt8(ascii: ":")) else { throw .notAnObject }
        skipSpace()
        switch key {
        case "sku":
          guard sku == nil else { throw .notAnObject }
          sku = try skuText()
        case "quantity", "price":
          guard (key == "price" ? price : quantity) == nil else { throw .notAnObject }
          let start = position
          guard case .integer(let value) = number() else {
            position = start
            guard self.value() != nil else { throw .notAnObject }
            throw .badItem
          }
          if key == "price" { price = value } else { quantity = value }
        default:
          guard !otherKeys.contains(key), value() != nil else { throw .notAnObject }
          otherKeys.append(key)
        }
        skipSpace()
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "}")) else { throw .notAnObject }
    }
    guard let sku, let quantity, quantity > 0, let price, price >= 0 else { throw .badItem }
    return OrderLine(sku: sku, quantity: quantity, price: price)
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
  static let notAnObject = OrderJSONError("not a JSON object")
  static let badTime = OrderJSONError("\"placedAt\" is not a time like 2026-11-30T06:06:43Z")
  static let badItems = OrderJSONError("\"items\" is not a list of items")
  static let badItem = OrderJSONError("an item is not {\"sku\", \"quantity\", \"price\"}")
}
