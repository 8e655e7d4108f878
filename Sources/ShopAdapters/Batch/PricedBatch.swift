import ShopConventions
import ShopCore

// Over 300 lines on purpose: the batch's fast path is fenced in this one file, so all the
// code that prices and writes past the plain way is read, tested and changed together.

/// The fast path of `shop batch` into an orders file, fenced in this file: a group whose
/// every line is a plain cart of SKUs the catalog sells is priced straight from the input's
/// bytes and written straight into the file's buffer, with no `Request`, `Cart`, `Draft` or
/// `Order` made, no `String` per SKU or per `@REF` and no allocation per line: a line's ref is
/// kept as its bytes and fingerprint (``Fingerprint``), a ref given twice in the
/// group found in a table of fingerprints. A group with any other line (an unknown SKU,
/// a mistake, a total too large, a ref given twice or already held) is placed the plain way,
/// by the ``PlaceOrder`` the root wired to the same catalog, store and report, which says what
/// is wrong. The report is quiet or loud text
/// (``PricedReport``): of a placed order it tells only the number and payable, which the
/// group has without an `Order`. A differential test keeps the two ways equal, byte for byte,
/// in the file and in both reports.
public final class PricedBatch: BatchGroups {
  private let input: BatchInput
  private let store: FileOrders
  private let clock: any WallClock
  private let placeOrder: PlaceOrder
  private let report: any PricedReport
  private let table: SKUTable
  /// Kept between groups, so its storage is reused.
  private var group: Group

  /// `placeOrder` is the plain way, built by the root from the same `catalog`, `store`,
  /// `clock` and `report`: this adapter builds no use case of its own.
  public init(
    input: BatchInput, catalog: any Catalog, store: FileOrders, clock: any WallClock,
    report: any PricedReport, placeOrder: PlaceOrder
  ) {
    self.input = input
    self.store = store
    self.clock = clock
    self.report = report
    self.placeOrder = placeOrder
    self.table = SKUTable(catalog.entries)
    self.group = Group(table: table)
  }

  public func placeNext() throws -> PlaceOrder.GroupResult? {
    var group = Group(table: table)
    swap(&group, &self.group)
    defer { swap(&group, &self.group) }
    switch try group.read(input) {
    case .end: return nil
    case .plain(let requests): return try placeOrder.place(requests)
    case .priced: break
    }
    switch try store.place(group, at: clock.now()) {
    case .placed(let last):
      if let last, report.tellsPlaced { try tell(group, last: last) }
      return PlaceOrder.GroupResult(rejected: 0, lastNumber: last)
    case .refused: return try placeOrder.place(group.requests())
    }
  }

  /// The reports of a group saved and synced, numbered up to `last`, as ``PlaceOrder`` gives
  /// them: every order, then one flush; a flush that fails says the group was saved.
  private func tell(_ group: Group, last: Int) throws {
    // The store numbered the group up to `last` without overflow, so this can't either.
    let first = last - (group.count - 1)
    group.forEachPayable { index, payable in
      report.placed(number: first + index, payable: payable)
    }
    do {
      try report.flush()
    } catch {
      throw ReportFailed(cause: error, lastSaved: last)
    }
  }

  /// What the store did with a priced group.
  enum Stored {
    /// Saved and synced; the number of its last order.
    case placed(last: Int?)
    /// Nothing saved: a reference of the group is already held.
    case refused
  }

  /// A group's orders, priced: each order's items as catalog entries and quantities.
  struct Group {
    fileprivate let table: SKUTable
    private var items: [Item] = []
    /// Per order: where its items end in `items`, its total and its input line.
    private var ends: [Int] = []
    private var totals: [Int] = []
    private var lines: [Int] = []
    /// The bytes of the group's refs, one after the other; per order, where its ref ends in
    /// them (its start is where the one before ends; none when both are equal) and its
    /// fingerprint (0 for none). All empty unless ``hasReferences``.
    private var referenceBytes: [UInt8] = []
    /// How many bytes of ``referenceBytes`` are the group's: the array only grows, so adding a
    /// ref is one copy into room it already has.
    private var referenceLength = 0
    private var referenceEnds: [Int] = []
    private(set) var fingerprints: [UInt64] = []
    private(set) var hasReferences = false
    /// The orders with refs, by fingerprint: an open-addressing table of order indices + 1
    /// (0 for an empty slot), at most half full; empty until the group's first ref.
    private var seen: [Int32] = []
    private var seenCount = 0

