import ShopCore

// Over 300 lines on purpose: the summary's fast path is fenced in this one file, so its
// checks, its tally and its fallback to the plain path are read, and kept equal, together.

/// The fast path of `shop summary` over a file (issue 35), fenced here: a line laid out
/// exactly as `shop` writes it, and taken back by no void of the snapshot, is checked where it
/// lies as the `--json` listing checks it (``StoredLine``) and summed from its bytes, with no
/// ``Order``, no `String` per SKU and no array of items; with `--by sku` each item is tallied
/// as the check reads it (``TalliedItems``), in a table keyed by the SKU's bytes
/// (``SKUSums``), and taken back if the line then fails a check. Any other line (a void, an
/// order a void took back, a SKU given twice, another layout, a damaged line) is parsed and
/// summed as an order, and every error (numbering, a line that is not an order, a sum past
/// `Int`) is the plain path's, at the same line: the sums follow ``ShopCore/SummaryTally``'s
/// rule, order by order, and `StoredSummaryTests` holds the two paths equal.
extension FileOrders {
  public func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    if range.isAll { return try summaryOfAll(by: grouping) }
    // The sums and the line taken, through a pointer: variables that the closures captured
    // would be checked for exclusive access at run time, each line.
    var state = (
      sums: StoredSums(by: grouping), pending: LaidOutOrder<TalliedItems>?.none,
      times: LaidOutWords.LastTime()
    )
    return try withUnsafeMutablePointer(to: &state) { state in
      let skus = grouping == .sku ? state.pointer(to: \.sums.skus) : nil
      let inPlace = InPlace(
        read: { bytes, snapshot in
          state.pointee.pending = nil
          // A line whose items were tallied as they were read, then refused, or placed out of
          // the range: its items are taken back, and the plain path decides.
          guard
            let order = StoredLine.checked(
              bytes, startingWith: TalliedItems(skus, bytes), times: &state.pointee.times),
            snapshot.voided.isEmpty || snapshot.voided[order.number] == nil
          else {
            skus?.pointee.takeBack()
            return nil
          }
          if range.contains(order.placedAt) {
            skus?.pointee.keep()
            state.pointee.pending = order
          } else {
            skus?.pointee.takeBack()
          }
          return order.number
        },
        visit: {
          // Its number checked: now summed.
          guard let order = state.pointee.pending else { return }
          try state.pointee.sums.add(order)
        })
      try orders(in: range, last: nil, inPlace: inPlace) { order in
        try state.pointee.sums.add(order)
      }
      return state.pointee.sums.summary
    }
  }
}

extension FileOrders {
  /// The summary of every order, read as ``orders(in:last:inPlace:_:)`` reads them all (a
  /// strict snapshot, its voids first, each line's numbering from 1001, a line taken in
  /// place or else parsed), in one loop over each buffer's lines: no closure is called, and
  /// no snapshot handed on, a line.
  private func summaryOfAll(by grouping: Summary.Grouping) throws -> Summary {
    guard var opened = try openSnapshot(strict: true) else {
      return StoredSums(by: grouping).summary
    }
    opened.voided = try voids(in: opened, from: 0)
    let snapshot = opened
    // Through a pointer, as in ``summary(of:by:)``: no exclusivity checks at run time.
    var state = (
      sums: StoredSums(by: grouping), previous: Int?.none, line: 1,
      times: LaidOutWords.LastTime()
    )
    try withUnsafeMutablePointer(to: &state) { state in
      let skus = grouping == .sku ? state.pointer(to: \.sums.skus) : nil
      try snapshot.file.spans(from: 0, to: snapshot.end, unterminated: snapshot.unterminated) {
        spanStart, span in
        guard let base = span.baseAddress else { return true }
        var at = 0
        while at < span.count {
          let rest = UnsafeRawBufferPointer(start: base + at, count: span.count - at)
          // A span's last line lacks its newline only at an unterminated end.
          let length = System.firstIndex(of: OrderLayout.lineEnd, in: rest) ?? rest.count
          let line = UnsafeBufferPointer(start: base + at, count: length)
          let lineNumber = state.pointee.line
          state.pointee.line += 1
          if let order = StoredLine.checked(
            line, startingWith: TalliedItems(skus, line), times: &state.pointee.times),
            snapshot.voided.isEmpty || snapshot.voided[order.number] == nil
          {
            skus?.pointee.keep()
            try checkNumber(order.number, after: state.pointee.previous, line: lineNumber)
            state.pointee.previous = order.number
            try state.pointee.sums.add(order)
          } else {
            // Its items taken back; the plain path decides.
            skus?.pointee.takeBack()
            let (order, _) = try parse(line, line: lineNumber, at: spanStart + at, in: snapshot)
            try checkNumber(order.number, after: state.pointee.previous, line: lineNumber)
            state.pointee.previous = order.number
            try state.pointee.sums.add(order)
          }
          at += length + 1
        }
        return true
      } tooLong: { _ in
        state.pointee.line
      }
    }
    return state.sums.summary
  }
}

