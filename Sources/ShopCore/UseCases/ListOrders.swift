/// Which orders a listing shows.
public enum OrderSelection: Equatable, Sendable {
  /// Every order, oldest first.
  case all
  /// Only how many there are.
  case count
  /// The newest N, oldest first.
  case last(Int)
  /// These numbers, in the order given.
  case numbers([Int])
  /// The order that holds this reference.
  case reference(Reference)
}

/// Output port of a listing: told each order found, each number with no order, or the count;
/// the wording (a line a person reads, JSON) belongs to the adapter.
public protocol Listing: AnyObject {
  /// One order, in listing order.
  func list(_ order: Order) throws
  /// Every order of `history`, oldest first, exactly as visiting each with ``list(_:)``
  /// would list them, up to the same error; a listing may read them its own way (a file's
  /// JSON lines copied as they are checked). The default visits each.
  func listEvery(in history: any OrderHistory) throws
  /// A number asked for that has no order.
  func missing(_ number: Int)
  /// A reference asked for that no order holds.
  func missing(reference: Reference)
  /// How many orders are saved.
  func count(_ count: Int)
  /// Delivers what was listed so far; called at the end (`complete`), and after an error too,
  /// since what was listed before it is true; but what only frames a whole listing (a header
  /// before any order) is for a complete one.
  func deliver(complete: Bool) throws
}

extension Listing {
  public func listEvery(in history: any OrderHistory) throws {
    try history.readAll(list)
  }
}

/// The use case of `shop orders`: reads the selection from the history, tells the listing.
public struct ListOrders {
  private let history: any OrderHistory
  private let listing: any Listing

  public init(history: any OrderHistory, listing: any Listing) {
    self.history = history
    self.listing = listing
  }

  /// Lists `selection`, of the orders placed in `range` (every form but numbers); with `sku`,
  /// of the orders that hold that SKU only (every form but numbers and a reference): a void,
  /// which holds no item, is none of them.
  /// - Returns: how many numbers or references asked for had no order (0 for the others).
  public func run(
    _ selection: OrderSelection, in range: TimeRange = .all, holding sku: String? = nil
  )
    throws -> Int
  {
    if let sku { return try run(selection, in: range, holding: sku) }
    var missing = 0
    do {
      switch selection {
      case .all where !range.isAll: try history.orders(in: range, last: nil, listing.list)
      case .count where !range.isAll:
        var count = 0
        try history.orders(in: range, last: nil) { _ in count += 1 }
        listing.count(count)
      case .last(let count) where !range.isAll:
        try history.orders(in: range, last: count, listing.list)
      case .all: try listing.listEvery(in: history)
      case .count: listing.count(try history.count())
      case .last(let count): try history.last(count, listing.list)
      case .numbers(let numbers):
        for number in numbers where try !history.order(numbered: number, listing.list) {
          missing += 1
          listing.missing(number)
        }
      case .reference(let reference):
        if try !history.order(referenced: reference, listing.list) {
          missing += 1
          listing.missing(reference: reference)
        }
      }
    } catch {
      try? listing.deliver(complete: false)
      throw error
    }
    try listing.deliver(complete: true)
    return missing
  }

  /// The forms of a listing of the orders that hold `sku`: each order read is kept or not,
  /// so the cost is that of the range read. The newest N are kept in memory as they come.
  private func run(_ selection: OrderSelection, in range: TimeRange, holding sku: String) throws
    -> Int
  {
    func holds(_ order: Order) -> Bool { order.lines.contains { $0.sku == sku } }
    var missing = 0
    do {
      switch selection {
      case .all:
        try history.orders(in: range, last: nil) { if holds($0) { try listing.list($0) } }
      case .count:
        var count = 0
        try history.orders(in: range, last: nil) { if holds($0) { count += 1 } }
        listing.count(count)
      case .last(let count):
        var newest: [Order] = []
        var oldest = 0
        try history.orders(in: range, last: nil) { order in
          guard count > 0, holds(order) else { return }
          if newest.count < count {
            newest.append(order)
          } else {
            newest[oldest] = order
            oldest = (oldest + 1) % count
          }
        }
        for index in newest.indices { try listing.list(newest[(oldest + index) % newest.count]) }
      case .numbers(let numbers):
        // Named orders are listed as they are: a SKU does not choose among them.
        for number in numbers where try !history.order(numbered: number, listing.list) {
          missing += 1
          listing.missing(number)
        }
      case .reference(let reference):
        if try !history.order(referenced: reference, listing.list) {
          missing += 1
          listing.missing(reference: reference)
        }
      }
    } catch {
      try? listing.deliver(complete: false)
      throw error
    }
    try listing.deliver(complete: true)
    return missing
  }
}
