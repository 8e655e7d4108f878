import ShopConventions
import ShopCore

// Over 300 lines on purpose: preparing, finding, recording and rebuilding all keep one
// promise (a "not there" is believed only from an index proven whole, every hit is checked),
// which is checked best read together. The table's bytes are in ReferenceIndex+Table.swift.

/// Where each reference of an orders file is, in a hash table kept beside it (`PATH.refs`), so
/// that finding a reference costs a few reads whatever the number of orders.
///
/// The orders are the truth; the index can cost time, never a duplicate or a wrong answer.
/// Every hit is checked against the orders file (the line at the recorded offset must be an
/// order with that reference). A miss is believed only when the index is proven whole: its
/// header checks out and records the orders file as it is now (device, inode, size, the
/// times of its last write and change, its first line and the line the index stopped at,
/// which must be its last), it was written this boot, its owner is the orders file's and
/// only that owner may write it, and every block of slots the look-up read sums to its
/// checksum. Anything else is rebuilt from the orders file (in memory when it can't be
/// written), and a rebuild that meets a ref twice refuses the store at that line. Every
/// change is made under the orders file's exclusive lock, and the header says the index
/// covers new orders only after they are synced (a batch may put their slots in before: a
/// slot whose line is not there is a lie, which costs a rebuild, never a miss); every writer,
/// with refs or without, records what it appended, so only another program's change makes
/// the index stale.
final class ReferenceIndex {
  let path: FilePath
  private let ordersPath: FilePath
  private let boot: UInt64
  private var table: Table? {
    didSet { generation &+= 1 }
  }
  /// Changes whenever ``table`` does (reopened, rebuilt, grown, dropped): a slot a look-up
  /// found free is where its ref may be inserted only while this stays the same.
  private(set) var generation = 0

  init(orders: FilePath) {
    ordersPath = orders
    path = FilePath(orders.bytes + Array(".refs".utf8))
    boot = System.bootIdentity().map { Fingerprint.of($0) } ?? 0
  }

  /// The orders file, as a look-up reads it.
  struct Orders {
    /// Read with its own bound on a line, so a line no writer made is refused, not read whole.
    let file: LineFile
    /// What `fstat` said of it when the snapshot or the lock was taken.
    let details: FileDetails
    /// The end of the last complete line: nothing after it is read.
    let end: Int
    /// Whether the caller holds the exclusive lock, and so may write the index.
    let writable: Bool

    /// Whether this process may keep the index in its file: a writer that owns the orders
    /// file. Another user's index would be one its owner can't trust.
    var ownsIndex: Bool { writable && System.effectiveUser() == details.owner }
  }

  // MARK: - Use

  /// Makes the index describe every complete line of `orders`: reopens it if another process
  /// replaced it, rebuilds it unless it is proven to be this file's as it is now.
  func prepare(_ orders: Orders) throws(FileError) {
    if let table, let identity = table.identity,
      (try? System.identity(of: path)) != identity
    {
      self.table = nil
    }
    if table == nil {
      do {
        table = try Table.open(at: path, writable: orders.ownsIndex, owner: orders.details.owner)
      } catch {
        throw .noMemory(path, error)
      }
    }
    guard let table, table.trusted(for: orders, boot: boot), try covers(table, orders) else {
      try rebuild(orders)
      return
    }
    // Blocks checked earlier this run are believed again only if no other program has
    // written the index since.
    table.keepVerified()
    // An index left readable by more than the orders file (made by an older shop, or the
    // orders file's mode changed since) is narrowed by the next writer.
    if orders.ownsIndex { try? table.matchPermissions(of: orders.details) }
  }

  /// The order that holds `reference`, checked against the orders file; nil when none does.
  func order(for reference: Reference, in orders: Orders) throws(FileError) -> Order? {
    try located(reference, in: orders)?.order
  }

  /// ``order(for:in:)``, with the offset where the order's line starts.
  func located(_ reference: Reference, in orders: Orders) throws(FileError)
    -> (order: Order, start: Int)?
  {
    try located(reference.fingerprint, in: orders) { $0 == reference }
  }

