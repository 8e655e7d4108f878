/// A caller's name for one order (`web-5512`), so that placing it again places nothing new:
/// a store holds each reference at most once, forever.
public struct Reference: Hashable, Sendable, CustomStringConvertible {
  public static let maximumLength = 64

  /// 1–64 ASCII letters, digits, `-`, `_`, `.`, `:` or `/`: nothing a shell, a JSON string or
  /// a batch line would need to quote.
  public let text: String
  /// A 64-bit hash of the bytes (FNV-1a, then mixed), never 0: what a store's index files a
  /// ref under, and what a dictionary hashes, so a batch hashes each ref's bytes once.
  public let fingerprint: UInt64

  /// Inlinable, so a caller reading bytes in memory (a batch reads one ref a line) gets a copy
  /// compiled for its own collection rather than the generic one.
  @inlinable
  public init?(_ bytes: some Collection<UInt8>) {
    guard Reference.isValid(bytes) else { return nil }
    self.text = String(decoding: bytes, as: UTF8.self)
    self.fingerprint = Reference.fingerprint(bytes)
  }

  public static func == (left: Reference, right: Reference) -> Bool {
    left.fingerprint == right.fingerprint && left.text == right.text
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(fingerprint)
  }

  /// FNV-1a, then a 64-bit finalizer so that the low bits are well mixed; never 0, which an
  /// index may keep for an empty slot.
  @inlinable
  public static func fingerprint(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
    hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return hash == 0 ? 1 : hash
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
  /// every other draft takes the next number after `last`, stamped no earlier than the order
  /// before it (``Draft/stamped(notBefore:)``; `lastPlacedAt` is the time of `last`).
  /// - Returns: the placement of every draft, in order, and the new orders to save; nil when
  ///   a number would not fit in `Int`.
  public static func plan<Failure: Error>(
    _ drafts: [Draft], after last: Int?, placedAt lastPlacedAt: Timestamp? = nil,
    existing: (Reference) throws(Failure) -> Order?
  ) throws(Failure) -> (placements: [Placement], new: [Order])? {
    var placements: [Placement] = []
    placements.reserveCapacity(drafts.count)
    var new: [Order] = []
    new.reserveCapacity(drafts.count)
    var taken = GroupReferences(capacity: drafts.count)
    var last = last
    var lastTime = lastPlacedAt
    for draft in drafts {
      if let reference = draft.reference {
        if let earlier = taken.order(for: reference) {
          placements.append(Placement(retrying: draft, existing: earlier))
          continue
        }
        if let saved = try existing(reference) {
          taken.add(saved, for: reference)
          placements.append(Placement(retrying: draft, existing: saved))
          continue
        }
      }
      guard let number = Order.number(after: last) else { return nil }
      let order = Order(number: number, draft: draft.stamped(notBefore: lastTime))
      lastTime = order.placedAt
      if let reference = draft.reference { taken.add(order, for: reference) }
      new.append(order)
      placements.append(.placed(order))
      last = number
    }
    return (placements, new)
  }
}

/// The refs a group has met so far, found by fingerprint in an open-addressing table: a batch
/// meets millions, and a `Dictionary` would hash each one again.
private struct GroupReferences {
  private let capacity: Int
  private var slots: [Int] = []  // Indices into `orders`, -1 for an empty slot.
  private var orders: [Order] = []

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    self.capacity = size
  }

  func order(for reference: Reference) -> Order? {
    guard !slots.isEmpty else { return nil }
    var slot = Int(truncatingIfNeeded: reference.fingerprint) & (capacity - 1)
    while slots[slot] >= 0 {
      let order = orders[slots[slot]]
      if order.reference == reference { return order }
      slot = (slot + 1) & (capacity - 1)
    }
    return nil
  }

  /// Adds `order` for `reference`, which ``order(for:)`` did not find.
  mutating func add(_ order: Order, for reference: Reference) {
    if slots.isEmpty { slots = Array(repeating: -1, count: capacity) }
    var slot = Int(truncatingIfNeeded: reference.fingerprint) & (capacity - 1)
    while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
    slots[slot] = orders.count
    orders.append(order)
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
