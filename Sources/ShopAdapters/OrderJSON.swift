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
      bytes.append(contentsOf: #""number":"#.utf8)
      appendInt(order.number, to: &bytes)
      bytes.append(contentsOf: #","items":["#.utf8)
      for (index, item) in order.lines.enumerated() {
        bytes.append(contentsOf: index == 0 ? #"{"sku":"#.utf8 : #",{"sku":"#.utf8)
        appendString(item.sku, to: &bytes)
        bytes.append(contentsOf: #","quantity":"#.utf8)
        appendInt(item.quantity, to: &bytes)
        bytes.append(contentsOf: #","price":"#.utf8)
        appendInt(item.price, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
      }
      bytes.append(contentsOf: #"],"total":"#.utf8)
      appendInt(order.total, to: &bytes)
      bytes.append(contentsOf: #","payable":"#.utf8)
      appendInt(order.payable, to: &bytes)
      bytes.append(contentsOf: #","placedAt":""#.utf8)
      if order.placedAt != cachedTime {
        cachedTime = order.placedAt
        cachedText.removeAll(keepingCapacity: true)
        UTCTime.append(order.placedAt, to: &cachedText)
      }
      bytes.append(contentsOf: cachedText)
      bytes.append(contentsOf: "\"}\n".utf8)
    }
  }

  static func appendObjectStart(line: Int?, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "{"))
    if let line {
      bytes.append(contentsOf: #""line":"#.utf8)
      appendInt(line, to: &bytes)
      bytes.append(UInt8(ascii: ","))
    }
  }

  static func appendInt(_ value: Int, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes hold the 20 digits of UInt64
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// A JSON string; quotes, backslashes and control characters are escaped, so no text can
  /// end the string early or start a new line.
  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
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