  /// Whether an order holds the ref whose bytes are `bytes` and fingerprint `hash`, checked
  /// as ``located(_:in:)`` checks it: a batch's ref, held as its bytes, with no ``Reference``.
  func holds(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, in orders: Orders)
    throws(FileError) -> Bool
  {
    try located(hash, in: orders) { $0.text.utf8.elementsEqual(bytes) } != nil
  }

  /// ``holds(_:_:in:)`` for a batch's ref, which also says where it would go: nil when an
  /// order holds it; else the free slot its look-up stopped at, where ``record(_:hints:end:lastStart:last:_:)``
  /// may insert it while ``generation`` stays the same, or -1 when no slot can be told.
  /// The slots are read as ``located(_:in:)`` reads them, every block checked; anything but a
  /// free slot in a trusted table that covers the whole file goes the plain way.
  func freeSlot(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, in orders: Orders)
    throws(FileError) -> Int?
  {
    if let table, table.indexedEnd >= orders.end {
      let capacity = table.capacity
      var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
      for _ in 0..<capacity {
        guard table.check(block: slot / Table.blockSlots) else { break }
        let slotHash = table.slot(slot).hash
        if slotHash == 0 { return slot }
        // A hit, or another ref under the same hash: the plain look-up checks its line.
        if slotHash == hash { break }
        slot = (slot + 1) & (capacity - 1)
      }
    }
    return try holds(hash, bytes, in: orders) ? nil : -1
  }

  // MARK: - One visit a ref

  /// Whether a writer may put `refs` new refs straight into this table (``claim``): its own,
  /// mapped to write, with room for them without growing.
  func hasRoom(for refs: Int) -> Bool {
    guard let table, table.writable else { return false }
    return (table.count + refs) * 2 <= table.capacity
  }

  /// The refs put since ``startClaims()``, for ``releaseClaims(since:)``.
  private var claimed: [(hash: UInt64, offset: Int)] = []

  /// Starts putting a group's refs; the stamp its claims are made under.
  func startClaims() -> Int {
    claimed.removeAll(keepingCapacity: true)
    return generation
  }

  /// ``freeSlot(_:_:in:)`` for a ref whose line will start at `offset`, which also puts it in
  /// the slot found free: the slot is visited once. Nil when an order holds the ref; false
  /// when it is not held but was not put (the table changed since `stamp`: rebuilt, or
  /// dropped), for ``record`` to insert after the sync. The slot is written before the line
  /// is synced, while the header still says the index covers only the lines before it: a
  /// slot whose line never reaches the file costs a rebuild when it is met, never a miss.
  func claim(
    _ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, in orders: Orders,
    since stamp: Int
  ) throws(FileError) -> Bool? {
    guard generation == stamp, let table, table.writable else {
      return try holds(hash, bytes, in: orders) ? nil : false
    }
    guard let slot = try freeSlot(hash, bytes, in: orders) else { return nil }
    guard generation == stamp else { return false }
    let insertion = slot >= 0 ? table.insert(hash, offset, from: slot) : table.insert(hash, offset)
    switch insertion {
    case .added:
      claimed.append((hash, offset))
      return true
    case .present: return true
    case .held, .full: return false
    }
  }

  /// Takes out every ref put since `stamp`, newest first, when the table is still the one they
  /// were put in: a group refused leaves the table as it found it.
  func releaseClaims(since stamp: Int) {
    if generation == stamp, let table {
      for (hash, offset) in claimed.reversed() { table.remove(hash, offset) }
    }
    claimed.removeAll(keepingCapacity: true)
  }

  /// After the lines of claimed refs failed to reach the file: the table is marked to be
  /// rebuilt, never believed with slots for lines that are not there.
  func abandon() {
    table?.spoil()
    table = nil
  }

  /// The order holding the ref of fingerprint `hash` that `isSought` says is the one sought.
  private func located(
    _ hash: UInt64, in orders: Orders, _ isSought: (Reference) -> Bool
  ) throws(FileError) -> (order: Order, start: Int)? {
    guard let table else { return nil }
    do throws(Failure) {
      if let found = try find(hash, isSought, in: table, orders) { return found }
    } catch {
      guard case .untrusted = error else { throw error.fileError }
      // A slot that points at no such line, or a block that fails its checksum.
      table.spoil()
      try rebuild(orders)
      guard let rebuilt = self.table else { return nil }
      do throws(Failure) {
        return try find(hash, isSought, in: rebuilt, orders)
      } catch {
        guard case .untrusted = error else { throw error.fileError }
        return try scan(for: hash, isSought, from: 0, orders)
      }
    }
    guard table.indexedEnd < orders.end else { return nil }
    return try scan(for: hash, isSought, from: table.indexedEnd, orders)
  }

