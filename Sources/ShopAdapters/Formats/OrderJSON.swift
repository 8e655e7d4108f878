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

    /// `alreadyPlaced` adds `"alreadyPlaced":true` last, for a report; never in the file.
    mutating func append(
      _ order: Order, line: Int? = nil, alreadyPlaced: Bool = false, to bytes: inout [UInt8]
    ) {
      if order.placedAt != cachedTime {
        cachedTime = order.placedAt
        cachedText.removeAll(keepingCapacity: true)
        UTCTime.append(order.placedAt, to: &cachedText)
      }
      // Fixed text and six integers of at most 20 digits, then each item's share.
      var bound = 256 + (order.reference.map { ByteWriter.jsonStringBound($0.text) } ?? 0)
      for item in order.lines { bound += 96 + ByteWriter.jsonStringBound(item.sku) }
      ByteWriter.append(to: &bytes, capacity: bound) { writer in
        writer.putObjectStart(line: line)
        writer.put(Fragment.number)
        writer.put(order.number)
        if let reference = order.reference {
          writer.put(Fragment.ref)
          writer.putJSONString(reference.text)
        }
        writer.put(Fragment.items)
        writer.putItems(order.lines)
        writer.put(Fragment.total)
        writer.put(order.total)
        writer.put(Fragment.payable)
        writer.put(order.payable)
        writer.put(Fragment.placedAt)
        writer.put(cachedText)
        writer.put(alreadyPlaced ? Fragment.endAlreadyPlaced : Fragment.end)
      }
    }
  }

  /// The fixed text between the values, as bytes once rather than a literal's UTF-8 view.
  fileprivate enum Fragment {
    static let number = Array(#""number":"#.utf8)
    static let ref = Array(#","ref":"#.utf8)
    static let items = Array(#","items":["#.utf8)
    static let firstSKU = Array(#","items":[{"sku":"#.utf8)
    static let sku = Array(#"{"sku":"#.utf8)
    static let nextSKU = Array(#",{"sku":"#.utf8)
    static let quantity = Array(#","quantity":"#.utf8)
    static let price = Array(#","price":"#.utf8)
    static let total = Array(#"],"total":"#.utf8)
    static let payable = Array(#","payable":"#.utf8)
    static let placedAt = Array(#","placedAt":""#.utf8)
    static let end = Array("\"}\n".utf8)
    static let endAlreadyPlaced = Array("\",\"alreadyPlaced\":true}\n".utf8)
    static let line = Array(#""line":"#.utf8)
  }

  /// `{`, and `"line":N,` when the object reports a batch line.
  static func appendObjectStart(line: Int?, to bytes: inout [UInt8]) {
    ByteWriter.append(to: &bytes, capacity: 32) { $0.putObjectStart(line: line) }
  }

  /// `[{"sku":"pen","quantity":2,"price":30},…]`: the items as an order line writes them, for
  /// a store that keeps them apart from the rest of the order.
  static func appendItems(_ lines: [OrderLine], to bytes: inout [UInt8]) {
    var bound = 2
    for item in lines { bound += 96 + ByteWriter.jsonStringBound(item.sku) }
    ByteWriter.append(to: &bytes, capacity: bound) { writer in
      writer.put(UInt8(ascii: "["))
      writer.putItems(lines)
      writer.put(UInt8(ascii: "]"))
    }
  }

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

  /// What the bytes after a file's last newline are, against the line the encoder writes for
  /// the next order.
  enum LineStart: Equatable {
    /// A proper start of that line: a write that never finished, and was never reported.
    case prefix
    /// All of that line but its newline: a whole order, which may have been reported.
    case wholeLine
    /// Anything else: bytes `shop` did not write there.
    case other
  }

  /// Matches `chunks` against the line the encoder writes for order `number`, reading them one
  /// chunk at a time and never going back, so a tail of any length costs bounded memory, and
  /// a foreign one is told at its first byte that differs.
  static func lineStart<Chunks: IteratorProtocol<[UInt8]>>(
    of chunks: inout Chunks, number: Int
  ) -> LineStart {
    var head: [UInt8] = [UInt8(ascii: "{")]
    head.append(contentsOf: Fragment.number)
    ByteWriter.appendDecimal(number, to: &head)
    var match = PrefixMatch(chunks: chunks)
    defer { chunks = match.chunks }
    do {
      try match.literal(head)
      // `,"ref":"…"` or `,"items":…` follows; both start with `,"`, and the matcher never
      // goes back, so the letter after it tells which.
      let common = Fragment.ref.prefix(2)
      try match.literal(common)
      if try match.next() == UInt8(ascii: "r") {
        try match.literal(Fragment.ref.dropFirst(2) + [UInt8(ascii: "\"")])
        try match.run(1...Reference.maximumLength, where: Reference.isAllowed)
        try match.literal([UInt8(ascii: "\"")])
        try match.literal(common)
      }
      try match.literal(Fragment.firstSKU.dropFirst(2) + [UInt8(ascii: "\"")])
      while true {
        try match.run(1...SKU.maximumLength, where: SKU.isAllowed)
        try match.literal([UInt8(ascii: "\"")])
        try match.literal(Fragment.quantity)
        try match.run(1...20, where: isDigit)
        try match.literal(Fragment.price)
        try match.run(1...20, where: isDigit)
        try match.literal([UInt8(ascii: "}")])
        guard try match.next() == UInt8(ascii: ",") else { break }
        try match.literal(Fragment.nextSKU)
        try match.literal([UInt8(ascii: "\"")])
      }
      for (fragment, width) in [(Fragment.total, 1...20), (Fragment.payable, 1...20)] {
        try match.literal(fragment)
        try match.run(width, where: isDigit)
      }
      try match.literal(Fragment.placedAt)
      try match.run(UTCTime.length...UTCTime.length) {
        isDigit($0) || "-:TZ".utf8.contains($0)
      }
      try match.literal(Fragment.end.dropLast())
      // The whole line but its newline; anything after it is not a line `shop` wrote.
      return match.isAtEnd() ? .wholeLine : .other
    } catch .ended {
      return .prefix
    } catch {
      return .other
    }
  }
}

private func isDigit(_ byte: UInt8) -> Bool {
  byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// Matches bytes against the encoder's grammar, one piece at a time and only forwards, pulling
/// chunks as it goes; running out of bytes partway means they were a prefix.
private struct PrefixMatch<Chunks: IteratorProtocol<[UInt8]>> {
  enum Stop: Error {
    case ended, mismatch
  }

  var chunks: Chunks
  private var chunk: [UInt8] = []
  private var index = 0

  init(chunks: Chunks) {
    self.chunks = chunks
  }

  mutating func next() throws(Stop) -> UInt8 {
    while index == chunk.count {
      guard let more = chunks.next() else { throw .ended }
      chunk = more
      index = 0
    }
    return chunk[index]
  }

  mutating func isAtEnd() -> Bool {
    do {
      _ = try next()
      return false
    } catch {
      return true
    }
  }

  mutating func literal(_ expected: some Collection<UInt8>) throws(Stop) {
    for byte in expected {
      guard try next() == byte else { throw .mismatch }
      index += 1
    }
  }

  mutating func run(_ length: ClosedRange<Int>, where allowed: (UInt8) -> Bool) throws(Stop) {
    var count = 0
    while count < length.upperBound, try allowed(next()) {
      index += 1
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
  /// Each item as `{"sku":"pen","quantity":2,"price":30}`, separated by commas.
  fileprivate mutating func putItems(_ lines: [OrderLine]) {
    for (index, item) in lines.enumerated() {
      put(index == 0 ? OrderJSON.Fragment.sku : OrderJSON.Fragment.nextSKU)
      putJSONString(item.sku)
      put(OrderJSON.Fragment.quantity)
      put(item.quantity)
      put(OrderJSON.Fragment.price)
      put(item.price)
      put(UInt8(ascii: "}"))
    }
  }

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
    try orderAndLayout().order
  }

  /// The order, and whether its line is laid out exactly as the encoder writes it.
  mutating func orderAndLayout() throws(OrderJSONError) -> (order: Order, isEncoders: Bool) {
    let start = position
    if let order = encodersOrder() { return (order, true) }
    position = start
    skipSpace()
    guard consume(UInt8(ascii: "{")) else { throw .notAnObject }
    var number: Int?
    var total: Int?
    var payable: Int?
    var placedAt: Timestamp?
    var lines: [OrderLine]?
    var reference: Reference?
    try members { parser, key throws(OrderJSONError) in
      switch key {
      case .ref:
        guard reference == nil else { throw .notAnObject }
        reference = try parser.referenceText()
      case .number:
        guard number == nil else { throw .repeated(.number) }
        number = try parser.integer(named: "number")
      case .total:
        guard total == nil else { throw .repeated(.total) }
        total = try parser.integer(named: "total")
      case .payable:
        guard payable == nil else { throw .repeated(.payable) }
        payable = try parser.integer(named: "payable")
      case .placedAt:
        guard placedAt == nil else { throw .repeated(.placedAt) }
        placedAt = try parser.time()
      case .items:
        guard lines == nil else { throw .repeated(.items) }
        lines = try parser.items()
      case .sku, .quantity, .price, .other:
        return false
      }
      return true
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
    guard let draft = Draft(lines: lines, placedAt: placedAt, reference: reference),
      draft.total == total, Order.payable(total: total) == payable
    else { throw OrderJSONError("total or payable does not match the items") }
    return (Order(number: number, draft: draft), false)
  }

  /// An order laid out exactly as the encoder writes it, read by matching the fixed text and
  /// reading the values between: every line `shop` wrote, at a fraction of the general cost.
  /// Nil at the first difference; the general reader, which takes any JSON layout and says
  /// what is wrong, then reads the line from its start.
  private mutating func encodersOrder() -> Order? {
    guard literal(#"{"number":"#), let number = plainInteger(), number >= Order.firstNumber
    else { return nil }
    var reference: Reference?
    if literal(#","ref":""#) {
      guard let text = plainReference() else { return nil }
      reference = text
    }
    guard literal(#","items":["#) else { return nil }
    var lines: [OrderLine] = []
    lines.reserveCapacity(4)
    var separator: StaticString = #"{"sku":""#
    while literal(separator) {
      guard let sku = plainSKU(), literal(#","quantity":"#), let quantity = plainInteger(),
        quantity > 0, literal(#","price":"#), let price = plainInteger(), price >= 0,
        literal("}")
      else { return nil }
      lines.append(OrderLine(sku: sku, quantity: quantity, price: price))
      separator = #",{"sku":""#
    }
    guard !lines.isEmpty, literal(#"],"total":"#), let total = plainInteger(),
      literal(#","payable":"#), let payable = plainInteger(), literal(#","placedAt":""#),
      position + UTCTime.length <= bytes.count,
      let placedAt = UTCTime.parse(
        UnsafeBufferPointer(rebasing: bytes[position..<(position + UTCTime.length)]))
    else { return nil }
    position += UTCTime.length
    guard literal(#""}"#), position == bytes.count,
      let draft = Draft(lines: lines, placedAt: placedAt, reference: reference),
      draft.total == total,
      Order.payable(total: total) == payable
    else { return nil }
    return Order(number: number, draft: draft)
  }

  /// Consumes `expected` when the bytes at the position are exactly it.
  private mutating func literal(_ expected: StaticString) -> Bool {
    let count = expected.utf8CodeUnitCount
    guard position + count <= bytes.count, let base = bytes.baseAddress,
      System.equalBytes(base + position, expected.utf8Start, count: count)
    else { return false }
    position += count
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
    guard end > position, end < bytes.count, bytes[end] == UInt8(ascii: "\""),
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
    guard end > position, end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
      return nil
    }
    let sku = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
    position = end + 1
    return sku
  }

  /// The keys an order is read by; any other key's value is checked as JSON and skipped.
  fileprivate enum Key {
    case number, ref, total, payable, placedAt, items, sku, quantity, price, other

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
          matches("items") ? .items : matches("total") ? .total : matches("price") ? .price : .other
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
  /// as JSON and skipped, and no key may come twice.
  private mutating func members(
    _ read: (inout JSONParser, Key) throws(OrderJSONError) -> Bool
  ) throws(OrderJSONError) {
    // A set, not a list: a line of 150,000 extra keys must not cost 150,000² comparisons.
    var others: Set<String> = []
    var otherKey = ""
    skipSpace()
    if consume(UInt8(ascii: "}")) { return }
    repeat {
      skipSpace()
      let key = try self.key(otherKey: &otherKey)
      skipSpace()
      guard consume(UInt8(ascii: ":")) else { throw .notAnObject }
      skipSpace()
      if try !read(&self, key) {
        let name = key == .other ? otherKey : "\(key.name)"
        guard others.insert(name).inserted else { throw .repeatedKey(name) }
        guard value() != nil else { throw .notAnObject }
      }
      skipSpace()
    } while consume(UInt8(ascii: ","))
    guard consume(UInt8(ascii: "}")) else { throw .notAnObject }
  }

  /// The bytes of a string with no escape and no control byte, consumed with its quotes; nil
  /// (and nothing consumed) for any other string, which the full reader then takes.
  private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
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
  private mutating func plainInteger() -> Int? {
    var end = position
    let negative = end < bytes.count && bytes[end] == UInt8(ascii: "-")
    if negative { end += 1 }
    let first = end
    var value = 0
    while end < bytes.count, isDigit(bytes[end]) {
      let digit = Int(bytes[end] &- UInt8(ascii: "0"))
      let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) =
        negative
        ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
      guard !overflowA, !overflowB else { return nil }
      value = sum
      end += 1
    }
    let digits = end - first
    guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
    if end < bytes.count {
      let next = bytes[end]
      if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
        return nil
      }
    }
    position = end
    return value
  }

  private mutating func integer(named key: String) throws(OrderJSONError) -> Int {
    if let value = plainInteger() { return value }
    let start = position
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "-") || isDigit(bytes[position]),
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
      case .sku:
        guard sku == nil else { throw .repeated(.sku) }
        sku = try parser.skuText()
      case .quantity:
        guard quantity == nil else { throw .repeated(.quantity) }
        quantity = try parser.itemInteger()
      case .price:
        guard price == nil else { throw .repeated(.price) }
        price = try parser.itemInteger()
      case .number, .ref, .total, .payable, .placedAt, .items, .other:
        return false
      }
      return true
    }
    guard let sku, let quantity, quantity > 0, let price, price >= 0 else { throw .badItem }
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
  /// A key given twice in one object: which value counts would be a guess.
  static func repeatedKey(_ name: String) -> OrderJSONError {
    OrderJSONError("repeated key \"\(TerminalText.quoted(name.utf8).dropFirst().dropLast())\"")
  }

  fileprivate static func repeated(_ key: JSONParser.Key) -> OrderJSONError {
    repeatedKey("\(key.name)")
  }

  static let notAnObject = OrderJSONError("not a JSON object")
  static let badTime = OrderJSONError("\"placedAt\" is not a time like 2026-11-30T06:06:43Z")
  static let badItems = OrderJSONError("\"items\" is not a list of items")
  static let badItem = OrderJSONError("an item is not {\"sku\", \"quantity\", \"price\"}")
}
