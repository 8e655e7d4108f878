import ShopCore

/// The fast path of `shop orders --json` of every order in a file (issue 18), fenced here: a
/// line laid out exactly as `shop` writes it is checked where it lies, by the rules of the
/// fast decoder (``JSONParser/encodersOrder()``), and copied, without building its order: no
/// `String` per SKU, no array of items, no ``Order``. Its number is checked as
/// ``FileOrders/readAll(_:)`` checks it. Any other line takes the plain path (parsed, its
/// order handed on to be encoded), and so does every error, so what is printed and where a
/// listing stops are the plain path's: `StoredLineCopyTests` holds the two equal.
extension FileOrders {
  public func readAllLines(
    _ copy: (UnsafeBufferPointer<UInt8>) throws -> Void, orders: (Order) throws -> Void
  ) throws {
    guard var opened = try openSnapshot(strict: false) else { return }
    // As ``readAllChecked(_:)`` reads: the voids first, up to a line that is not a record.
    let (voided, fault) = try voids(in: opened, from: 0, upToAFault: true)
    opened.voided = voided
    let snapshot = opened
    // The number read last, the number of the next line and the last line's time, through a
    // pointer: captured variables would be checked for exclusive access at run time.
    var state = (previous: Int?.none, line: 1, times: LaidOutWords.LastTime())
    try withUnsafeMutablePointer(to: &state) { state in
      try snapshot.file.spans(from: 0, to: snapshot.end, unterminated: snapshot.unterminated) {
        spanStart, span in
        guard let base = span.baseAddress else { return true }
        // The lines from `run` to `at` were checked and are not handed on yet: they go as one
        // run, before any line that is not, and before any error.
        var run = 0
        var at = 0
        func handOn() throws {
          if at > run { try copy(UnsafeBufferPointer(start: base + run, count: at - run)) }
        }
        while at < span.count {
          let offset = spanStart + at
          let rest = UnsafeRawBufferPointer(start: base + at, count: span.count - at)
          // A span's last line lacks its newline only at an unterminated end.
          let length = System.firstIndex(of: OrderLayout.lineEnd, in: rest) ?? rest.count
          let next = min(at + length + 1, span.count)
          let line = UnsafeBufferPointer(start: base + at, count: length)
          let lineNumber = state.pointee.line
          state.pointee.line += 1
          if let fault, offset >= fault.offset {
            try handOn()
            throw fault.error
          }
          if let number = StoredLine.checked(
            line, startingWith: StoredLine.Sum(), times: &state.pointee.times)?.number,
            snapshot.voided.isEmpty || snapshot.voided[number] == nil,
            Order.isNumber(number, after: state.pointee.previous)
          {
            state.pointee.previous = number
            at = next
            continue
          }
          try handOn()
          let (order, stored) = try parse(line, line: lineNumber, at: offset, in: snapshot)
          try checkNumber(order.number, after: state.pointee.previous, line: lineNumber)
          state.pointee.previous = order.number
          if let stored {
            try copy(UnsafeBufferPointer(start: stored.baseAddress, count: next - at))
          } else {
            try orders(order)
          }
          at = next
          run = next
        }
        try handOn()
        return true
      } tooLong: { _ in
        state.pointee.line
      }
    }
    // Every complete line was checked on the way, and listed; what the ends say about the
    // bytes after them (a foreign tail) stops the listing here, as it stops a writer.
    _ = try snapshot.ends.checked(in: snapshot.file, writing: false)
  }
}

/// The order on a line laid out exactly as ``OrderLayout`` says, read by the fast decoder's own
/// reader of the layout (``JSONParser/laidOutOrder(_:)``) keeping only the items' sum, and
/// checked as ``JSONParser/encodersOrder()`` checks it (the layout, SKU and reference syntax, a
/// quantity a cart holds, price 0 or more, each SKU once, the total the sum of the items without overflow, payable by the
/// rule, a real time, by the core's ``ShopCore/Order/init(stored:lines:total:payable:placedAt:reference:)``
/// rules): its number, or nil where that decoder would give up.
enum StoredLine {
  static func number(of line: UnsafeBufferPointer<UInt8>) -> Int? {
    checked(line)?.number
  }

  /// The line's members, when it passes every check of ``number(of:)``: its items are kept
  /// only as their sum.
  static func checked(_ line: UnsafeBufferPointer<UInt8>) -> LaidOutOrder<Sum>? {
    var times = LaidOutWords.LastTime()
    return checked(line, startingWith: Sum(), times: &times)
  }

