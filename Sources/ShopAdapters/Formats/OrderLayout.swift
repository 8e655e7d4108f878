import ShopCore

/// The order line's layout: the one description of what `shop` writes, which the encoder
/// follows, the fast decoder reads back and the torn-line rule matches a file's tail against.
///
///     {"number":1001,"ref":"web-1","items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}
///
/// A void, which takes back an earlier order, is a record of the same sequence in the layout
/// of ``void``:
///
///     {"number":1006,"ref":"undo-1","voids":1003,"placedAt":"2026-11-30T07:00:00Z"}
///
/// An object is its members in the order of ``order`` (or ``void``, ``item``), in braces,
/// separated by commas; a line is a record's object and a newline. No spaces anywhere.
enum OrderLayout {
  /// The members of an order's line, and of an item in its list.
  enum Field: CaseIterable {
    case number, reference, items, total, payable, placedAt, voids
    case sku, quantity, price

    /// `"name":`, as the line holds it: static text, so writing it counts no references.
    var key: StaticString {
      switch self {
      case .number: return #""number":"#
      case .reference: return #""ref":"#
      case .items: return #""items":"#
      case .total: return #""total":"#
      case .payable: return #""payable":"#
      case .placedAt: return #""placedAt":"#
      case .voids: return #""voids":"#
      case .sku: return #""sku":"#
      case .quantity: return #""quantity":"#
      case .price: return #""price":"#
      }
    }

    var value: Value {
      switch self {
      case .number, .total, .payable, .quantity, .price, .voids: return .integer
      case .reference: return .reference
      case .items: return .items
      case .placedAt: return .time
      case .sku: return .sku
      }
    }

    /// Left out when the order has none: only a reference.
    var isOptional: Bool { self == .reference }
  }

  /// What a member's value is, and so how it is written and read.
  enum Value: Equatable {
    /// Decimal digits, no sign: every integer of an order is zero or more.
    case integer
    /// A ``Reference`` in quotes.
    case reference
    /// A ``SKU`` in quotes.
    case sku
    /// ``UTCTime`` in quotes.
    case time
    /// `[`, the items (each an object of ``item``'s members) separated by commas, `]`.
    case items

    var isQuoted: Bool {
      switch self {
      case .reference, .sku, .time: return true
      case .integer, .items: return false
      }
    }

    /// For a word (a ref, a SKU), how many bytes it has between its quotes and which; nil for
    /// the others, which the torn-line rule reads by their values (`PrefixMatch.integer`,
    /// `UTCTime.couldStart`) and the fast decoder by its own readers.
    var wordRun: (length: ClosedRange<Int>, allowed: (UInt8) -> Bool)? {
      switch self {
      case .reference: return (1...Reference.maximumLength, Reference.isAllowed)
      case .sku: return (1...SKU.maximumLength, SKU.isAllowed)
      case .integer, .time, .items: return nil
      }
    }
  }

  /// An order's members, in the order they are written.
  static let order: [Field] = [.number, .reference, .items, .total, .payable, .placedAt]
  /// A void's members, in the order they are written.
  static let void: [Field] = [.number, .reference, .voids, .placedAt]
  /// An item's members, in the order they are written.
  static let item: [Field] = [.sku, .quantity, .price]

  static let objectStart = UInt8(ascii: "{")
  static let objectEnd = UInt8(ascii: "}")
  static let separator = UInt8(ascii: ",")
  static let quote = UInt8(ascii: "\"")
  static let listStart = UInt8(ascii: "[")
  static let listEnd = UInt8(ascii: "]")
  static let lineEnd = UInt8(ascii: "\n")

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}

extension OrderLayout {
  /// A member's key as the line holds it, with the comma before it unless it is the first.
  static func keyText(_ field: Field, first: Bool) -> [UInt8] {
    let key = UnsafeBufferPointer(start: field.key.utf8Start, count: field.key.utf8CodeUnitCount)
    return first ? Array(key) : [separator] + Array(key)
  }
}
