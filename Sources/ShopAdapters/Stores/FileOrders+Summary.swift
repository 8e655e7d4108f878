import ShopCore

/// The fast path of `shop summary` over a file (issue 35), fenced here: a line laid out
/// exactly as `shop` writes it, and taken back by no void of the snapshot, is checked where it
/// lies as the `--json` listing checks it (``StoredLine``) and summed from its bytes, with no
/// ``Order``, no `String` per SKU and no array of items; its SKUs are tallied in a table keyed
/// by their bytes (``SKUSums``). Any other line (a void, an order a void took back, a SKU given
/// twice, another layout, a damaged line) is parsed and summed as an order, and every error
/// (numbering, a line that is not an order, a sum past `Int`) is the plain path's, at the
/// same line: the sums follow ``ShopCore/SummaryTally``'s rule, order by order, and
/// `StoredSummaryTests` holds the two paths equal.
extension FileOrders {
  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    var sums = StoredSums(by: grouping)
    var pending: LaidOutOrder<StoredLine.Sum>?
    var line: UnsafeBufferPointer<UInt8>?
    let inPlace = InPlace(
      read: { bytes, snapshot in
        guard let order = StoredLine.checked(bytes),
          snapshot.voided.isEmpty || snapshot.voided[order.number] == nil
        else { return nil }
        pending = order
        line = bytes
        return order.number
      },
      visit: {
        guard let order = pending, let bytes = line, range.contains(order.placedAt) else { return }
        try sums.add(order, line: bytes)
      })
    try orders(in: range, last: nil, inPlace: inPlace) { order in try sums.add(order) }
    return sums.summary
  }
}

/// The sums of a summary as ``ShopCore/SummaryTally`` makes them, order by order and checked
/// the same way, from a stored line's bytes or from an order.
struct StoredSums {
  private let grouping: Summary.Grouping
  private var totals = Summary.Totals()
  private var days: [Int64: Summary.Totals] = [:]
  private var skus = SKUSums()

  init(by grouping: Summary.Grouping) {
    self.grouping = grouping
  }

  /// An order on a line laid out as `shop` writes it, in no void: it has each SKU once.
  mutating func add(_ order: LaidOutOrder<StoredLine.Sum>, line: UnsafeBufferPointer<UInt8>)
    throws(SummaryTooLarge)
  {
    try Self.add(order.number, order.total, order.payable, voided: false, to: &totals)
    switch grouping {
    case .none: return
    case .day:
      let day = Summary.day(of: order.placedAt).secondsSince1970
      try Self.add(
        order.number, order.total, order.payable, voided: false,
        to: &days[day, default: Summary.Totals()])
    case .sku:
      var fits = true
      StoredLine.forEachItem(of: line) { sku, quantity, price in
        if fits { fits = skus.add(sku, quantity: quantity, price: price, counted: true) }
      }
      guard fits else { throw SummaryTooLarge(number: order.number) }
    }
  }

  /// An order read the plain way, as ``ShopCore/SummaryTally/add(_:)`` adds it.
  mutating func add(_ order: Order) throws(SummaryTooLarge) {
    guard !order.isVoid else { return }
    let voided = order.voidedBy != nil
    try Self.add(order.number, order.total, order.payable, voided: voided, to: &totals)
    switch grouping {
    case .none: return
    case .day:
      let day = Summary.day(of: order.placedAt).secondsSince1970
      try Self.add(
        order.number, order.total, order.payable, voided: voided,
        to: &days[day, default: Summary.Totals()])
    case .sku:
      guard !voided else { return }
      for (index, line) in order.lines.enumerated() {
        // An order counts once for a SKU, even if a stored order lists it twice.
        let counted = !order.lines[..<index].contains { $0.sku == line.sku }
        var sku = line.sku
        let fits = sku.withUTF8 { bytes in
          skus.add(bytes, quantity: line.quantity, price: line.price, counted: counted)
        }
        guard fits else { throw SummaryTooLarge(number: order.number) }
      }
    }
  }

  private static func add(
    _ number: Int, _ total: Int, _ payable: Int, voided: Bool, to totals: inout Summary.Totals
  ) throws(SummaryTooLarge) {
    guard !voided else {
      totals.orders += 1
      totals.voided += 1
      return
    }
    let (sum, totalOverflow) = totals.total.addingReportingOverflow(total)
    let (paid, payableOverflow) = totals.payable.addingReportingOverflow(payable)
    guard !totalOverflow, !payableOverflow else { throw SummaryTooLarge(number: number) }
    totals.orders += 1
    totals.total = sum
    totals.payable = paid
  }

  var summary: Summary {
    Summary(
      totals: totals,
      days: days.sorted { $0.key < $1.key }.map {
        Summary.Day(start: Timestamp(secondsSince1970: $0.key), totals: $0.value)
      },
      sales: skus.sales.sorted { $0.sku < $1.sku })
  }
}

/// Each SKU's sales, found by its bytes in an open-addressing table (FNV-1a), its `String`
/// made once, at the end: memory grows with the SKUs, not the orders.
struct SKUSums {
  private struct Entry {
    /// Where the SKU's bytes are in `names`.
    let start: Int
    let count: Int
    let hash: UInt64
    var quantity = 0
    var revenue = 0
    var orders = 0
  }

  private var names: [UInt8] = []
  private var entries: [Entry] = []
  /// Indices into `entries` + 1, 0 for an empty slot; at most half full.
  private var slots = [Int32](repeating: 0, count: 64)

  /// Adds `quantity` at `price` to the SKU `sku`, and an order when `counted`; false, with
  /// nothing changed, when a sum would not fit in `Int`.
  mutating func add(
    _ sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int, counted: Bool
  ) -> Bool {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in sku { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let index = find(sku, hash: hash)
    let (amount, productOverflow) = price.multipliedReportingOverflow(by: quantity)
    let (sold, quantityOverflow) = entries[index].quantity.addingReportingOverflow(quantity)
    let (revenue, revenueOverflow) = entries[index].revenue.addingReportingOverflow(amount)
    guard !productOverflow, !quantityOverflow, !revenueOverflow else { return false }
    entries[index].quantity = sold
    entries[index].revenue = revenue
    if counted { entries[index].orders += 1 }
    return true
  }

  /// The entry of `sku`, added (with no sales) when there is none.
  private mutating func find(_ sku: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      let index = Int(slots[slot]) - 1
      let entry = entries[index]
      if entry.hash == hash, entry.count == sku.count,
        names[entry.start..<(entry.start + entry.count)].elementsEqual(sku)
      {
        return index
      }
      slot = (slot + 1) & mask
    }
    entries.append(Entry(start: names.count, count: sku.count, hash: hash))
    names.append(contentsOf: sku)
    if entries.count * 2 > slots.count {
      // Twice the size, every SKU placed again.
      slots = [Int32](repeating: 0, count: slots.count * 2)
      for (index, entry) in entries.enumerated() { place(index, hash: entry.hash) }
    } else {
      slots[slot] = Int32(truncatingIfNeeded: entries.count)
    }
    return entries.count - 1
  }

  private mutating func place(_ index: Int, hash: UInt64) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(truncatingIfNeeded: index + 1)
  }

  var sales: [Summary.Sales] {
    entries.map { entry in
      Summary.Sales(
        sku: String(decoding: names[entry.start..<(entry.start + entry.count)], as: UTF8.self),
        quantity: entry.quantity, revenue: entry.revenue, orders: entry.orders)
    }
  }
}