  /// ``checked(_:)``, its items kept as `empty` keeps them as they are read (a summary's tally
  /// of them, which it takes back when the line fails a check). The line is read by words
  /// (``LaidOutWords``, `times` the time of the line read before) where they read it whole,
  /// else by the fast decoder's reader of the layout; the checks after are the same.
  @inline(__always)
  static func checked<Items: CheckedItems>(
    _ line: UnsafeBufferPointer<UInt8>, startingWith empty: Items,
    times: inout LaidOutWords.LastTime
  ) -> LaidOutOrder<Items>? {
    let read: LaidOutOrder<Items>?
    // Whether two items name one SKU is known, when the words read the line.
    var repeats: Bool?
    switch LaidOutWords.read(line, startingWith: empty, times: &times) {
    case .taken(let order, let distinct):
      read = order
      repeats = !distinct
    case .refused: return nil
    case .undecided: read = plainRead(line, startingWith: empty)
    }
    guard let order = read,
      (try? Order.checkStored(number: order.number)) != nil,
      order.reference.map({ Reference.isValid($0) }) ?? true,
      order.items.sum.amount == order.total, Order.payable(total: order.total) == order.payable,
      !(repeats ?? (order.items.sum.mayRepeat && repeatsSKU(line)))
    else { return nil }
    return order
  }

  /// The line's members as the fast decoder's reader of the layout reads them: what
  /// ``LaidOutWords`` leaves undecided, and what it is held to.
  static func plainRead<Items: LaidOutItems>(
    _ line: UnsafeBufferPointer<UInt8>, startingWith empty: Items
  ) -> LaidOutOrder<Items>? {
    var parser = JSONParser(bytes: line)
    return parser.laidOutOrder(startingWith: empty)
  }

  /// What items the check reads keep: at least their ``Sum``.
  protocol CheckedItems: LaidOutItems {
    var sum: Sum { get }
  }

  /// All the check keeps of the items: the sum of price × quantity, given up past `Int`, and
  /// a bit per SKU (a hash of its bytes), so that a SKU given twice (the core's rule: it is
  /// one item) is caught where its bit is already set; the exact check then runs on that
  /// line alone. A line read by ``LaidOutWords`` keeps no bits: that reader compares its
  /// SKUs exactly. Small on purpose: the parser copies it as each item is read.
  struct Sum: CheckedItems {
    var amount = 0
    var sum: Sum { self }
    /// Bits 0–62: a bit per SKU read; bit 63: a SKU's bit was already set.
    private var seen: UInt64 = 0
    var mayRepeat: Bool { seen >> 63 != 0 }

    static func empty() -> Sum { Sum() }

    mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
      guard appendCompared(sku: sku, quantity: quantity, price: price),
        let first = sku.first, let last = sku.last
      else { return false }
      // SKUs that differ mostly differ in length or at an end; a rarer pair of SKUs that
      // share a bit costs only the exact check.
      let ends =
        UInt64(sku.count) | UInt64(first) << 8 | UInt64(last) << 16
        | UInt64(sku.count > 1 ? sku[sku.count - 2] : 0) << 24
      let bit: UInt64 = 1 << ((ends &* 0x9E37_79B9_7F4A_7C15) >> 58 % 63)
      if seen & bit != 0 { seen |= 1 << 63 }
      seen |= bit
      return true
    }

    /// The item added to the sum only: its reader compares the SKUs itself.
    @inline(__always)
    mutating func appendCompared(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int)
      -> Bool
    {
      let (product, productOverflow) = price.multipliedReportingOverflow(by: quantity)
      let (sum, sumOverflow) = amount.addingReportingOverflow(product)
      guard !productOverflow, !sumOverflow, !sku.isEmpty else { return false }
      amount = sum
      return true
    }
  }

  /// Whether two items of `line`, laid out as ``OrderLayout`` says, name one SKU. In that
  /// layout `{` starts only the order and each item, an item starts `{"sku":"`, and its SKU
  /// ends at the next quote.
  static func repeatsSKU(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    var skus: [UnsafeBufferPointer<UInt8>] = []
    var from = 1
    while from < line.count,
      let brace = System.firstIndex(
        of: OrderLayout.objectStart,
        in: UnsafeRawBufferPointer(start: base + from, count: line.count - from))
    {
      let start = from + brace + skuKey.count + 1
      guard start <= line.count,
        let length = System.firstIndex(
          of: OrderLayout.quote,
          in: UnsafeRawBufferPointer(start: base + start, count: line.count - start))
      else { return true }  // Not the layout after all: the plain path decides.
      let sku = UnsafeBufferPointer(start: base + start, count: length)
      if skus.contains(where: { $0.elementsEqual(sku) }) { return true }
      skus.append(sku)
      from = start + length
    }
    return false
  }

  /// What follows an item's `{`.
  private static let skuKey = Array(#""sku":""#.utf8)
}
