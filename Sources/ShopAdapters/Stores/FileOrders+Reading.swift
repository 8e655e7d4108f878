import ShopCore

// Over 300 lines on purpose: every reading form goes through the one snapshot and its checks,
// which are best read beside the forms that rely on them.

/// The reading forms of the order log: each reads a snapshot and checks what it reads.
extension FileOrders {
  // MARK: - A snapshot and its lines (FileOrders+Range.swift reads through them too)

  /// An open file, what its ends said when the read began, and where reading stops: after
  /// the last complete line, or at the end of a last line that only lacks its newline.
  struct Snapshot {
    let file: LineFile
    let ends: Ends
    /// Where a read of part of the file stops instead: the start of a line.
    var limit: Int? = nil
    /// For each order a void of this snapshot took back, the void's number: what ``parse``
    /// marks orders with. Filled by each form for the part it lists (``FileOrders/voids``).
    var voided: [Int: Int] = [:]
    var end: Int { limit ?? ends.readableEnd }
    var unterminated: Bool {
      guard limit == nil, case .whole = ends.tail else { return false }
      return true
    }

    /// The same snapshot, read only up to `end`, the start of a line.
    func window(endingAt end: Int) -> Snapshot {
      Snapshot(file: file, ends: ends, limit: end, voided: voided)
    }

    /// Each line from `start` to the end (see ``LineFile/lines(from:to:unterminated:firstLine:_:)``).
    func lines(
      from start: Int, firstLine: Int?,
      _ body: (Int, Int?, UnsafeBufferPointer<UInt8>) throws -> Bool
    ) throws {
      try file.lines(from: start, to: end, unterminated: unterminated, firstLine: firstLine, body)
    }

    /// The line that starts at `offset`, and the offset after it.
    func line(at offset: Int) throws(FileError) -> ([UInt8], Int) {
      try file.line(at: offset, end: end, unterminated: unterminated)
    }
  }

  /// Opens the file to read what it holds now; nil when it does not exist (no orders).
  /// `strict`: what the ends say wrong stops the read now; else (a full listing, which checks
  /// every line itself) it stops the read once the lines before it were listed.
  func openSnapshot(strict: Bool) throws(FileError) -> Snapshot? {
    guard let file = try LineFile.openToRead(path, lineBound: lineBound) else { return nil }
    try checkRegular(file, writing: false)
    // Under the shared lock no write is half done, and no torn tail is being cut and
    // replaced, so the ends seen now mark bytes that will never change.
    let locked = try file.lockToRead(isWriting ? .untilFree : readWait, told: &toldOfWaiting)
    defer { if locked { file.descriptor.unlock() } }
    let ends = try self.ends(of: file, size: try file.size())
    if strict || ends.linesEnd == nil { _ = try ends.checked(in: file, writing: false) }
    return Snapshot(file: file, ends: ends)
  }

  // MARK: - The forms

  public func readAll(_ visit: (Order) throws -> Void) throws {
    try readAllChecked { offset, lineNumber, bytes, snapshot, check in
      let (order, stored) = try parse(bytes, line: lineNumber, at: offset, in: snapshot)
      try check(order.number)
      try self.visit(order, stored: stored, visit)
    }
  }

  /// Calls `body` with every line of a snapshot of the whole file, its offset and number,
  /// and a check that the number `body` finds on it follows the one before (to call before
  /// it hands the line on).
  func readAllChecked(
    _ body: (Int, Int?, UnsafeBufferPointer<UInt8>, Snapshot, (Int) throws -> Void) throws -> Void
  ) throws {
    guard var opened = try openSnapshot(strict: false) else { return }
    // A void comes after the order it takes back: the voids are found first, up to a line
    // that is not a record, where the listing itself stops.
    let (voided, fault) = try voids(in: opened, from: 0, upToAFault: true)
    opened.voided = voided
    // A constant, so each line hands it on without copying it out of a captured variable.
    let snapshot = opened
    // The number read last and the line being read, through a pointer: a variable that the
    // check's closure captured would be checked for exclusive access at run time, each line.
    var numbering = (previous: Int?.none, line: 0)
    try withUnsafeMutablePointer(to: &numbering) { numbering in
      func check(_ number: Int) throws {
        try checkNumber(number, after: numbering.pointee.previous, line: numbering.pointee.line)
        numbering.pointee.previous = number
      }
      try snapshot.lines(from: 0, firstLine: 1) { offset, number, bytes in
        if let fault, offset >= fault.offset { throw fault.error }
        numbering.pointee.line = number ?? 0
        try body(offset, number, bytes, snapshot, check)
        return true
      }
    }
    // Every complete line was checked on the way, and listed; what the ends say about the
    // bytes after them (a foreign tail) stops the listing here, as it stops a writer.
    _ = try snapshot.ends.checked(in: snapshot.file, writing: false)
  }