  /// The order holding the ref sought among the lines from `start`, read one by one; a
  /// second order holding it is the store's error at that line.
  private func scan(
    for hash: UInt64, _ isSought: (Reference) -> Bool, from start: Int, _ orders: Orders
  ) throws(FileError) -> (order: Order, start: Int)? {
    var found: (order: Order, start: Int)?
    try lines(of: orders, from: start) { offset, line throws(FileError) in
      guard let order = try? OrderJSON.order(from: line), let reference = order.reference,
        reference.fingerprint == hash, isSought(reference)
      else {
        return true
      }
      if let found { throw try heldTwice(reference, found.start, offset, orders) }
      found = (order, offset)
      return true
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

  /// How many refs a group reads ahead at a time: their blocks (about 80 KiB for 256) stay in
  /// the cache until they are looked up or inserted.
  static let readAheadRefs = 256

  /// Reads the blocks and checksums that looking up or inserting the refs of `hashes` reads
  /// first, before any of them is used: the reads don't wait on each other, so their cache
  /// and TLB misses overlap, and the look-ups that follow find the bytes in the cache.
  func readAhead(_ hashes: some Sequence<UInt64>) {
    guard let table else { return }
    var sum: UInt64 = 0
    for hash in hashes { sum &+= table.readAhead(Int(truncatingIfNeeded: hash)) }
    prefetched &+= sum  // Kept, so the reads are not optimized away.
  }

  /// The indices of `count` refs, by `hash`, in the order of the slots the table first probes
  /// for them (0 hashes left out), so that a group's look-ups and inserts go through the table
  /// from start to end, not at random: nearby slots share pages and cache lines, and reads in
  /// order are fetched ahead. A stable counting sort on the slots' high bits, so the inserts of
  /// one group land in the same slots whichever path records them.
  func inSlotOrder(_ count: Int, _ hash: (Int) -> UInt64) -> [Int] {
    guard let table, count > 1 else { return (0..<count).filter { hash($0) != 0 } }
    let capacity = table.capacity
    var buckets = 1
    while buckets < count, buckets < capacity { buckets *= 2 }
    let shift = (capacity / buckets).trailingZeroBitCount
    func bucket(_ hash: UInt64) -> Int { (Int(truncatingIfNeeded: hash) & (capacity - 1)) >> shift }
    var starts = [Int](repeating: 0, count: buckets + 1)
    for index in 0..<count where hash(index) != 0 { starts[bucket(hash(index)) + 1] += 1 }
    for index in 0..<buckets { starts[index + 1] += starts[index] }
    var order = [Int](repeating: 0, count: starts[buckets])
    for index in 0..<count where hash(index) != 0 {
      let bucket = bucket(hash(index))
      order[starts[bucket]] = index
      starts[bucket] += 1
    }
    return order
  }

  /// Records new orders, already synced in the orders file at `offsets`, and that the index
  /// now covers the file up to `end`, where the last line starts at `lastStart`.
  /// `hints`, when given, is for each reference the slot ``freeSlot(_:_:in:)`` found free for
  /// it (or -1) while ``generation`` was `hinted`: used only if the table has not changed since.
  func record(
    _ references: [(hash: UInt64, offset: Int)], hints: [Int]? = nil, hinted: Int = -1,
    end: Int, lastStart: Int, last: Int, _ orders: Orders
  ) throws(SystemError) {
    // Another owner's index, read only: behind the orders now, so not used again this run.
    guard var table, table.writable else {
      drop()
      return
    }
    var hints = hints
    if hinted != generation || hints?.count != references.count { hints = nil }
    // Grown once to its size for the group, not doubled step by step as it fills.
    while (table.count + references.count) * 2 > table.capacity {
      table = try table.grown(at: path, like: orders.details)
      self.table = table
    }
    // In the order of their slots, so the inserts go through the table from start to end,
    // each few read ahead.
    let order = inSlotOrder(references.count) { references[$0].hash }
    for start in stride(from: 0, to: order.count, by: ReferenceIndex.readAheadRefs) {
      let part = order[start..<min(start + ReferenceIndex.readAheadRefs, order.count)]
      readAhead(part.lazy.map { references[$0].hash })
      for index in part {
        let (hash, offset) = references[index]
        if let hints, hints[index] >= 0, generation == hinted {
          // Not grown since the look-up: its free slot, or the next free after it.
          switch table.insert(hash, offset, from: hints[index]) {
          case .added, .present: continue
          case .held, .full: throw .noProgress
          }
        }
        table = try insert(hash, offset, into: table, orders)
      }
    }
    let lines: (UInt64, UInt64)
    do { lines = try fingerprints(end: end, lastStart: lastStart, orders) } catch {
      // The caller drops the index, which is rebuilt on its next use.
      throw .shortRead
    }
    try table.finish(
      end: end, lastStart: lastStart, last: last, lines: lines,
      try orders.file.descriptor.details(), boot: boot)
  }

  /// After lines without refs were appended to `before` (whose complete lines ended at its
  /// `end`) and synced: an index that covered the file exactly as it was is told it covers
  /// them too, so that only another program's change leaves it stale. Best effort: an index
  /// left behind is rebuilt by its next use, which costs time only.
  func advance(from before: Orders, end: Int, lastStart: Int, last: Int) {
    guard before.writable, let after = try? before.file.descriptor.details() else {
      drop()
      return
    }
    let now = Orders(file: before.file, details: after, end: end, writable: true)
    guard let lines = try? fingerprints(end: end, lastStart: lastStart, now) else {
      drop()
      return
    }
    if let table, table.identity == nil {
      // This run's table in memory: current before the append, or dropped.
      guard table.trusted(for: before, boot: boot),
        (try? table.finish(
          end: end, lastStart: lastStart, last: last, lines: lines, after, boot: boot)) != nil
      else {
        drop()
        return
      }
      return
    }
    guard before.ownsIndex else {
      drop()
      return
    }
    // The file's header, which a table this store maps shares.
    try? Table.advance(
      at: path, before: before.details, beforeEnd: before.end, boot: boot,
      to: (end, lastStart, last, lines), after)
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

  /// The slots that may hold the ref of fingerprint `hash` that `isSought` says is the one
  /// sought, each block checked before it is believed.
  private func find(
    _ hash: UInt64, _ isSought: (Reference) -> Bool, in table: Table, _ orders: Orders
  ) throws(Failure) -> (order: Order, start: Int)? {
    let capacity = table.capacity
    var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
    var checked = -1
    for _ in 0..<capacity {
      let block = slot / Table.blockSlots
      if block != checked {
        guard table.check(block: block) else { throw .untrusted }
        checked = block
      }
      let (slotHash, offset) = table.slot(slot)
      if slotHash == 0 { return nil }
      if slotHash == hash {
        // The line must hold a ref of this hash: another ref is a slot that lies, not a
        // collision.
        guard let line = try orderLine(at: offset, orders),
          let held = line.order.reference, held.fingerprint == hash
        else { throw .untrusted }
        if isSought(held) { return (line.order, offset) }
      }
      slot = (slot + 1) & (capacity - 1)
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

  // MARK: - Keeping it whole

  /// Whether the index stopped at this file's last line: where it says its last line starts,
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
  func fingerprints(end: Int, lastStart: Int, _ orders: Orders) throws(FileError)
    -> (first: UInt64, last: UInt64)
  {
    guard end > 0 else { return (0, 0) }
    func hash(_ start: Int, _ stop: Int) throws(FileError) -> UInt64 {
      var bytes = [UInt8](repeating: 0, count: stop - start)
      try orders.file.read(into: &bytes, at: start)
      return Fingerprint.of(bytes)
    }
    let firstEnd =
      lastStart == 0
      ? end - 1 : try orders.file.newline(after: -1, before: lastStart) ?? lastStart - 1
    return (try hash(0, firstEnd), try hash(lastStart, end - 1))
  }

  /// Starts again from an empty table and the whole orders file: in the index's file when
  /// this process owns the orders file, else in memory for the run.
  private func rebuild(_ orders: Orders) throws(FileError) {
    table = nil
    if orders.ownsIndex {
      var fresh: Table?
      do {
        fresh = try Table.create(
          at: path, capacity: Table.minimumCapacity, like: orders.details)
      } catch {
        if error.isOutOfMemory { throw .noMemory(path, error) }
      }
      if let fresh {
        table = fresh
        if try fill(fresh, orders) { return }
      }
    }
    let memory: Table
    do { memory = try Table.inMemory(capacity: Table.minimumCapacity) } catch {
      throw .noMemory(path, error)
    }
    table = memory
    _ = try fill(memory, orders)
  }

  /// Adds the ref of every complete line of the orders file, numbering unchecked (a listing
  /// is where a gap is reported), then says the table covers them. A ref met twice is the
  /// store's error at its second line. False when the file can't hold the table (a full disk):
  /// the caller keeps it in memory instead.
  private func fill(_ table: Table, _ orders: Orders) throws(FileError) -> Bool {
    var table = table
    var last = 0
    var lastStart = 0
    var lineNumber = 1
    do throws(FileError) {
      try lines(of: orders, from: 0) { offset, line throws(FileError) in
        let order: Order
        do throws(OrderJSONError) {
          order = try OrderJSON.order(from: line)
        } catch {
          throw .badData(
            ordersPath, line: lineNumber, reason: "not an order: \(error.reason)")
        }
        lineNumber += 1
        last = order.number
        lastStart = offset
        if let reference = order.reference {
          do throws(SystemError) {
            table = try insert(reference.fingerprint, offset, into: table, orders, checking: true)
          } catch {
            if let held = heldError {
              heldError = nil
              throw held
            }
            if error.isOutOfMemory { throw .noMemory(path, error) }
            throw .cannotWrite(path, error)
          }
        }
        return true
      }
    } catch {
      guard case .cannotWrite = error, table.identity != nil else { throw error }
      return false  // No room for the file: the caller keeps the table in memory.
    }
    let lines = try fingerprints(end: orders.end, lastStart: lastStart, orders)
    do {
      try table.finish(
        end: orders.end, lastStart: lastStart, last: last, lines: lines, orders.details,
        boot: boot)
    } catch {
      // Not marked complete: used for this run, rebuilt on the next.
    }
    return true
  }

  /// Why the last checked insert stopped: a ref held twice.
  private var heldError: FileError?

  /// Adds a slot, growing the table first when it would be more than half full. `checking`:
  /// another line under the same hash that holds the same ref is the store's error, thrown
  /// as `noProgress` with the error kept in ``heldError``.
  private func insert(
    _ hash: UInt64, _ offset: Int, into table: Table, _ orders: Orders, checking: Bool = false
  ) throws(SystemError) -> Table {
    var table = table
    if (table.count + 1) * 2 > table.capacity {
      table = try table.grown(at: path, like: orders.details)
      self.table = table
    }
    var failure: FileError?
    let insertion = table.insert(hash, offset) { held in
      guard checking else { return false }
      let there: Order?
      let here: Order?
      do throws(Failure) {
        there = try orderLine(at: held, orders)?.order
        here = try orderLine(at: offset, orders)?.order
      } catch {
        failure = error.fileError
        return true
      }
      guard let reference = here?.reference, there?.reference == reference else { return false }
      do throws(FileError) {
        failure = try heldTwice(reference, held, offset, orders)
      } catch {
        failure = error
      }
      return true
    }
    switch insertion {
    case .added, .present: return table
    case .held:
      heldError = failure
      throw .noProgress
    case .full:
      // A table with no free slot despite its count is corrupt: the caller starts again.
      throw .noProgress
    }
  }

  /// The error of a store that holds `reference` on the lines at `first` and `second`.
  private func heldTwice(_ reference: Reference, _ first: Int, _ second: Int, _ orders: Orders)
    throws(FileError) -> FileError
  {
    let firstLine = try orders.file.lineNumber(at: first)
    let secondLine = try orders.file.lineNumber(at: second)
    return .badData(
      ordersPath, line: secondLine,
      reason: "ref \(reference) is held twice, here and on line \(firstLine): "
        + "a store holds each ref at most once")
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