    fileprivate struct Item {
      var entry: Int
      var quantity: Int
    }

    fileprivate init(table: SKUTable) {
      self.table = table
    }

    /// An empty group, priced against `catalog`, for another store's fast path
    /// (``PostgresPricedBatch``).
    init(catalog: any Catalog) {
      self.init(table: SKUTable(catalog.entries))
    }

    var count: Int { ends.count }

    /// What reading one group of the input gave.
    enum Read {
      /// The end of input.
      case end
      /// Every line a plain cart, priced in this group.
      case priced
      /// A line the fast path does not price: the whole group as the plain way's requests.
      case plain([Request])
    }

    /// Reads the input's next group into this one, as both fast paths read it; `everyLines`
    /// runs after every 256th line (the PostgreSQL path hands the server more rows then).
    mutating func read(_ input: BatchInput, everyLines: (() -> Void)? = nil) throws -> Read {
      removeAll()
      var requests: [Request]?
      var lines = 0
      let more = try input.nextGroup { line, number in
        lines &+= 1
        if lines & 255 == 0 { everyLines?() }
        if requests == nil {
          if let line, add(line, number: number) { return }
          requests = self.requests()
        }
        let request =
          line.map { CartSyntax.request(line: $0, number: number) }
          ?? Request(
            line: number, cart: .failure(.lineTooLong(limit: BatchInput.maximumLineBytes)))
        requests?.append(request)
      }
      guard more else { return .end }
      return requests.map { .plain($0) } ?? .priced
    }

    mutating func removeAll() {
      items.removeAll(keepingCapacity: true)
      ends.removeAll(keepingCapacity: true)
      totals.removeAll(keepingCapacity: true)
      lines.removeAll(keepingCapacity: true)
      if hasReferences {
        referenceLength = 0
        referenceEnds.removeAll(keepingCapacity: true)
        fingerprints.removeAll(keepingCapacity: true)
        for index in seen.indices { seen[index] = 0 }
        seenCount = 0
      }
      hasReferences = false
    }

    /// Adds the line when it is a cart the plain way would price as this: `SKU=QTY` items
    /// (``CartSyntax``), each SKU sold, quantities and sums within ``Cart/maximumQuantity``,
    /// the total within `Int`. False, with nothing added, for any other line.
    mutating func add(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
      let first = items.count
      var cart = line
      var reference: UnsafeBufferPointer<UInt8>?
      var fingerprint: UInt64 = 0
      var seenSlot = -1
      if line.first == UInt8(ascii: "@") {
        // One pass finds where the ref ends, checks its bytes (``Reference/isValid(_:)``) and
        // takes its fingerprint.
        var end = 1
        var allowed = true
        var hash = Fingerprint.start
        while end < line.count {
          let byte = line[end]
          if CartSyntax.isBlank(byte) { break }
          allowed = allowed && Reference.isAllowed(byte)
          hash = Fingerprint.step(hash, byte)
          end += 1
        }
        guard allowed, end > 1, end - 1 <= Reference.maximumLength else { return false }
        let bytes = UnsafeBufferPointer(rebasing: line[1..<end])
        fingerprint = Fingerprint.finish(hash)
        // A ref met before in the group is the plain way's to answer (already placed).
        guard let free = freeSeenSlot(bytes, fingerprint: fingerprint) else { return false }
        seenSlot = free
        reference = bytes
        cart = UnsafeBufferPointer(rebasing: line[end...])
      }
      guard parse(cart) else {
        items.removeSubrange(first...)
        return false
      }
      var total = 0
      for item in items[first...] {
        let (amount, productOverflow) = table.price(item.entry).multipliedReportingOverflow(
          by: item.quantity)
        let (sum, sumOverflow) = total.addingReportingOverflow(amount)
        guard !productOverflow, !sumOverflow else {
          items.removeSubrange(first...)
          return false
        }
        total = sum
      }
      if let reference { addReference(reference, fingerprint: fingerprint, slot: seenSlot) }
      ends.append(items.count)
      totals.append(total)
      lines.append(number)
      if hasReferences && reference == nil {
        referenceEnds.append(referenceLength)
        fingerprints.append(0)
      }
      return true
    }

