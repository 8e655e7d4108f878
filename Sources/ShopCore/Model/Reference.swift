/// A caller's name for one order (`web-5512`), so that placing it again places nothing new:
/// a store holds each reference at most once, forever.
public struct Reference: Hashable, Sendable, CustomStringConvertible {
  public static let maximumLength = 64

  /// 1–64 ASCII letters, digits, `-`, `_`, `.`, `:` or `/`: nothing a shell, a JSON string or
  /// a batch line would need to quote.
  public let text: String
  /// A hash of the bytes, computed once: what a group's table of refs (``Placement/plan``) and
  /// a dictionary hash, so a batch of millions of refs hashes each one's bytes once. The
  /// core's own, never written anywhere: a store that files refs by a hash keeps its own.
  @usableFromInline let hashBits: UInt64

  /// Inlinable, so a caller reading bytes in memory (a batch reads one ref a line) gets a copy
  /// compiled for its own collection rather than the generic one.
  @inlinable
  public init?(_ bytes: some Collection<UInt8>) {
    guard Reference.isValid(bytes) else { return nil }
    self.text = String(decoding: bytes, as: UTF8.self)
    self.hashBits = Reference.hashBits(bytes)
  }

  public static func == (left: Reference, right: Reference) -> Bool {
    left.hashBits == right.hashBits && left.text == right.text
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(hashBits)
  }

  /// FNV-1a, then a 64-bit finalizer so that the low bits, which pick a slot, are well mixed.
  @inlinable
  static func hashBits(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
    hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
    return hash ^ (hash >> 33)
  }

  public init?(_ text: String) {
    self.init(text.utf8)
  }

  public var description: String { text }

  @inlinable
  public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
    return bytes.allSatisfy(isAllowed)
  }

  @inlinable @inline(__always)
  public static func isAllowed(_ byte: UInt8) -> Bool {
    SKU.isAllowed(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/")
  }
}

extension Cart {
  /// The same SKUs with the same quantities as `order`, as ``Draft/hasSameItems(as:)`` judges
  /// them: for a cart the catalog could not price, whose reference `order` holds.
  public func hasSameItems(as order: Order) -> Bool {
    !order.isVoid
      && Draft.quantities(order.lines)
        == Dictionary(items.map { ($0.sku, $0.quantity) }) { $0 + $1 }
  }
}

extension Draft {
  /// The same SKUs with the same quantities, in any order, repeats added up. Prices are not
  /// compared: a retry asks for the same goods, even after the catalog's prices changed.
  /// A void is the same as a void of the same order, and never as an order.
  public func hasSameItems(as order: Order) -> Bool {
    guard voids == order.voids else { return false }
    guard let mine = Draft.quantities(lines), let theirs = Draft.quantities(order.lines) else {
      return false
    }
    return mine == theirs
  }

  static func quantities(_ lines: [OrderLine]) -> [String: Int]? {
    var sums: [String: Int] = [:]
    sums.reserveCapacity(lines.count)
    for line in lines {
      let (sum, overflow) = sums[line.sku, default: 0].addingReportingOverflow(line.quantity)
      if overflow { return nil }
      sums[line.sku] = sum
    }
    return sums
  }
}
