/// A caller's name for one order (`web-5512`), so that placing it again places nothing new:
/// a store holds each reference at most once, forever.
public struct Reference: Hashable, Sendable, CustomStringConvertible {
  public static let maximumLength = 64

  /// 1–64 ASCII letters, digits, `-`, `_`, `.`, `:` or `/`: nothing a shell, a JSON string or
  /// a batch line would need to quote.
  public let text: String

  public init?(_ bytes: some Collection<UInt8>) {
    guard Reference.isValid(bytes) else { return nil }
    self.text = String(decoding: Array(bytes), as: UTF8.self)
  }

  public init?(_ text: String) {
    self.init(text.utf8)
  }

  public var description: String { text }

  public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
    return bytes.allSatisfy(isAllowed)
  }

  @inline(__always)
  public static func isAllowed(_ byte: UInt8) -> Bool {
    SKU.isAllowed(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/")
  }
}

/// What a store did with one draft.
public enum Placement: Equatable, Sendable {
  /// Saved now, under a new number.
  case placed(Order)
  /// Its reference was already saved, with the same items: this is that order; nothing new.
  case alreadyPlaced(Order)
  /// Its reference was already saved with other items: this is that order; nothing saved.
  case conflict(Order)

  public var order: Order {
    switch self {
    case .placed(let order), .alreadyPlaced(let order), .conflict(let order): return order
    }
  }

  /// What a draft whose reference `existing` already holds becomes.
  public init(retrying draft: Draft, existing: Order) {
    self = draft.hasSameItems(as: existing) ? .alreadyPlaced(existing) : .conflict(existing)
  }

  /// The core's rule for a group of drafts, applied by a store under its lock: a draft whose
  /// reference `existing` finds (or an earlier draft of the group took) is not numbered;
  /// every other draft takes the next number after `last`.
  /// - Returns: the placement of every draft, in order, and the new orders to save; nil when
  ///   a number would not fit in `Int`.
  public static func plan<Failure: Error>(
    _ drafts: [Draft], after last: Int?,
    existing: (Reference) throws(Failure) -> Order?
  ) throws(Failure) -> (placements: [Placement], new: [Order])? {
    var placements: [Placement] = []
    placements.reserveCapacity(drafts.count)
    var new: [Order] = []
    new.reserveCapacity(drafts.count)
    var taken: [Reference: Order] = [:]
    var last = last
    for draft in drafts {
      if let reference = draft.reference {
        if let earlier = taken[reference] {
          placements.append(Placement(retrying: draft, existing: earlier))
          continue
        }
        if let saved = try existing(reference) {
          taken[reference] = saved
          placements.append(Placement(retrying: draft, existing: saved))
          continue
        }
      }
      guard let number = Order.number(after: last) else { return nil }
      let order = Order(number: number, draft: draft)
      if let reference = draft.reference { taken[reference] = order }
      new.append(order)
      placements.append(.placed(order))
      last = number
    }
    return (placements, new)
  }
}

extension Draft {
  /// The same SKUs with the same quantities, in any order, repeats added up. Prices are not
  /// compared: a retry asks for the same goods, even after the catalog's prices changed.
  public func hasSameItems(as order: Order) -> Bool {
    guard let mine = Draft.quantities(lines), let theirs = Draft.quantities(order.lines) else {
      return false
    }
    return mine == theirs
  }

  private static func quantities(_ lines: [OrderLine]) -> [String: Int]? {
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
