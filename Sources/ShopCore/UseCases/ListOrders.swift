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
    // The named forms list what they name: neither a range nor a SKU chooses among them.
    switch selection {
    case .numbers, .reference: return try delivering { try listNamed(selection) }
    case .all, .count, .last: break
    }
    return try delivering {
      if let sku {
        try listHolding(sku, selection, in: range)
        return 0
      }
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
      case .numbers, .reference: break
      }
      return 0
    }
  }

  /// Runs `list`, then delivers the listing: complete, or after an error what was listed
  /// before it.
  private func delivering(_ list: () throws -> Int) throws -> Int {
    let missing: Int
    do {
      missing = try list()
    } catch {
      try? listing.deliver(complete: false)
      throw error
    }
    try listing.deliver(complete: true)
    return missing
  }

  /// The orders named by number or by reference, each told missing when there is none.
  private func listNamed(_ selection: OrderSelection) throws -> Int {
    var missing = 0
    switch selection {
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
    case .all, .count, .last: break
    }
    return missing
  }

  /// The forms of a listing of the orders that hold `sku`: each order read is kept or not,
  /// so the cost is that of the range read. The newest N are kept in memory as they come.
  private func listHolding(_ sku: String, _ selection: OrderSelection, in range: TimeRange)
    throws
  {
    func holds(_ order: Order) -> Bool { order.lines.contains { $0.sku == sku } }
    switch selection {
    case .all:
      try history.orders(in: range, last: nil) { if holds($0) { try listing.list($0) } }
    case .count:
      var count = 0
      try history.orders(in: range, last: nil) { if holds($0) { count += 1 } }
      listing.count(count)
    case .last(let count):
      var newest = NewestOrders(keeping: count)
      try history.orders(in: range, last: nil) { if holds($0) { newest.add($0) } }
      try newest.visit(listing.list)
    case .numbers, .reference: break
    }
  }
}
