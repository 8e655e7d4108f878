import ShopCore

// Over 300 lines on purpose: preparing, finding, catching up and rebuilding all keep one
// promise (the header says how far the index is complete, and every hit is checked), which
// is checked best read together. The table's bytes are in ReferenceIndex+Table.swift.

/// Where each reference of an orders file is, in a hash table kept beside it (`PATH.refs`), so
/// that finding a reference costs a few reads whatever the number of orders.
///
/// The index is derived, never the truth: every hit is checked against the orders file (the
/// line at the recorded offset must be an order with that reference), its header records how
/// far into the orders file it is complete, and the lines after that point are read from the
/// orders file and added before any look-up. An index that is missing, corrupt, made for
/// another orders file (another inode, a shorter file, another line where it stopped) or
/// written before the machine last restarted (its pages may never have reached the disk) is
/// rebuilt from the orders file. Every change is made under the orders file's exclusive lock,
/// after the orders it records are synced, so a crash at any point leaves it behind the
/// orders, never ahead of them nor wrong.
///
/// Layout: a 4 KiB header, then `capacity` slots of 16 bytes (a reference's 64-bit hash,
/// never 0, and the offset of its order's line), open addressing with linear probing, at most
/// half full. When no file can be kept (a full disk, a read-only folder), the same table
/// lives in memory for the run.
final class ReferenceIndex {
  let path: FilePath
  private let ordersPath: FilePath
  private let boot: UInt64
  private var table: Table?

  init(orders: FilePath) {
    ordersPath = orders
    path = FilePath(orders.bytes + Array(".refs".utf8))
    boot = System.bootIdentity().map { Reference.fingerprint($0) } ?? 0
  }

  /// One line of the orders file to read: its offset and the end of the complete lines.
  struct Orders {
    /// Read with its own bound on a line, so a line no writer made is refused, not read whole.
    let file: LineFile
    let identity: FileIdentity
    /// The end of the last complete line: nothing after it is read.
    let end: Int
    /// Whether the index may be written (the caller holds the exclusive lock).
    let writable: Bool
  }

  // MARK: - Use

  /// Makes the index describe every complete line of `orders`: reopens it if another process
  /// replaced it, rebuilds it if it can't be trusted, adds the lines after where it stopped.
  func prepare(_ orders: Orders) throws(FileError) {
    if let table, let identity = table.identity,
      (try? System.identity(of: path)) != identity
    {
      self.table = nil
    }
    if table == nil { table = open(orders) }
    guard let table, table.trusted(for: orders, boot: boot),
      try covers(table, orders)
    else {
      try rebuild(orders)
      return
    }
    // A reader may not write the file: it reads the lines after the index's end per look-up.
    guard orders.writable || table.identity == nil else { return }
    if try !catchUp(table, orders, checking: true) { try rebuild(orders) }
  }

  /// The order that holds `reference`, checked against the orders file; nil when none does.
  func order(for reference: Reference, in orders: Orders) throws(FileError) -> Order? {
    try located(reference, in: orders)?.order
  }

  /// ``order(for:in:)``, with the offset where the order's line starts.
  func located(_ reference: Reference, in orders: Orders) throws(FileError)
    -> (order: Order, start: Int)?
  {
    guard let table else { return nil }
    do throws(Failure) {
      if let found = try find(reference, in: table, orders) { return found }
    } catch {
      guard case .untrusted = error else { throw error.fileError }
      // A slot that points at no such line: the index is not this file's.
      try rebuild(orders)
      guard let rebuilt = self.table else { return nil }
      do throws(Failure) {
        return try find(reference, in: rebuilt, orders)
      } catch {
        guard case .untrusted = error else { throw error.fileError }
        return try scan(for: reference, from: 0, orders)
      }
    }
    guard table.indexedEnd < orders.end else { return nil }
    return try scan(for: reference, from: table.indexedEnd, orders)
  }

  /// The order holding `reference` among the lines from `start`, read one by one.
  private func scan(for reference: Reference, from start: Int, _ orders: Orders)
    throws(FileError) -> (order: Order, start: Int)?
  {
    var found: (order: Order, start: Int)?
    try lines(of: orders, from: start) { offset, line throws(FileError) in
      guard let order = try? OrderJSON.order(from: line) else { return true }
      if order.reference == reference { found = (order, offset) }
      return found == nil
    }
    return found
  }

  /// Reads the first slot of every ref of a group before any is looked up: the reads don't
  /// wait on each other, so a group's cache misses overlap instead of coming one by one, and
  /// the look-ups and inserts that follow find the slots in the cache.
  func prefetch(_ drafts: [Draft]) {
    guard let table else { return }
    var sum: UInt64 = 0
    for draft in drafts {
      guard let reference = draft.reference else { continue }
      sum &+= table.slot(Int(truncatingIfNeeded: reference.fingerprint) & (table.capacity - 1)).hash
    }
    prefetched = sum  // Kept, so the reads are not optimized away.
  }