    /// The free slot of ``seen`` where the ref `bytes`, of that fingerprint, would go; nil when
    /// an order of the group has it; -1 while ``seen`` is empty.
    private func freeSeenSlot(_ bytes: UnsafeBufferPointer<UInt8>, fingerprint: UInt64) -> Int? {
      guard !seen.isEmpty else { return -1 }
      let mask = seen.count - 1
      var slot = Int(truncatingIfNeeded: fingerprint) & mask
      while seen[slot] != 0 {
        let order = Int(seen[slot]) - 1
        if fingerprints[order] == fingerprint,
          referenceBytes.withUnsafeBufferPointer({ all in
            all[reference(of: order)].elementsEqual(bytes)
          })
        {
          return nil
        }
        slot = (slot + 1) & mask
      }
      return slot
    }

    /// Where the ref of order `index` is in ``referenceBytes``.
    private func reference(of index: Int) -> Range<Int> {
      (index == 0 ? 0 : referenceEnds[index - 1])..<referenceEnds[index]
    }

    /// Keeps the ref of the order being added (the group's `count`-th), which
    /// ``freeSeenSlot(_:fingerprint:)`` did not find, but found `slot` free for.
    private mutating func addReference(
      _ bytes: UnsafeBufferPointer<UInt8>, fingerprint: UInt64, slot: Int
    ) {
      if !hasReferences {
        // The orders before the first ref have none.
        referenceEnds.append(contentsOf: repeatElement(0, count: count))
        fingerprints.append(contentsOf: repeatElement(0, count: count))
        hasReferences = true
      }
      let index = count
      let start = referenceLength
      if referenceBytes.count < start + bytes.count {
        referenceBytes.append(
          contentsOf: repeatElement(0, count: max(start + bytes.count, 2 * referenceBytes.count)))
      }
      referenceBytes.withUnsafeMutableBytes { all in
        guard let base = all.baseAddress, let source = bytes.baseAddress else { return }
        (base + start).copyMemory(from: source, byteCount: bytes.count)
      }
      referenceLength = start + bytes.count
      referenceEnds.append(referenceLength)
      fingerprints.append(fingerprint)
      if (seenCount + 1) * 2 > seen.count {
        // Grown to twice the size, every ref placed again.
        var size = max(64, seen.count * 2)
        while (seenCount + 1) * 2 > size { size *= 2 }
        seen = Array(repeating: 0, count: size)
        for order in 0..<index where fingerprints[order] != 0 { insertSeen(order) }
        insertSeen(index)
      } else {
        // Not grown since it was found free.
        seen[slot] = Int32(truncatingIfNeeded: index + 1)
      }
      seenCount += 1
    }

    private mutating func insertSeen(_ order: Int) {
      let mask = seen.count - 1
      var slot = Int(truncatingIfNeeded: fingerprints[order]) & mask
      while seen[slot] != 0 { slot = (slot + 1) & mask }
      // A group holds at most ``BatchInput/groupLines`` lines, far below `Int32`.
      seen[slot] = Int32(truncatingIfNeeded: order + 1)
    }

    /// The refs of the orders `indices` (into ``fingerprints``, each with a ref), as their
    /// fingerprints and bytes, in that order. `body` returns false to stop.
    func forEachReference<Failure: Error>(
      _ indices: some Sequence<Int>,
      _ body: (UInt64, UnsafeBufferPointer<UInt8>) throws(Failure) -> Bool
    ) throws(Failure) {
      guard hasReferences else { return }
      var failure: Failure?
      referenceBytes.withUnsafeBufferPointer { all in
        for index in indices {
          let fingerprint = fingerprints[index]
          do throws(Failure) {
            guard try body(fingerprint, UnsafeBufferPointer(rebasing: all[reference(of: index)]))
            else { return }
          } catch {
            failure = error
            return
          }
        }
      }
      if let failure { throw failure }
    }

    /// The ref of order `index` as a ``Reference``, for the plain way.
    private func reference(at index: Int) -> Reference? {
      guard hasReferences, fingerprints[index] != 0 else { return nil }
      return Reference(referenceBytes[reference(of: index)])
    }

