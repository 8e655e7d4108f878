import ShopCore

/// The text form of a cart, `pen=2 lamp=1`, shared by `shop place` arguments and batch lines.
/// It reads the bytes in place, as a batch streams millions of lines: the one `String` it makes
/// is each item's SKU, which the ``Cart`` holds; none for a line, a quantity, a blank or a ref.
public enum CartSyntax {
  /// Parses one `SKU=QTY` item.
  public static func item(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Cart.Item, CartError> {
    guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
      bytes[(equals + 1)...].firstIndex(of: UInt8(ascii: "=")) == nil
    else { return .failure(.notAnItem(TerminalText.quoted(bytes))) }
    let sku = UnsafeBufferPointer(rebasing: bytes[..<equals])
    guard SKU.isValid(sku) else { return .failure(.badSKU(TerminalText.quoted(bytes))) }
    guard let quantity = quantity(UnsafeBufferPointer(rebasing: bytes[(equals + 1)...])) else {
      return .failure(.badQuantity(TerminalText.quoted(bytes)))
    }
    return Result { () throws(CartError) in
      try Cart.Item(sku: String(decoding: sku, as: UTF8.self), quantity: quantity)
    }
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
        line: number, cart: .failure(.badReference(TerminalText.quoted(line[0..<end]))))
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

  /// 1...``Cart/maximumQuantity`` in decimal digits; leading zeros are allowed, signs are not.
  static func quantity(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
    CartSyntax.quantityDigits.value(digits)
  }

  private static let quantityDigits = DecimalInteger(
    sign: .none, leadingZeros: .allowed, range: 1...Cart.maximumQuantity)

  @inlinable @inline(__always)
  public static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }
}