/// A stored line's items as the check reads them: their sum, and each one tallied at once in
/// the summary's table (`skus`, nil for a summary of no SKUs), which keeps what it added
/// until the line is kept or taken back (``SKUSums/keep()``, ``SKUSums/takeBack()``). A sum
/// past `Int` gives the line up, for the plain path to say so.
struct TalliedItems: StoredLine.CheckedItems {
  private(set) var sum = StoredLine.Sum()
  private let skus: UnsafeMutablePointer<SKUSums>?
  /// Where the line ends: how far a SKU's key may read.
  private let end: UnsafePointer<UInt8>?

  init(_ skus: UnsafeMutablePointer<SKUSums>?, _ line: UnsafeBufferPointer<UInt8>) {
    self.skus = skus
    end = line.baseAddress.map { $0 + line.count }
  }

  static func empty() -> TalliedItems {
    TalliedItems(nil, UnsafeBufferPointer(start: nil, count: 0))
  }

  mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
    guard sum.append(sku: sku, quantity: quantity, price: price) else { return false }
    return tally(sku: sku, quantity: quantity, price: price)
  }

  @inline(__always)
  mutating func appendCompared(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int)
    -> Bool
  {
    guard sum.appendCompared(sku: sku, quantity: quantity, price: price) else { return false }
    return tally(sku: sku, quantity: quantity, price: price)
  }

  @inline(__always)
  private func tally(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
    guard let skus, let end, let start = sku.baseAddress else { return true }
    let key = SKUSums.Key(sku, readable: end - start)
    return skus.pointee.tally(sku, key: key, quantity: quantity, price: price)
  }
}

/// The sums of a summary as ``ShopCore/SummaryTally`` makes them, order by order and checked
/// the same way, from a stored line's bytes or from an order.
struct StoredSums {
  private let grouping: Summary.Grouping
  private var totals = Summary.Totals()
  private var days: [Int64: Summary.Totals] = [:]
  var skus = SKUSums()

  init(by grouping: Summary.Grouping) {
    self.grouping = grouping
  }

  /// An order on a line laid out as `shop` writes it, in no void: it has each SKU once, and
  /// its items are already tallied (``TalliedItems``).
  mutating func add(_ order: LaidOutOrder<TalliedItems>) throws(SummaryTooLarge) {
    try addTotals(
      order.number, order.total, order.payable, voided: false, placedAt: order.placedAt)
  }