  /// How many orders the file holds, without parsing every line: complete lines are counted,
  /// and the last one must be order 1000 + count, or the file has lost or gained lines.
  public func count() throws(FileError) -> Int {
    guard let snapshot = try openSnapshot(strict: true) else { return 0 }
    var lines = try snapshot.file.newlines(before: snapshot.end)
    if snapshot.unterminated { lines += 1 }
    let expected = Order.firstNumber - 1 + lines
    if let last = snapshot.ends.last?.number, last != expected {
      throw .badData(
        path, line: lines,
        reason: "the last order is \(last) but \(lines) lines must end with \(expected)")
    }
    return lines
  }

  public func last(_ count: Int, _ visit: (Order) throws -> Void)
    throws
  {
    guard count > 0, var snapshot = try openSnapshot(strict: true) else { return }
    let start = try start(ofLast: count, endingAt: snapshot.end, notBefore: 0, in: snapshot)
    // The voids of the last orders can only be among them.
    snapshot.voided = try voids(in: snapshot, from: start)
    try visitChecked(snapshot, from: start, visit)
  }

  /// The start of the `count`-th line back from `end` (the start of a line, or the snapshot's
  /// end), never before `floor`: newlines are counted backwards, so the cost is that of the
  /// lines counted, not of the file. A last line without its newline needs one newline fewer.
  func start(ofLast count: Int, endingAt end: Int, notBefore floor: Int, in snapshot: Snapshot)
    throws(FileError) -> Int
  {
    // `--last` may be as large as `Int` goes: no file has that many lines to count back.
    let wanted = end == snapshot.end && snapshot.unterminated || count == .max ? count : count + 1
    var start = end
    var newlines = 0
    while newlines < wanted, start > floor, let newline = try snapshot.file.newline(before: start) {
      newlines += 1
      start = newline
    }
    return newlines == wanted ? max(start + 1, floor) : floor
  }

  /// Visits the orders of the lines from `start` to the end of `snapshot`, checking their
  /// numbering: from the first line it is known to start at 1001; from a later one, only the
  /// lines read can be checked against each other (and against `previous`, the number of the
  /// line before `start`, when the caller read it), so the cost does not grow with the file.
  /// With `inPlace`, each line is offered to it first, and a line it takes is checked by
  /// number and handed to it, never parsed. Returns the number of the last line read.
  @discardableResult
  func visitChecked(
    _ snapshot: Snapshot, from start: Int, following previous: Int? = nil,
    inPlace: InPlace? = nil, _ visit: (Order) throws -> Void
  ) throws -> Int? {
    var checking = start == 0 || previous != nil
    var previous = previous
    var read: Int?
    try snapshot.lines(from: start, firstLine: start == 0 ? 1 : nil) { offset, number, bytes in
      var parsed: (Order, UnsafeBufferPointer<UInt8>?)?
      let orderNumber: Int
      if let inPlace, let taken = try inPlace.read(bytes, snapshot) {
        orderNumber = taken
      } else {
        let line = try parse(bytes, line: number, at: offset, in: snapshot)
        parsed = line
        orderNumber = line.0.number
      }
      if checking, !Order.isNumber(orderNumber, after: previous) {
        let line = try number ?? snapshot.file.lineNumber(at: offset)
        try checkNumber(orderNumber, after: previous, line: line)
      }
      checking = true
      previous = orderNumber
      read = orderNumber
      if let (order, stored) = parsed {
        try self.visit(order, stored: stored, visit)
      } else if let inPlace {
        try inPlace.visit()
      }
      return true
    }
    return read
  }

  /// A fast path's reader of lines as they lie: `read` returns the number of an order it
  /// takes from the line (checked in place, and in no void of the snapshot), or nil for the
  /// line to be parsed; `visit` is told of the line it took once its number is checked.
  struct InPlace {
    let read: (UnsafeBufferPointer<UInt8>, Snapshot) throws -> Int?
    let visit: () throws -> Void
  }