    /// The items of a line, appended to `items`, SKUs given twice added up; false when the
    /// line is anything else (it may still be a cart, which the plain way then reads).
    private mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
      let first = items.count
      var index = 0
      while index < line.count {
        if CartSyntax.isBlank(line[index]) {
          index += 1
          continue
        }
        let start = index
        var hash = SKUTable.seed
        while index < line.count, line[index] != UInt8(ascii: "=") {
          guard SKU.isAllowed(line[index]) else { return false }
          hash = SKUTable.hash(hash, line[index])
          index += 1
        }
        let sku = UnsafeBufferPointer(rebasing: line[start..<index])
        guard index < line.count, !sku.isEmpty, sku.count <= SKU.maximumLength,
          let entry = table.entry(sku, hash: hash)
        else { return false }
        index += 1
        var quantity = 0
        let digits = index
        while index < line.count, !CartSyntax.isBlank(line[index]) {
          let digit = line[index] &- UInt8(ascii: "0")
          guard digit < 10 else { return false }
          quantity = quantity * 10 + Int(digit)
          guard quantity <= Cart.maximumQuantity else { return false }
          index += 1
        }
        guard index > digits, quantity > 0 else { return false }
        if let same = items[first...].firstIndex(where: { $0.entry == entry }) {
          let sum = items[same].quantity + quantity
          guard sum <= Cart.maximumQuantity else { return false }
          items[same].quantity = sum
        } else {
          // A long cart is left to the plain way, whose cart finds its SKUs by an index.
          guard items.count - first < 16 else { return false }
          items.append(Item(entry: entry, quantity: quantity))
        }
      }
      return items.count > first
    }

    /// Each order's index in the group and what it pays.
    func forEachPayable(_ body: (Int, Int) -> Void) {
      for (index, total) in totals.enumerated() { body(index, Order.payable(total: total)) }
    }

    /// The group's lines so far as the plain way reads them, for a group it must place.
    func requests() -> [Request] {
      var requests: [Request] = []
      var start = 0
      for (index, end) in ends.enumerated() {
        var cart = Cart()
        var failure: CartError?
        for item in items[start..<end] {
          do { try cart.add(Cart.Item(sku: table.sku(item.entry), quantity: item.quantity)) } catch
          {
            failure = error
          }
        }
        let parsed: Result<Cart, CartError> = failure.map { .failure($0) } ?? .success(cart)
        requests.append(
          Request(line: lines[index], cart: parsed, reference: reference(at: index)))
        start = end
      }
      return requests
    }