  private var prefetched: UInt64 = 0

  /// Records new orders, already synced in the orders file at `offsets`, and that the index
  /// now covers the file up to `end`, where the last line starts at `lastStart`.
  func record(
    _ references: [(Reference, Int)], end: Int, lastStart: Int, last: Int, _ orders: Orders
  ) throws(SystemError) {
    guard var table else { return }
    // Grown once to its size for the group, not doubled step by step as it fills.
    while (table.count + references.count) * 2 > table.capacity {
      table = try table.grown(at: path)
      self.table = table
    }
    for (reference, offset) in references {
      table = try insert(reference.fingerprint, offset, into: table)
    }
    let lines: (UInt64, UInt64)
    do { lines = try fingerprints(end: end, lastStart: lastStart, orders) } catch {
      // The caller drops the index, which catches up on its next use.
      throw .shortRead
    }
    try table.finish(
      end: end, lastStart: lastStart, last: last, lines: lines, orders, boot: boot)
  }

  /// Forgets the table, so the next use opens (or rebuilds) it again.
  func drop() {
    table = nil
  }

  // MARK: - Looking up

  private enum Failure: Error {
    case untrusted
    case file(FileError)

    /// For `.untrusted`, which callers handle first, a bug's message.
    var fileError: FileError {
      switch self {
      case .file(let error): return error
      case .untrusted: return .unreadable(FilePath("index"), .shortRead)
      }
    }
  }

  private func find(_ reference: Reference, in table: Table, _ orders: Orders) throws(Failure)
    -> (order: Order, start: Int)?
  {
    let hash = reference.fingerprint
    var slot = Int(truncatingIfNeeded: hash) & (table.capacity - 1)
    for _ in 0..<table.capacity {
      let (slotHash, offset) = table.slot(slot)
      if slotHash == 0 { return nil }
      if slotHash == hash {
        // The line must hold a ref of this hash: another ref is a slot that lies, not a
        // collision.
        guard let line = try orderLine(at: offset, orders),
          let held = line.order.reference, held.fingerprint == hash
        else { throw .untrusted }
        if held == reference { return (line.order, offset) }
      }
      slot = (slot + 1) & (table.capacity - 1)
    }
    return nil
  }

  /// The order on the line that starts at `offset` and where the line ends; nil when no
  /// order line starts there.
  private func orderLine(at offset: Int, _ orders: Orders) throws(Failure)
    -> (order: Order, end: Int)?
  {
    // An offset from a damaged slot or header may be anything, negative too.
    guard offset >= 0, offset < orders.end else { return nil }
    let start = max(0, offset - 1)
    var length = min(4096, orders.end - start)
    while true {
      var bytes = [UInt8](repeating: 0, count: length)
      let got: Int
      do { got = try orders.file.descriptor.read(into: &bytes, 0..<length, at: start) } catch {
        throw .file(.unreadable(ordersPath, error))
      }
      guard got == length else { throw .file(.unreadable(ordersPath, .shortRead)) }
      let skip = offset - start
      if skip == 1 && bytes[0] != UInt8(ascii: "\n") { return nil }
      if let newline = bytes[skip...].firstIndex(of: UInt8(ascii: "\n")) {
        let order = try? OrderJSON.order(from: Array(bytes[skip..<newline]))
        return order.map { ($0, start + newline + 1) }
      }
      // Past the bound it is no line `shop` wrote: not an order line, so never trusted.
      if start + length >= orders.end || length - skip > orders.file.lineBound { return nil }
      length = min(length * 4, orders.end - start)
    }
  }

  // MARK: - Keeping it complete

  /// Whether the index stopped at a line of this file: where it says its last line starts,
  /// there is that order, ending where it says, and that line and the file's first are the
  /// bytes it saw (another file may take the same inode after `rm`, with lines as long).
  private func covers(_ table: Table, _ orders: Orders) throws(FileError) -> Bool {
    let end = table.indexedEnd
    guard end <= orders.end else { return false }
    if end == 0 { return table.indexedLast == 0 }
    do throws(Failure) {
      guard let line = try orderLine(at: table.indexedLastStart, orders),
        line.end == end, line.order.number == table.indexedLast
      else { return false }
    } catch {
      guard case .untrusted = error else { throw error.fileError }
      return false
    }
    let lines = try fingerprints(end: end, lastStart: table.indexedLastStart, orders)
    return lines.first == table.firstLine && lines.last == table.lastLine
  }