  /// Finds order `number` by bisecting the file by offset: in a well-formed file numbers rise
  /// with the offset, so a few reads find it in a file of any size. The number found is
  /// checked, never assumed: the line landed on must follow the one before it, and the order
  /// found the next line follow it, by one, else the file is damaged there (a line taken out,
  /// repeated or moved) and that is the answer, not "no order" nor one of two orders.
  public func order(
    numbered number: Int, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    guard number >= Order.firstNumber, var snapshot = try openSnapshot(strict: true) else {
      return false
    }
    let start = try firstLine(in: snapshot) { $0.number >= number }
    guard start < snapshot.end else { return false }
    snapshot.voided = try voids(in: snapshot, from: start)
    let (bytes, next) = try snapshot.line(at: start)
    return try bytes.withUnsafeBufferPointer { line in
      let (order, stored) = try parse(line, line: nil, at: start, in: snapshot)
      try checkFollows(order.number, at: start, in: snapshot)
      guard order.number == number else { return false }
      try checkFollowed(order, next: next, in: snapshot)
      try self.visit(order, stored: stored, visit)
      return true
    }
  }

  /// The offset of the first line from `start` (a line's start) whose order `isAtOrPast` holds
  /// for (the end of the snapshot when none): for a test that holds from some line on, as
  /// numbers do, and times within a run (``TimeRuns``). A bisection by offset, then a scan of
  /// the last small stretch; every line it reads is parsed as strictly as any reader parses it.
  func firstLine(in snapshot: Snapshot, from start: Int = 0, where isAtOrPast: (Order) -> Bool)
    throws -> Int
  {
    var low = start  // Every line that starts before `low` is before the one sought.
    var high = snapshot.end  // No line that starts in low..<high is known yet.
    var found = snapshot.end  // The first line known to be at or past it.
    while high - low > 4096 {
      let middle = low + (high - low) / 2
      let lineStart = try snapshot.file.newline(after: middle - 2, before: high).map { $0 + 1 }
      guard let lineStart, lineStart < high else {
        high = middle
        continue
      }
      let (bytes, lineEnd) = try snapshot.line(at: lineStart)
      let order = try bytes.withUnsafeBufferPointer { line throws(FileError) in
        try parse(line, line: nil, at: lineStart, in: snapshot).0
      }
      if isAtOrPast(order) {
        high = lineStart
        found = lineStart
      } else {
        low = lineEnd
      }
    }
    try snapshot.lines(from: low, firstLine: low == 0 ? 1 : nil) { offset, number, bytes in
      guard offset < high else { return false }
      let (order, _) = try parse(bytes, line: number, at: offset, in: snapshot)
      guard !isAtOrPast(order) else {
        found = offset
        return false
      }
      return true
    }
    return found
  }

  /// The order that holds `reference`, found through the index, or false when none does. The
  /// file is read as every reader reads it: a snapshot whose ends pass the shared rule.
  public func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    guard var snapshot = try openSnapshot(strict: true) else { return false }
    if case .whole(let order) = snapshot.ends.tail, order.reference == reference {
      try visit(order)
      return true
    }
    let orders = ReferenceIndex.Orders(
      file: snapshot.file, details: try snapshot.file.details(),
      end: snapshot.ends.linesEnd ?? 0, writable: false)
    let index = ReferenceIndex(orders: path)
    try index.prepare(orders)
    guard let (order, start) = try index.located(reference, in: orders) else { return false }
    // As for a number: the order found follows the line before it, and the next line it.
    try checkNeighbours(of: order, at: start, in: snapshot)
    snapshot.voided = try voids(in: snapshot, from: start)
    try visit(order.voided(by: snapshot.voided[order.number]))
    return true
  }

  /// The line of the order being visited, while `visit` runs.
  public func storedLine(of order: Order) -> UnsafeBufferPointer<UInt8>? {
    guard let visiting, visiting.number == order.number else { return nil }
    return visiting.line
  }

  /// Visits `order`, with its line as ``storedLine(of:)`` while the visit runs.
  private func visit(
    _ order: Order, stored: UnsafeBufferPointer<UInt8>?, _ visit: (Order) throws -> Void
  ) throws {
    let outer = visiting
    visiting = stored.map { (order.number, $0) }
    defer { visiting = outer }
    try visit(order)
  }

  /// The order on a line, marked with the void of the snapshot that took it back, and the line
  /// itself when it is as `shop` writes it and not marked, for a listing to copy; nil when it
  /// must be encoded anew (extra keys, spaces, a CR before the newline, a void's mark).
  func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, line: Int?, at offset: Int = 0,
    in snapshot: Snapshot
  ) throws(FileError) -> (Order, UnsafeBufferPointer<UInt8>?) {
    do {
      let (order, isEncoders) = try OrderJSON.orderAndLayout(from: bytes)
      if let voidedBy = snapshot.voided[order.number], !order.isVoid {
        return (order.voided(by: voidedBy), nil)
      }
      return (order, isEncoders ? bytes : nil)
    } catch {
      var number = line ?? 0
      if line == nil { number = try snapshot.file.lineNumber(at: offset) }
      throw .badData(path, line: number, reason: "not an order: \(error.reason)")
    }
  }
}
