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

/// The refs a group has met so far, found by their hash in an open-addressing table: a batch
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
    var slot = Int(truncatingIfNeeded: reference.hashBits) & (capacity - 1)
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
    var slot = Int(truncatingIfNeeded: reference.hashBits) & (capacity - 1)
    while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
    slots[slot] = orders.count
    orders.append(order)
  }
}