  /// Hashes of the first line of the orders file and of the line from `lastStart` to `end`
  /// (both without their newline): 0 and 0 for an empty file.
  private func fingerprints(end: Int, lastStart: Int, _ orders: Orders) throws(FileError)
    -> (first: UInt64, last: UInt64)
  {
    guard end > 0 else { return (0, 0) }
    func hash(_ start: Int, _ stop: Int) throws(FileError) -> UInt64 {
      var bytes = [UInt8](repeating: 0, count: stop - start)
      try orders.file.read(into: &bytes, at: start)
      return Reference.fingerprint(bytes)
    }
    let firstEnd =
      lastStart == 0
      ? end - 1 : try orders.file.newline(after: -1, before: lastStart) ?? lastStart - 1
    return (try hash(0, firstEnd), try hash(lastStart, end - 1))
  }

  /// Adds the references of the lines after where the index stopped. `checking`: their
  /// numbers must go on from its last one, or the index was made for other lines (false).
  private func catchUp(_ table: Table, _ orders: Orders, checking: Bool) throws(FileError)
    -> Bool
  {
    guard table.indexedEnd < orders.end else { return true }
    var table = table
    var previous: Int? = table.indexedLast == 0 ? nil : table.indexedLast
    var lastStart = table.indexedLastStart
    var broken = false
    var lineNumber: Int? = table.indexedEnd == 0 ? 1 : nil
    do throws(FileError) {
      try lines(of: orders, from: table.indexedEnd) { offset, line throws(FileError) in
        let order: Order
        do throws(OrderJSONError) {
          order = try OrderJSON.order(from: line)
        } catch {
          var number = lineNumber ?? 0
          if lineNumber == nil { number = try orders.file.lineNumber(at: offset) }
          throw .badData(ordersPath, line: number, reason: "not an order: \(error.reason)")
        }
        lineNumber = lineNumber.map { $0 + 1 }
        if checking, previous != nil, !Order.isNumber(order.number, after: previous) {
          broken = true
          return false
        }
        previous = order.number
        lastStart = offset
        if let reference = order.reference {
          do throws(SystemError) {
            table = try insert(reference.fingerprint, offset, into: table)
          } catch {
            throw .cannotWrite(path, error)
          }
        }
        return true
      }
    } catch {
      guard case .cannotWrite = error, table.identity != nil else { throw error }
      // No room for the index: keep it in memory for this run, complete.
      try rebuildInMemory(orders)
      return true
    }
    if broken { return false }
    let lines = try fingerprints(end: orders.end, lastStart: lastStart, orders)
    do {
      try table.finish(
        end: orders.end, lastStart: lastStart, last: previous ?? 0, lines: lines, orders,
        boot: boot)
    } catch {
      self.table = table.identity == nil ? table : nil
    }
    return true
  }

  /// Starts again from an empty table and the whole orders file.
  private func rebuild(_ orders: Orders) throws(FileError) {
    table = nil
    if orders.writable, let fresh = try? Table.create(at: path, capacity: Table.minimumCapacity) {
      table = fresh
      // Every line as it is, numbering unchecked: a listing is where a gap is reported.
      _ = try catchUp(fresh, orders, checking: false)
      return
    }
    try rebuildInMemory(orders)
  }

  private func rebuildInMemory(_ orders: Orders) throws(FileError) {
    let fresh = Table.inMemory(capacity: Table.minimumCapacity)
    table = fresh
    _ = try catchUp(fresh, orders, checking: false)
  }

  /// Adds a slot, growing the table first when it would be more than half full.
  private func insert(_ hash: UInt64, _ offset: Int, into table: Table) throws(SystemError)
    -> Table
  {
    var table = table
    if (table.count + 1) * 2 > table.capacity {
      table = try table.grown(at: path)
      self.table = table
    }
    // A table with no free slot despite its count is corrupt: the caller starts again.
    guard table.insert(hash, offset) else { throw SystemError.noProgress }
    return table
  }

  // MARK: - Reading the orders file

  /// Calls `body` with each complete line from `start` to the end and its offset; `body`
  /// returns false to stop. The orders file's own reader: bounded memory, and a line longer
  /// than its bound is refused with its number.
  private func lines(
    of orders: Orders, from start: Int,
    _ body: (Int, UnsafeBufferPointer<UInt8>) throws(FileError) -> Bool
  ) throws(FileError) {
    do {
      try orders.file.lines(from: start, to: orders.end, unterminated: false, firstLine: nil) {
        offset, _, line in try body(offset, line)
      }
    } catch let error as FileError {
      throw error
    } catch {
      // Neither the reader nor `body` throws anything but a FileError.
      throw .unreadable(ordersPath, .shortRead)
    }
  }
}

extension ReferenceIndex {
  fileprivate func open(_ orders: Orders) -> Table? {
    Table.open(at: path, writable: orders.writable)
  }
}
