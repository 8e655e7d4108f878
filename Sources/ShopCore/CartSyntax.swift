/// The text form of a cart, `pen=2 lamp=1`, shared by `shop place` arguments and batch lines.
/// It works on bytes: a batch streams millions of lines and must not build a `String` per token.
public enum CartSyntax {
  public static let maximumQuantity = 1_000_000

  /// Parses one `SKU=QTY` item.
  public static func item(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Cart.Item, CartError> {
    guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
      bytes[(equals + 1)...].firstIndex(of: UInt8(ascii: "=")) == nil
    else { return .failure(.notAnItem(quoted(bytes))) }
    let sku = UnsafeBufferPointer(rebasing: bytes[..<equals])
    guard SKU.isValid(sku) else { return .failure(.badSKU(quoted(bytes))) }
    guard let quantity = quantity(UnsafeBufferPointer(rebasing: bytes[(equals + 1)...])) else {
      return .failure(.badQuantity(quoted(bytes)))
    }
    return .success(Cart.Item(sku: String(decoding: sku, as: UTF8.self), quantity: quantity))
  }

  /// Parses a whole line: items separated by spaces or tabs.
  public static func cart(line: UnsafeBufferPointer<UInt8>) -> Result<Cart, CartError> {
    var cart = Cart()
    var start = 0
    while start < line.count {
      if isBlank(line[start]) {
        start += 1
        continue
      }
      var end = start
      while end < line.count, !isBlank(line[end]) { end += 1 }
      switch item(UnsafeBufferPointer(rebasing: line[start..<end])) {
      case .success(let item):
        do { try cart.add(item) } catch { return .failure(error) }
      case .failure(let error):
        return .failure(error)
      }
      start = end
    }
    return cart.items.isEmpty ? .failure(.noItems) : .success(cart)
  }

  /// Parses a batch line: an optional `@REF` token first, then the items. A bad ref makes
  /// the whole line malformed, as a bad item does.
  public static func request(line: UnsafeBufferPointer<UInt8>, number: Int) -> Request {
    guard let first = line.first, first == UInt8(ascii: "@") else {
      return Request(line: number, cart: cart(line: line))
    }
    var end = 1
    while end < line.count, !isBlank(line[end]) { end += 1 }
    guard let reference = Reference(UnsafeBufferPointer(rebasing: line[1..<end])) else {
      return Request(
        line: number, cart: .failure(.badReference(quoted(line[0..<end]))))
    }
    return Request(
      line: number, cart: cart(line: UnsafeBufferPointer(rebasing: line[end...])),
      reference: reference)
  }

  /// Parses command-line arguments, one item each, as the bytes they were typed.
  public static func cart(arguments: [[UInt8]]) -> Result<Cart, CartError> {
    var cart = Cart()
    for argument in arguments {
      let parsed = argument.withUnsafeBufferPointer { item($0) }
      switch parsed {
      case .success(let item):
        do { try cart.add(item) } catch { return .failure(error) }
      case .failure(let error):
        return .failure(error)
      }
    }
    return cart.items.isEmpty ? .failure(.noItems) : .success(cart)
  }

  /// 1...maximumQuantity in decimal digits; leading zeros are allowed, signs are not.
  static func quantity(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte &- UInt8(ascii: "0"))
      // Stop before the value can grow past Int: any longer run of digits is out of range.
      if value > maximumQuantity { return nil }
    }
    return value >= 1 ? value : nil
  }

  @inline(__always)
  public static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  /// The text between single quotes as it was typed when it is valid UTF-8, with only what
  /// could hide or fake text escaped as `\xNN` per byte: invalid UTF-8 and control characters
  /// (C0, DEL, C1, and the invisible ones that reorder or break a line). An error message
  /// stays one honest line, and `café` reads as `café`.
  public static func quoted(_ bytes: some Sequence<UInt8>) -> String {
    var text = "'"
    var rest = Array(bytes)[...]
    while let first = rest.first {
      let length = scalarLength(rest)
      let scalarBytes = rest.prefix(length)
      rest = rest.dropFirst(length)
      if length > 0, let scalar = decodedScalar(scalarBytes), !needsEscape(scalar) {
        text.unicodeScalars.append(scalar)
        continue
      }
      for byte in length > 0 ? Array(scalarBytes) : [first] {
        let hex = String(byte, radix: 16, uppercase: true)
        text += byte < 0x10 ? "\\x0\(hex)" : "\\x\(hex)"
      }
      if length == 0 { rest = rest.dropFirst() }
    }
    return text + "'"
  }

  /// The length of the well-formed UTF-8 sequence at the front of `bytes`, or 0 when the
  /// first byte does not start one.
  private static func scalarLength(_ bytes: ArraySlice<UInt8>) -> Int {
    guard let lead = bytes.first else { return 0 }
    let length: Int
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return 0
    }
    guard bytes.count >= length else { return 0 }
    return decodedScalar(bytes.prefix(length)) == nil ? 0 : length
  }

  private static func decodedScalar(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
    guard let text = String(validating: bytes, as: UTF8.self), text.unicodeScalars.count == 1
    else { return nil }
    return text.unicodeScalars.first
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F: return true
    case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
    default: return false
    }
  }
}
