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