    /// Appends the orders `indices` of a group without refs as rows of ``PostgresOrders``'s
    /// COPY, the group numbered from `first`: the columns and values ``PostgresOrders`` sends
    /// for an ``Order``, items as ``OrderLayout`` writes them. False when `placedAt` is out of
    /// PostgreSQL's range.
    func appendCopyRows(
      numberedFrom first: Int, placedAt: Timestamp, orders indices: Range<Int>,
      to rows: inout PostgresCopyRows
    ) -> Bool {
      var json: [UInt8] = []
      for index in indices {
        let start = index == 0 ? 0 : ends[index - 1]
        var bound = 2
        for position in start..<ends[index] { bound += table.itemBound(items[position].entry) }
        json.removeAll(keepingCapacity: true)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
          var writer = ByteWriter(buffer)
          writer.put(OrderLayout.listStart)
          for position in start..<ends[index] {
            if position > start { writer.put(OrderLayout.separator) }
            table.writeItem(items[position].entry, items[position].quantity, to: &writer)
          }
          writer.put(OrderLayout.listEnd)
          // The bound holds every item with its separator, and the brackets.
          json.append(contentsOf: writer.written)
        }
        let total = totals[index]
        rows.startRow(fields: 6)
        rows.append(first &+ index)
        guard rows.appendTimestamp(secondsSince1970: placedAt.secondsSince1970) else {
          return false
        }
        rows.appendJSONB(json)
        rows.append(total)
        rows.append(Order.payable(total: total))
        rows.appendText(nil)
      }
      return true
    }

    /// Appends the group's order lines, numbered from `first`, in ``OrderLayout``.
    /// - Returns: where the last line starts in `bytes`.
    /// Each order with a ref goes into `offsets` as its fingerprint and where its line starts,
    /// `base` being where `bytes` starts in the file.
    func write(
      numberedFrom first: Int, placedAt: Timestamp, to bytes: inout [UInt8],
      references offsets: inout [(hash: UInt64, offset: Int)], at base: Int
    ) -> Int {
      var time: [UInt8] = []
      UTCTime.append(placedAt, to: &time)
      var bound = 0
      for item in items { bound += table.itemBound(item.entry) }
      bound += ends.count * (table.orderBound + time.count)
      bound += referenceLength
      var lastStart = 0
      while true {
        let fits = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
          var writer = ByteWriter(buffer)
          var starts: [(hash: UInt64, offset: Int)] = []
          lastStart = writeOrders(
            numberedFrom: first, time: time, to: &writer, references: &starts,
            at: base + bytes.count)
          guard writer.fits else { return writer.count }
          offsets += starts
          bytes.append(contentsOf: writer.written)
          return 0
        }
        if fits == 0 { break }
        bound = fits
      }
      return bytes.count - lastStart
    }

    /// Writes every order; how many bytes from the last one's start to the end.
    private func writeOrders(
      numberedFrom first: Int, time: [UInt8], to writer: inout ByteWriter,
      references offsets: inout [(hash: UInt64, offset: Int)], at base: Int
    ) -> Int {
      var start = 0
      var lastStart = 0
      var referenceStart = 0
      time.withUnsafeBufferPointer { time in
        items.withUnsafeBufferPointer { items in
          referenceBytes.withUnsafeBufferPointer { referenceBytes in
            for (index, end) in ends.enumerated() {
              lastStart = writer.count
              let total = totals[index]
              var reference: UnsafeBufferPointer<UInt8>?
              if hasReferences {
                let referenceEnd = referenceEnds[index]
                if referenceEnd > referenceStart {
                  reference = UnsafeBufferPointer(
                    rebasing: referenceBytes[referenceStart..<referenceEnd])
                  offsets.append((fingerprints[index], base + lastStart))
                }
                referenceStart = referenceEnd
              }
              table.writeOrder(referenced: reference != nil, to: &writer) { value, writer in
                switch value {
                case .number: writer.put(first &+ index)
                case .total: writer.put(total)
                case .payable: writer.put(Order.payable(total: total))
                case .placedAt: writer.put(time)
                case .items:
                  for position in start..<end {
                    if position > start { writer.put(OrderLayout.separator) }
                    table.writeItem(items[position].entry, items[position].quantity, to: &writer)
                  }
                case .reference:
                  if let reference { writer.put(reference) }
                case .sku, .quantity, .price, .voids: break
                }
              }
              start = end
            }
          }
        }
      }
      return writer.count - lastStart
    }
  }
}

/// The catalog's SKUs found by their bytes: an open-addressing table built once, holding
/// each entry's item text with its SKU and price already written, by ``OrderLayout``.
private final class SKUTable {
  static let seed: UInt32 = 2_166_136_261

  /// FNV-1a, one byte at a time, as the line is read.
  @inline(__always)
  static func hash(_ hash: UInt32, _ byte: UInt8) -> UInt32 {
    (hash ^ UInt32(byte)) &* 16_777_619
  }

  /// Plain values only, so reading one counts no references.
  private struct Entry {
    let price: Int
    /// `{"sku":"pen","quantity":` and `,"price":30}` in `text`, around the quantity.
    let head: Range<Int>
    let tail: Range<Int>
    /// Where the SKU's bytes are in `text`.
    let skuStart: Int
    let skuCount: Int
  }

  private let entries: [Entry]
  private let skus: [String]
  private let text: UnsafeMutableBufferPointer<UInt8>
  /// Indices into `entries` by hash; -1 for an empty slot.
  private let slots: [Int]
  private let mask: Int
  /// An order's own text around its values, by ``OrderLayout`` (no reference: a priced
  /// group's orders have none): `pieces[k]` before `values[k]`, the last piece after them.
  private let pieces: [Range<Int>]
  private let values: [OrderLayout.Field]
  /// The same for an order with a reference.
  private let referencedPieces: [Range<Int>]
  private let referencedValues: [OrderLayout.Field]
  /// An order's text and its integers (at most 20 bytes each), without items or the time.
  let orderBound: Int

