import ShopCore

/// One order as one line of JSON, the format of the orders file and of `--json` reports:
///
///     {"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}
///
/// Written by hand, byte by byte: a batch writes millions of these, and `JSONEncoder` per
/// order would cost more than everything else together.
enum OrderJSON {
  /// Writes orders; keeps the text of the last timestamp, which a whole batch group shares.
  struct Encoder {
    private var cachedTime = Timestamp(secondsSince1970: .min)
    private var cachedText: [UInt8] = []

    init() {}

    mutating func append(_ order: Order, line: Int? = nil, to bytes: inout [UInt8]) {
      appendObjectStart(line: line, to: &bytes)
      bytes.append(contentsOf: Fragment.number)
      appendInt(order.number, to: &bytes)
      for (index, item) in order.lines.enumerated() {
        bytes.append(contentsOf: index == 0 ? Fragment.firstSKU : Fragment.nextSKU)
        appendString(item.sku, to: &bytes)
        bytes.append(contentsOf: Fragment.quantity)
        appendInt(item.quantity, to: &bytes)
        bytes.append(contentsOf: Fragment.price)
        appendInt(item.price, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
      }
      bytes.append(contentsOf: Fragment.total)
      appendInt(order.total, to: &bytes)
      bytes.append(contentsOf: Fragment.payable)
      appendInt(order.payable, to: &bytes)
      bytes.append(contentsOf: Fragment.placedAt)
      if order.placedAt != cachedTime {
        cachedTime = order.placedAt
        cachedText.removeAll(keepingCapacity: true)
        UTCTime.append(order.placedAt, to: &cachedText)
        cachedText.append(contentsOf: Fragment.end)
      }
      bytes.append(contentsOf: cachedText)
    }
  }

  /// The fixed text between the values, as bytes once: appending a `[UInt8]` is a copy,
  /// appending a literal's `.utf8` view walks it byte by byte.
  private enum Fragment {
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

  static func appendObjectStart(line: Int?, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "{"))
    if let line {
      bytes.append(contentsOf: Fragment.line)
      appendInt(line, to: &bytes)
      bytes.append(UInt8(ascii: ","))
    }
  }

  static func appendInt(_ value: Int, to bytes: inout [UInt8]) {
    if value >= 0, value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // Digits are made last first, into the end of a 20-byte scratch (UInt64 has 20 at most).
    var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &scratch) { buffer in
      var start = 20
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<20]))
    }
  }

  /// A JSON string; quotes, backslashes and control characters are escaped, so no text can
  /// end the string early or start a new line.
  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      // SKUs never need escaping: copy them whole, and walk byte by byte only when needed.
      guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) else {
        bytes.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          bytes.append(UInt8(ascii: "\\"))
          bytes.append(byte)
        case 0..<0x20, 0x7F:
          let hex = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: #"\u00"#.utf8)
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 0xF)])
        default:
          bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Reads one line (without its newline) back into an order, or says why it is not one.
  /// Strict: totals and payable must agree with the items, every SKU must be valid.
  static func order(from line: UnsafeBufferPointer<UInt8>) -> Result<Order, OrderJSONError> {
    var parser = JSONParser(bytes: line)
    guard case .object(let fields) = parser.document() else {
      return .failure(OrderJSONError("not a JSON object"))
    }
    func integer(_ key: String) -> Result<Int, OrderJSONError> {
      guard let value = fields[key] else { return .failure(OrderJSONError("no \"\(key)\"")) }
      guard case .integer(let number) = value else {
        return .failure(OrderJSONError("\"\(key)\" is not an integer"))
      }
      return .success(number)
    }
    do {
      let number = try integer("number").get()
      let total = try integer("total").get()
      let payable = try integer("payable").get()
      guard case .string(let time) = fields["placedAt"], let placedAt = UTCTime.parse(time.utf8)
      else { throw OrderJSONError("\"placedAt\" is not a time like 2026-11-30T06:06:43Z") }
      guard case .array(let items) = fields["items"], !items.isEmpty else {
        throw OrderJSONError("\"items\" is not a list of items")
      }
      var lines: [OrderLine] = []
      for item in items {
        guard case .object(let item) = item, case .string(let sku) = item["sku"],
          SKU.isValid(sku), case .integer(let quantity) = item["quantity"], quantity > 0,
          case .integer(let price) = item["price"], price >= 0
        else { throw OrderJSONError("an item is not {\"sku\", \"quantity\", \"price\"}") }
        lines.append(OrderLine(sku: sku, quantity: quantity, price: price))
      }
      guard number >= Order.firstNumber else {
        throw OrderJSONError("order number \(number) is below \(Order.firstNumber)")
      }
      guard let draft = Draft(lines: lines, placedAt: placedAt), draft.total == total,
        Order.payable(total: total) == payable
      else { throw OrderJSONError("total or payable does not match the items") }
      return .success(Order(number: number, draft: draft))
    } catch let error as OrderJSONError {
      return .failure(error)
    } catch {
      return .failure(OrderJSONError("\(error)"))
    }
  }
}

/// Why a line of the orders file is not an order.
struct OrderJSONError: Error, Equatable {
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}
