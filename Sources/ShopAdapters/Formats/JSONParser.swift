import ShopConventions

/// A small, strict JSON reader for the orders file: integers only (no fractions, no
/// exponents), UTF-8 checked, duplicate keys refused, nesting bounded so no input can
/// exhaust the stack.
struct JSONParser {
  enum Value: Equatable {
    case object([String: Value])
    case array([Value])
    case string(String)
    case integer(Int)
    /// true, false, null and non-integer numbers: valid JSON that no order field may hold.
    case other
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  private var depth = 0
  private static let maximumDepth = 16

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The one value the text holds, or nil when it is not exactly one JSON value.
  mutating func document() -> Value? {
    guard let value = value() else { return nil }
    skipSpace()
    return position == bytes.count ? value : nil
  }

  mutating func value() -> Value? {
    skipSpace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(Value.string)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
    default:
      for word in ["true", "false", "null"] where matches(word) {
        position += word.utf8.count
        return .other
      }
      return nil
    }
  }

  private mutating func object() -> Value? {
    guard depth < JSONParser.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    position += 1
    var fields: [String: Value] = [:]
    skipSpace()
    if consume(UInt8(ascii: "}")) { return .object(fields) }
    repeat {
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string()
      else { return nil }
      skipSpace()
      guard consume(UInt8(ascii: ":")), let value = value(), fields[key] == nil else { return nil }
      fields[key] = value
      skipSpace()
    } while consume(UInt8(ascii: ","))
    return consume(UInt8(ascii: "}")) ? .object(fields) : nil
  }

  private mutating func array() -> Value? {
    guard depth < JSONParser.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    position += 1
    var items: [Value] = []
    skipSpace()
    if consume(UInt8(ascii: "]")) { return .array(items) }
    repeat {
      guard let item = value() else { return nil }
      items.append(item)
      skipSpace()
    } while consume(UInt8(ascii: ","))
    return consume(UInt8(ascii: "]")) ? .array(items) : nil
  }

  mutating func string() -> String? {
    position += 1
    var text: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(validating: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { return nil }
        let escaped = bytes[position]
        position += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = unicodeEscape() else { return nil }
          text.append(contentsOf: String(Character(scalar)).utf8)
        default: return nil
        }
      case 0..<0x20:
        return nil
      default:
        text.append(byte)
      }
    }
    return nil
  }

  /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair.
  private mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let high = hex4() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hex4(),
        (0xDC00..<0xE000).contains(low)
      else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  private mutating func hex4() -> UInt32? {
    guard position + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for byte in bytes[position..<(position + 4)] {
      guard let digit = hexValue(byte) else { return nil }
      value = value << 4 | digit
    }
    position += 4
    return value
  }

  private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  /// An integer that fits in `Int`; a valid number with a fraction or exponent is `.other`.
  mutating func number() -> Value? {
    guard let integer = JSONParser.integer.scan(bytes, from: position) else { return nil }
    position = integer.end
    var integral = true
    if consume(UInt8(ascii: ".")) {
      integral = false
      guard skipDigits() else { return nil }
    }
    if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
      integral = false
      _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
      guard skipDigits() else { return nil }
    }
    guard integral, let value = integer.value else { return .other }
    return .integer(value)
  }

  /// JSON's integers: an optional minus, no leading zero, and here only those that fit `Int`.
  /// Computed, not stored: every line of a listing reads several, and a constant the
  /// optimiser sees folds the reader's choices into its loop.
  static var integer: DecimalInteger {
    DecimalInteger(sign: .minus, leadingZeros: .refused, range: Int.min...Int.max)
  }

  private mutating func skipDigits() -> Bool {
    let start = position
    while position < bytes.count, DecimalInteger.isDigit(bytes[position]) { position += 1 }
    return position > start
  }

  private func matches(_ word: String) -> Bool {
    let word = Array(word.utf8)
    guard position + word.count <= bytes.count else { return false }
    return bytes[position..<(position + word.count)].elementsEqual(word)
  }

  mutating func consume(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        position += 1
      default:
        return
      }
    }
  }
}