  /// An order read the plain way, as ``ShopCore/SummaryTally/add(_:)`` adds it.
  mutating func add(_ order: Order) throws(SummaryTooLarge) {
    guard !order.isVoid else { return }
    let voided = order.voidedBy != nil
    try addTotals(
      order.number, order.total, order.payable, voided: voided, placedAt: order.placedAt)
    switch grouping {
    case .none, .day: return
    case .sku:
      guard !voided else { return }
      for (index, line) in order.lines.enumerated() {
        // An order counts once for a SKU, even if a stored order lists it twice.
        let counted = !order.lines[..<index].contains { $0.sku == line.sku }
        var sku = line.sku
        let fits = sku.withUTF8 { bytes in
          skus.add(
            bytes, key: SKUSums.Key(bytes, readable: bytes.count), quantity: line.quantity,
            price: line.price, counted: counted)
        }
        guard fits else { throw SummaryTooLarge(number: order.number) }
      }
    }
  }

  /// What both ways of reading add: the order to the totals and, by day, to its day's.
  @inline(__always)
  private mutating func addTotals(
    _ number: Int, _ total: Int, _ payable: Int, voided: Bool, placedAt: Timestamp
  ) throws(SummaryTooLarge) {
    try Self.add(number, total, payable, voided: voided, to: &totals)
    guard grouping == .day else { return }
    let day = Summary.day(of: placedAt).secondsSince1970
    try Self.add(number, total, payable, voided: voided, to: &days[day, default: Summary.Totals()])
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

/// Each SKU's sales, found by its bytes in an open-addressing table, its `String` made once,
/// at the end: memory grows with the SKUs, not the orders. A SKU is found by its ``Key``: its
/// first 16 bytes as two words (and its last 8 when longer), compared as words, so a look-up
/// of a short SKU reads no byte twice and calls nothing.
struct SKUSums {
  /// A SKU's length, its first 16 bytes (zeros past its end) and, when longer, its last 8.
  struct Key: Equatable {
    let count: Int
    let first: UInt64
    let second: UInt64
    let last: UInt64

    /// The key of `sku`, of which `readable` bytes (its own and what follows it) may be read:
    /// words loaded whole where 16 bytes may be, else byte by byte.
    @inline(__always)
    init(_ sku: UnsafeBufferPointer<UInt8>, readable: Int) {
      count = sku.count
      guard let base = sku.baseAddress else {
        (first, second, last) = (0, 0, 0)
        return
      }
      let raw = UnsafeRawPointer(base)
      var words: (UInt64, UInt64)
      if readable >= 16 {
        words = (
          UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
          UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
        // Only the SKU's own bytes: the first `count` of the 16, in little-endian order.
        if count < 16 {
          if count <= 8 {
            words.1 = 0
            if count < 8 { words.0 &= (1 &<< UInt64(count * 8)) &- 1 }
          } else {
            words.1 &= (1 &<< UInt64((count - 8) * 8)) &- 1
          }
        }
      } else {
        words = (0, 0)
        for index in 0..<min(count, 16) {
          let byte = UInt64(base[index]) &<< UInt64((index % 8) * 8)
          if index < 8 { words.0 |= byte } else { words.1 |= byte }
        }
      }
      (first, second) = words
      last =
        count > 16
        ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) : 0
    }

    var hash: Int {
      // Every byte moves every bit of the result (SplitMix64's finish): SKUs often differ
      // only in their last bytes, the high bits of the words.
      var mixed = first ^ (second &+ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15
      mixed ^= last &* 0xD6E8_FEB8_6659_FD93
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }
  }

  private struct Entry {
    let key: Key
    /// Where the SKU's bytes are in `names`.
    let start: Int
    var quantity = 0
    var revenue = 0
    var orders = 0
  }

  private var names: [UInt8] = []
  private var entries: [Entry] = []
  /// Indices into `entries` + 1, 0 for an empty slot; at most half full.
  private var slots = [Int32](repeating: 0, count: 64)
  /// What was added since the last ``keep()``: each entry, quantity and amount, an order
  /// each; the first `addedCount` of `added`, whose storage is reused line after line.
  private var added: [(index: Int, quantity: Int, amount: Int)] = []
  private var addedCount = 0

  /// Keeps what was added since the last call.
  mutating func keep() {
    addedCount = 0
  }

  /// Takes back what was added since the last ``keep()``. A SKU then left with no order is
  /// in no ``sales``: every SKU summed has one.
  mutating func takeBack() {
    entries.withUnsafeMutableBufferPointer { entries in
      for (index, quantity, amount) in added[..<addedCount] {
        entries[index].quantity &-= quantity
        entries[index].revenue &-= amount
        entries[index].orders &-= 1
      }
    }
    addedCount = 0
  }

  /// Adds `quantity` at `price` to the SKU `sku`, whose key is `key`, and an order when
  /// `counted`; false, with nothing changed, when a sum would not fit in `Int`.
  @inline(__always)
  mutating func add(
    _ sku: UnsafeBufferPointer<UInt8>, key: Key, quantity: Int, price: Int, counted: Bool,
    journaled: Bool = false
  ) -> Bool {
    let index = find(sku, key: key)
    let (amount, productOverflow) = price.multipliedReportingOverflow(by: quantity)
    let fits = entries.withUnsafeMutableBufferPointer { entries in
      let (sold, quantityOverflow) = entries[index].quantity.addingReportingOverflow(quantity)
      let (revenue, revenueOverflow) = entries[index].revenue.addingReportingOverflow(amount)
      guard !productOverflow, !quantityOverflow, !revenueOverflow else { return false }
      entries[index].quantity = sold
      entries[index].revenue = revenue
      if counted { entries[index].orders += 1 }
      return true
    }
    if fits, journaled {
      if addedCount < added.count {
        added[addedCount] = (index, quantity, amount)
      } else {
        added.append((index, quantity, amount))
      }
      addedCount += 1
    }
    return fits
  }

  /// ``add(_:key:quantity:price:counted:)`` of an item of a line being checked, an order
  /// counted, kept until ``keep()`` or ``takeBack()``.
  @inline(__always)
  mutating func tally(
    _ sku: UnsafeBufferPointer<UInt8>, key: Key, quantity: Int, price: Int
  ) -> Bool {
    add(sku, key: key, quantity: quantity, price: price, counted: true, journaled: true)
  }

  /// The entry of `sku`, added (with no sales) when there is none.
  @inline(__always)
  private mutating func find(_ sku: UnsafeBufferPointer<UInt8>, key: Key) -> Int {
    let mask = slots.count - 1
    var slot = key.hash & mask
    let found = slots.withUnsafeBufferPointer { slots in
      entries.withUnsafeBufferPointer { entries -> Int? in
        while slots[slot] != 0 {
          let index = Int(slots[slot]) - 1
          // Two SKUs of one key differ only past their 16th byte and before their last 8.
          if entries[index].key == key, key.count <= 24 || isNamed(entries[index], sku) {
            return index
          }
          slot = (slot + 1) & mask
        }
        return nil
      }
    }
    if let found { return found }
    entries.append(Entry(key: key, start: names.count))
    names.append(contentsOf: sku)
    if entries.count * 2 > slots.count {
      // Twice the size, every SKU placed again.
      slots = [Int32](repeating: 0, count: slots.count * 2)
      for (index, entry) in entries.enumerated() { place(index, hash: entry.key.hash) }
    } else {
      slots[slot] = Int32(truncatingIfNeeded: entries.count)
    }
    return entries.count - 1
  }

  /// Whether `entry` is the SKU `sku`, byte for byte.
  private func isNamed(_ entry: Entry, _ sku: UnsafeBufferPointer<UInt8>) -> Bool {
    names[entry.start..<(entry.start + entry.key.count)].elementsEqual(sku)
  }

  private mutating func place(_ index: Int, hash: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(truncatingIfNeeded: index + 1)
  }

  var sales: [Summary.Sales] {
    entries.filter { $0.orders > 0 }.map { entry in
      Summary.Sales(
        sku: String(
          decoding: names[entry.start..<(entry.start + entry.key.count)], as: UTF8.self),
        quantity: entry.quantity, revenue: entry.revenue, orders: entry.orders)
    }
  }
}