  init(_ catalog: [(sku: String, price: Int)]) {
    var bytes: [UInt8] = []
    func order(referenced: Bool) -> (pieces: [Range<Int>], values: [OrderLayout.Field]) {
      var pieces: [Range<Int>] = []
      var values: [OrderLayout.Field] = []
      var piece = bytes.count
      bytes.append(OrderLayout.objectStart)
      for (index, field) in OrderLayout.order.enumerated() where referenced || !field.isOptional {
        bytes += OrderLayout.keyText(field, first: index == 0)
        if field.value == .items { bytes.append(OrderLayout.listStart) }
        if field.value.isQuoted { bytes.append(OrderLayout.quote) }
        pieces.append(piece..<bytes.count)
        values.append(field)
        piece = bytes.count
        if field.value == .items { bytes.append(OrderLayout.listEnd) }
        if field.value.isQuoted { bytes.append(OrderLayout.quote) }
      }
      bytes += [OrderLayout.objectEnd, OrderLayout.lineEnd]
      pieces.append(piece..<bytes.count)
      return (pieces, values)
    }
    let plain = order(referenced: false)
    let referenced = order(referenced: true)
    self.orderBound = bytes.count + 20 * referenced.values.count
    var entries: [Entry] = []
    for (sku, price) in catalog {
      var head: Range<Int>?
      var skuStart = 0
      var start = bytes.count
      bytes.append(OrderLayout.objectStart)
      for (index, field) in OrderLayout.item.enumerated() {
        bytes += OrderLayout.keyText(field, first: index == 0)
        switch field {
        case .sku:
          bytes.append(OrderLayout.quote)
          skuStart = bytes.count
          bytes += Array(sku.utf8)
          bytes.append(OrderLayout.quote)
        case .price:
          ByteWriter.appendDecimal(price, to: &bytes)
        default:
          head = start..<bytes.count
          start = bytes.count
        }
      }
      bytes.append(OrderLayout.objectEnd)
      let tail = start..<bytes.count
      entries.append(
        Entry(
          price: price, head: head ?? tail.lowerBound..<tail.lowerBound, tail: tail,
          skuStart: skuStart, skuCount: sku.utf8.count))
    }
    text = .allocate(capacity: max(bytes.count, 1))
    _ = text.initialize(from: bytes)
    var size = 16
    while size < 2 * entries.count { size *= 2 }
    var slots = [Int](repeating: -1, count: size)
    for (index, sku) in catalog.map(\.sku).enumerated() {
      var hash = SKUTable.seed
      for byte in sku.utf8 { hash = SKUTable.hash(hash, byte) }
      var slot = Int(hash) & (size - 1)
      while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
      slots[slot] = index
    }
    self.entries = entries
    self.skus = catalog.map(\.sku)
    self.slots = slots
    self.mask = size - 1
    self.pieces = plain.pieces
    self.values = plain.values
    self.referencedPieces = referenced.pieces
    self.referencedValues = referenced.values
  }

  deinit {
    text.deallocate()
  }

  /// The entry whose SKU is `sku`, which hashes to `hash`; nil when the catalog has none.
  @inline(__always)
  func entry(_ sku: UnsafeBufferPointer<UInt8>, hash: UInt32) -> Int? {
    var slot = Int(hash) & mask
    while true {
      let index = slots[slot]
      guard index >= 0 else { return nil }
      let entry = entries[index]
      if entry.skuCount == sku.count, let base = text.baseAddress, let bytes = sku.baseAddress,
        System.equalBytes(base + entry.skuStart, bytes, count: sku.count)
      {
        return index
      }
      slot = (slot + 1) & mask
    }
  }

  func price(_ entry: Int) -> Int { entries[entry].price }
  func sku(_ entry: Int) -> String { skus[entry] }

  /// The most bytes ``writeItem(_:_:to:)`` writes for `entry`, with a separator.
  func itemBound(_ entry: Int) -> Int {
    entries[entry].head.count + entries[entry].tail.count + 21
  }

  @inline(__always)
  func writeItem(_ entry: Int, _ quantity: Int, to writer: inout ByteWriter) {
    let entry = entries[entry]
    writer.put(UnsafeBufferPointer(rebasing: text[entry.head]))
    writer.put(quantity)
    writer.put(UnsafeBufferPointer(rebasing: text[entry.tail]))
  }

  /// An order's text, with `value` writing each of its values in turn.
  @inline(__always)
  func writeOrder(
    referenced: Bool, to writer: inout ByteWriter,
    _ value: (OrderLayout.Field, inout ByteWriter) -> Void
  ) {
    let pieces = referenced ? referencedPieces : self.pieces
    for (index, field) in (referenced ? referencedValues : values).enumerated() {
      writer.put(UnsafeBufferPointer(rebasing: text[pieces[index]]))
      value(field, &writer)
    }
    if let last = pieces.last { writer.put(UnsafeBufferPointer(rebasing: text[last])) }
  }
}
