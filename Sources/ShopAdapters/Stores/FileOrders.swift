import ShopConventions
import ShopCore

// Over 300 lines on purpose: this is the writer's one job, under one lock: check the file,
// append a group (drafts or a priced batch group), record its refs, sync, let go. Split, the
// steps that must happen in order under the lock would be read in different files.

/// Orders in a JSON Lines file (one ``OrderJSON`` object a line), appended, never rewritten,
/// and safe to share between any number of processes.
///
/// `save` holds an exclusive `flock` from reading the last number to the sync, so numbers
/// never repeat and lines never interleave; it finds the last number from the end of the file,
/// so it costs the same on a million orders as on one. A last line without its newline is a
/// write that never finished (and was never reported): readers skip it, and the next writer
/// cuts it, but only when its bytes are the start of the line `shop` would write there.
///
/// Readers take a shared lock just long enough to see where the last complete line ends, then
/// read up to there without it: the bytes before that point never change, so what a reader
/// reads is the file as it was when it started, whatever writers do meanwhile. How long a
/// reader waits for that lock is its ``ReadWait``; the rule of the lock is in
/// `LineFile+Locking.swift`.
///
/// The log's rules are here and beside it: saving in this file, the rule of the file's ends
/// in `FileOrders+Ends.swift`, the reading forms in `FileOrders+Reading.swift` and
/// `FileOrders+Range.swift`; the bytes, newlines, locks and syncs are ``LineFile``'s.
public final class FileOrders: Orders, OrderVoids, OrderHistory, StoredOrderLines {
  public let path: FilePath
  /// The files the command prints to (standard output, error): never the orders file.
  let streams: [(stream: StandardStream, file: FileIdentity)]
  private var writer: LineFile?
  private var encoder = OrderJSON.Encoder()
  private var pending: [UInt8] = []
  /// Where the last order's line starts in `pending`.
  private var lastLineStart = 0
  /// The order of the highest number this store returned to be reported, saved now or found
  /// already placed: what the file it holds, or one that replaced it, must still hold.
  private var lastReportedOrder: Order?
  private var lastReported: Int? { lastReportedOrder?.number }
  private var referenceIndex: ReferenceIndex?
  /// The order being visited and its line, while a visitor runs (``StoredOrderLines``).
  var visiting: (number: Int, line: UnsafeBufferPointer<UInt8>)?
  /// ``maximumLineBytes``, smaller only in tests, which must not write 64 MiB lines to run fast.
  let lineBound: Int
  /// How long a read waits for a writer's lock; inside ``placing(_:)``, as long as it takes.
  let readWait: ReadWait
  /// Set while this store writes: a read it makes then (of a file that replaced the one it
  /// held) waits as a writer waits.
  private(set) var isWriting = false
  /// Whether a read already said that it waits for a writer (it says so once per command).
  var toldOfWaiting = false

  /// Touches nothing yet: the file is opened, and created with its folders, on first use.
  public init(path: FilePath, readWait: ReadWait = .untilFree) {
    self.path = path
    self.streams = []
    self.lineBound = FileOrders.maximumLineBytes
    self.readWait = readWait
  }

  /// For tests: a store that refuses lines longer than `lineBound` bytes.
  init(path: FilePath, lineBound: Int) {
    self.path = path
    self.streams = []
    self.lineBound = lineBound
    self.readWait = .untilFree
  }

  /// As ``init(path:)``, for a command that prints to `streams` (standard output, error):
  /// when the orders file already is one of them, it is refused now, before a report or an
  /// error can be printed into it; on first use, the opened file is checked again. Its reads
  /// wait for a writer's lock as `readWait` says.
  public init(
    path: FilePath, streams: [(stream: StandardStream, file: FileIdentity)], readWait: ReadWait
  ) throws(FileError) {
    self.path = path
    self.streams = streams
    self.lineBound = FileOrders.maximumLineBytes
    self.readWait = readWait
    guard !streams.isEmpty, let identity = try? System.identity(of: path),
      let stream = streams.first(where: { $0.file == identity })
    else { return }
    throw .sharedWithStream(path, stream: stream.stream.name)
  }

  // MARK: - Saving

  public func save(_ drafts: [Draft]) throws(FileError) -> [Order] {
    try place(drafts).map(\.order)
  }

  public func place(_ drafts: [Draft]) throws(FileError) -> [Placement] {
    do {
      return try placing { file throws(FileError) in try append(drafts, to: file) }
    } catch {
      // A file that can be read but not written (a read-only mount, no write permission):
      // refs already placed are answered from what can be read; anything new is the error.
      guard case .cannotCreate(_, let cause) = error, cause.isReadOnly, writer == nil,
        let answered = try placedAlready(drafts)
      else { throw error }
      return answered
    }
  }

  /// Each draft's placement when every one has a ref the file already holds, read as a reader
  /// reads it (a snapshot, the index or a rebuild in memory, the order's neighbours checked);
  /// nil when any would be new.
  private func placedAlready(_ drafts: [Draft]) throws(FileError) -> [Placement]? {
    guard drafts.allSatisfy({ $0.reference != nil }),
      let snapshot = try openSnapshot(strict: true)
    else { return nil }
    var unterminated: Order?
    if case .whole(let order) = snapshot.ends.tail { unterminated = order }
    let orders = ReferenceIndex.Orders(
      file: snapshot.file, details: try snapshot.file.details(),
      end: snapshot.ends.linesEnd ?? 0, writable: false)
    let index = ReferenceIndex(orders: path)
    try index.prepare(orders)
    let plan = try Placement.plan(
      drafts, after: snapshot.ends.last?.number, placedAt: snapshot.ends.last?.placedAt
    ) { reference throws(FileError) in
      if let unterminated, unterminated.reference == reference { return unterminated }
      guard let (order, start) = try index.located(reference, in: orders) else { return nil }
      try checkNeighbours(of: order, at: start, in: snapshot)
      return order
    }
    guard let plan, plan.new.isEmpty else { return nil }
    return plan.placements
  }

  /// Appends a batch group priced and encoded by ``PricedBatch``, by the same rules as
  /// ``place(_:)``: numbered after the file's last order, stamped no earlier than it, synced;
  /// or, when a reference of the group is already held, nothing, for the plain way to answer.
  func place(_ group: PricedBatch.Group, at now: Timestamp) throws(FileError)
    -> PricedBatch.Stored
  {
    guard group.count > 0 else { return .placed(last: nil) }
    var refused = false
    do {
      _ = try placing { file throws(FileError) in
        try append(group, at: now, to: file, refused: &refused)
      }
    } catch {
      // A file that can't be written: the plain way answers refs already placed, or says so.
      guard case .cannotCreate(_, let cause) = error, cause.isReadOnly, writer == nil,
        group.hasReferences
      else { throw error }
      return .refused
    }
    return refused ? .refused : .placed(last: lastReported)
  }

  /// Locks the file, appends with `append`, and checks the path still names it afterwards.
  func placing(_ append: (LineFile) throws(FileError) -> Appended) throws(FileError)
    -> [Placement]
  {
    // Lock, then make sure the path still names the locked file, else let it go and open the
    // path again: another process (`sed -i`, `mv`, an editor) may replace it at any time.
    isWriting = true
    defer { isWriting = false }
    for _ in 0..<FileOrders.maximumReopenings {
      let file = try openForWriting()
      try file.lockToWrite()
      defer { file.descriptor.unlock() }
      guard try file.pathNames() else {
        try letGo(of: file)
        continue
      }
      let appended = try append(file)
      // Checked again after the sync: a group that went into a file no longer at the path
      // must not be reported. It is cut off that file, as a failed write would be, and placed
      // again in the file now at the path.
      guard try file.pathNames() else {
        file.takeBack(to: appended.restore)
        try letGo(of: file)
        continue
      }
      for placement in appended.placements where placement.order.number >= lastReported ?? .min {
        lastReportedOrder = placement.order
      }
      // A priced group returns no placements: its last line, as written, is its last order.
      if appended.placements.isEmpty, appended.lastNumber != nil,
        let order = try? OrderJSON.order(from: Array(pending[lastLineStart..<(pending.count - 1)]))
      {
        lastReportedOrder = order
      }
      // The times' record first: writing it changes the file's ctime, which the index's
      // header records as the file's state when it records the new refs.
      if let times = appended.times { record(times, for: file) }
      appended.recordReferences()
      return appended.placements
    }
    throw .replaced(
      path, what: "was replaced again and again while shop was writing it",
      lastReported: lastReported ?? 0)
  }

  /// How often one `save` opens the path again before it gives up.
  private static let maximumReopenings = 100

  /// What ``append(_:to:)`` did: each draft's placement, the new orders written and synced,
  /// the size to cut the file back to if they must be taken back, and the index update and
  /// the record of the times' order to make once they are known to be in the file at the path.
  struct Appended {
    let placements: [Placement]
    /// The number of the last new order; nil when there is none.
    let lastNumber: Int?
    let restore: Int
    var times: TimeRuns? = nil
    let recordReferences: () -> Void
  }

  /// Places `drafts` at the end of the locked `file` by the core's rule (numbering, and
  /// references the file already holds), writes the new orders and syncs them.
  func append(_ drafts: [Draft], to file: LineFile) throws(FileError) -> Appended {
    let before = try file.details()
    let fileEnd = before.size
    let ends = try self.ends(of: file, size: fileEnd).checked(in: file, writing: true)
    try checkHoldsReported(file, ends)
    let linesEnd = ends.linesEnd ?? 0
    // A last line missing only its newline is an order the index has not seen yet.
    var unterminated: Order?
    if case .whole(let order) = ends.tail { unterminated = order }
    let indexed = try references(of: drafts, in: file, end: linesEnd, details: before)
    let plan = try Placement.plan(drafts, after: ends.last?.number, placedAt: ends.last?.placedAt) {
      reference throws(FileError) in
      if let unterminated, unterminated.reference == reference { return unterminated }
      guard let indexed,
        let (order, start) = try indexed.index.located(reference, in: indexed.orders)
      else { return nil }
      // As `orders --ref` checks it: never one of two orders of a number.
      try checkNeighbours(of: order, at: start, in: Snapshot(file: file, ends: ends))
      return order
    }
    guard let plan else { throw .full(path, OrdersFull(last: ends.last?.number ?? 0)) }
    var times = timeRunsBeforeAppend(to: file, ends: ends)
    guard !plan.new.isEmpty else {
      return Appended(
        placements: plan.placements, lastNumber: nil, restore: fileEnd, times: times
      ) {}
    }
    var restore = fileEnd
    if case .torn(let start) = ends.tail { restore = start }
    pending.removeAll(keepingCapacity: true)
    var offsets: [(hash: UInt64, offset: Int)] = []
    if let unterminated, let reference = unterminated.reference {
      offsets.append((reference.fingerprint, linesEnd))
    }
    // A last line that is a whole order missing only its newline is completed, never cut.
    if unterminated != nil { pending.append(UInt8(ascii: "\n")) }
    for order in plan.new {
      lastLineStart = pending.count
      times?.append(time: order.placedAt.secondsSince1970, at: restore + pending.count)
      if let reference = order.reference {
        offsets.append((reference.fingerprint, restore + pending.count))
      }
      encoder.append(order, to: &pending)
    }
    // The first orders in a file: its folder entry is synced too (``LineFile/append``).
    try file.append(pending, at: restore, size: fileEnd, syncingFolder: ends.last == nil)
    let end = restore + pending.count
    let lastStart = restore + lastLineStart
    let record = { [indexed] in
      guard let last = plan.new.last?.number else { return }
      guard let indexed else {
        // No ref here, and none completed at the end: the index, if any, covers these too.
        self.advanceIndex(
          before, linesEnd: linesEnd, end: end, lastStart: lastStart, last: last,
          completed: unterminated)
        return
      }
      do {
        try indexed.index.record(
          offsets, end: end, lastStart: lastStart, last: last, indexed.orders)
      } catch {
        indexed.index.drop()  // Left behind the orders: caught up on its next use.
      }
    }
    return Appended(
      placements: plan.placements, lastNumber: plan.new.last?.number, restore: restore,
      times: times, recordReferences: record)
  }

  /// As ``append(_:to:)`` for a priced group, which writes its lines itself; `refused` when
  /// a reference of it is already held.
  private func append(
    _ group: PricedBatch.Group, at now: Timestamp, to file: LineFile, refused: inout Bool
  ) throws(FileError) -> Appended {
    let before = try file.details()
    let fileEnd = before.size
    let nothing = Appended(placements: [], lastNumber: nil, restore: fileEnd) {}
    guard group.count > 0 else { return nothing }
    let ends = try self.ends(of: file, size: fileEnd).checked(in: file, writing: true)
    try checkHoldsReported(file, ends)
    let linesEnd = ends.linesEnd ?? 0
    var unterminated: Order?
    if case .whole(let order) = ends.tail { unterminated = order }
    var indexed: (index: ReferenceIndex, orders: ReferenceIndex.Orders)?
    let last = ends.last?.number
    var numbered: (first: Int, last: Int)?
    if let first = Order.number(after: last),
      case (let lastNumber, false) = first.addingReportingOverflow(group.count - 1)
    {
      numbered = (first, lastNumber)
    }
    var restore = fileEnd
    if case .torn(let start) = ends.tail { restore = start }
    // Each order no earlier than the one before it, within the bound ``Draft/stamped(notBefore:)``
    // keeps.
    let placedAt = now.stamped(notBefore: ends.last?.placedAt)
    var offsets: [(hash: UInt64, offset: Int)] = []
    var times = timeRunsBeforeAppend(to: file, ends: ends)
    var encoded = false
    func encode(first: Int) {
      encoded = true
      pending.removeAll(keepingCapacity: true)
      // A last line that is a whole order missing only its newline is completed, never cut.
      if case .whole = ends.tail { pending.append(UInt8(ascii: "\n")) }
      // Every line of the group has the one time: its first line says where it starts.
      times?.append(time: placedAt.secondsSince1970, at: restore + pending.count)
      lastLineStart = group.write(
        numberedFrom: first, placedAt: placedAt, to: &pending, references: &offsets,
        at: restore)
    }
    // Per order of the group, the slot its ref's look-up found free, where it is inserted
    // after the sync unless the table changed in between (``ReferenceIndex/generation``).
    var free: [Int] = []
    var hinted = -1
    // Whether every ref was put in its slot before the sync (``ReferenceIndex/claim``).
    var claimedAll = false
    var claiming = false
    if group.hasReferences {
      let opened = try openReferences(in: file, end: linesEnd, details: before)
      let held = unterminated?.reference
      let withRefs = (0..<group.count).filter { group.fingerprints[$0] != 0 }
      // The lines encoded first, so each ref's line start is known when its slot is found.
      if held == nil, let numbered, opened.index.hasRoom(for: withRefs.count) {
        encode(first: numbered.first)
        claiming = true
      }
      var starts: [Int] = []
      if claiming {
        starts = [Int](repeating: -1, count: group.count)
        for (index, order) in withRefs.enumerated() { starts[order] = offsets[index].offset }
      }
      let stamp = opened.index.startClaims()
      hinted = stamp
      var putAll = true
      free = [Int](repeating: -1, count: group.count)
      // In the order of their slots, counted over the refs alone as ``ReferenceIndex/record``
      // counts them: the table is read from start to end, each few read ahead, and refs put in
      // the slots the plain way's inserts would give them.
      let order = opened.index.inSlotOrder(withRefs.count) {
        group.fingerprints[withRefs[$0]]
      }.map { withRefs[$0] }
      for start in stride(from: 0, to: order.count, by: ReferenceIndex.readAheadRefs) {
        let part = order[start..<min(start + ReferenceIndex.readAheadRefs, order.count)]
        opened.index.readAhead(part.lazy.map { group.fingerprints[$0] })
        var next = part.startIndex
        try group.forEachReference(part) { hash, bytes throws(FileError) in
          guard held.map({ !$0.text.utf8.elementsEqual(bytes) }) ?? true else {
            refused = true
            return false
          }
          if claiming {
            guard
              let put = try opened.index.claim(
                hash, bytes, at: starts[part[next]], in: opened.orders, since: stamp)
            else {
              refused = true
              return false
            }
            putAll = putAll && put
          } else {
            guard let slot = try opened.index.freeSlot(hash, bytes, in: opened.orders) else {
              refused = true
              return false
            }
            free[part[next]] = slot
          }
          next += 1
          return true
        }
        if refused { break }
      }
      if refused {
        if claiming { opened.index.releaseClaims(since: stamp) }
        return nothing
      }
      if opened.index.generation != hinted { hinted = -1 }
      claimedAll = claiming && putAll && hinted >= 0
      indexed = opened
    }
    guard let numbered else { throw .full(path, OrdersFull(last: last ?? 0)) }
    if !encoded {
      if indexed != nil, let reference = unterminated?.reference {
        offsets.append((reference.fingerprint, linesEnd))
      }
      encode(first: numbered.first)
    }
    let lastNumber = numbered.last
    // The free slots in the order of `offsets`: the completed last line's ref has none.
    var hints: [Int] = []
    if hinted >= 0, !claiming {
      hints.reserveCapacity(offsets.count)
      if indexed != nil, unterminated?.reference != nil { hints.append(-1) }
      for index in 0..<group.count where group.fingerprints[index] != 0 {
        hints.append(free[index])
      }
    }
    do {
      try file.append(pending, at: restore, size: fileEnd, syncingFolder: ends.last == nil)
    } catch {
      // Slots were put for lines that are not in the file: never believed again.
      if claiming { indexed?.index.abandon() }
      throw error
    }
    let end = restore + pending.count
    let lastStart = restore + lastLineStart
    // Every ref already in its slot: only the header is left to say the index covers them.
    let recorded = claimedAll ? [] : offsets
    return Appended(placements: [], lastNumber: lastNumber, restore: restore, times: times) {
      [recorded, hints, hinted] in
      guard let indexed else {
        self.advanceIndex(
          before, linesEnd: linesEnd, end: end, lastStart: lastStart, last: lastNumber,
          completed: unterminated)
        return
      }
      do {
        try indexed.index.record(
          recorded, hints: hints, hinted: hinted, end: end, lastStart: lastStart,
          last: lastNumber, indexed.orders)
      } catch {
        indexed.index.drop()  // Left behind the orders: caught up on its next use.
      }
    }
  }

  /// The index of references, brought up to date under the lock, when a draft has one.
  private func references(
    of drafts: [Draft], in file: LineFile, end: Int, details: FileDetails
  ) throws(FileError) -> (index: ReferenceIndex, orders: ReferenceIndex.Orders)? {
    guard drafts.contains(where: { $0.reference != nil }) else { return nil }
    let opened = try openReferences(in: file, end: end, details: details)
    opened.index.prefetch(drafts)
    return opened
  }

  /// After a group without refs was appended at the end of the locked file (`before` as it
  /// was, its complete lines ending at `linesEnd`): the index, when there is one and it was
  /// current, is told it covers the new lines, which hold no ref. Not when the group
  /// completed a last line that had lost only its newline (`completed`) and held a ref.
  private func advanceIndex(
    _ before: FileDetails, linesEnd: Int, end: Int, lastStart: Int, last: Int,
    completed: Order?
  ) {
    guard let writer else { return }
    if referenceIndex == nil {
      // No index, the usual case for a store without refs: one `stat`, and nothing more.
      guard (try? System.identity(of: FilePath(path.bytes + Array(".refs".utf8)))) != nil
      else { return }
      referenceIndex = ReferenceIndex(orders: path)
    }
    guard let index = referenceIndex else { return }
    guard completed?.reference == nil else {
      index.drop()
      return
    }
    index.advance(
      from: ReferenceIndex.Orders(file: writer, details: before, end: linesEnd, writable: true),
      end: end, lastStart: lastStart, last: last)
  }

  /// The index, prepared for the locked `file` as it is now.
  func openReferences(in file: LineFile, end: Int) throws(FileError)
    -> (index: ReferenceIndex, orders: ReferenceIndex.Orders)
  {
    try openReferences(in: file, end: end, details: try file.details())
  }

  func openReferences(in file: LineFile, end: Int, details: FileDetails)
    throws(FileError) -> (index: ReferenceIndex, orders: ReferenceIndex.Orders)
  {
    let orders = ReferenceIndex.Orders(file: file, details: details, end: end, writable: true)
    let index = referenceIndex ?? ReferenceIndex(orders: path)
    referenceIndex = index
    try index.prepare(orders)
    return (index, orders)
  }

  /// The locked file must still hold the last order this store reported (saved, or found
  /// already placed), the same order under its number.
  /// `cp` or `truncate` over the file keeps its inode, so the path still names it; only its
  /// lines tell that what was reported is gone, and numbering on would repeat or skip.
  private func checkHoldsReported(_ file: LineFile, _ ends: Ends) throws(FileError) {
    guard let lastReportedOrder, let lastReported else { return }
    var holds = false
    if let last = ends.last, last.number == lastReported {
      // The usual case, one writer: the last order, which the ends already read, is it.
      holds = last == lastReportedOrder
    } else if let last = ends.last?.number, last > lastReported {
      let snapshot = Snapshot(file: file, ends: ends)
      let start: Int
      do { start = try firstLine(in: snapshot) { $0.number >= lastReported } } catch {
        // Its reads and parses throw only FileErrors.
        throw error as? FileError ?? .unreadable(path, .shortRead)
      }
      if start < snapshot.end {
        let line = try snapshot.line(at: start).0
        holds = (try? OrderJSON.order(from: line)) == lastReportedOrder
      }
    }
    guard holds else {
      throw .replaced(
        path,
        what: "was overwritten in place while shop was writing it (as cp or truncate "
          + "over it do), and no longer holds order "
          + "\(lastReported) as shop wrote it",
        lastReported: lastReported)
    }
  }

  /// Drops `file`, which the path no longer names. Before this store reported any order, the
  /// file now at the path is simply used; after, only when it provably holds what was
  /// reported: the last order reported is there, the same order under its number (as after
  /// `sed -i`, `perl -i` or an editor's save). Else nothing more may be placed:
  /// the numbers would start over or skip, and the user must be told.
  private func letGo(of file: LineFile) throws(FileError) {
    writer = nil
    guard let lastReportedOrder, let lastReported else { return }
    let exists: Bool
    do { exists = try System.identity(of: path) != nil } catch { throw .unreadable(path, error) }
    guard exists else {
      throw .replaced(
        path, what: "was moved away or removed while shop was writing it",
        lastReported: lastReported)
    }
    // Read as any reader reads it: a snapshot opened at the path, now that `writer` is gone.
    var holds = false
    _ = try? order(numbered: lastReported) { order in
      holds = order.unmarked == lastReportedOrder
    }
    guard holds else {
      throw .replaced(
        path,
        what: "was replaced while shop was writing it, by a file without order "
          + "\(lastReported) as shop wrote it",
        lastReported: lastReported)
    }
  }

  // MARK: - Opening

  /// The longest line a reader or writer takes: 64 MiB. `shop` writes at most about 60
  /// bytes per item plus its SKU, so a line it wrote is a few MB at most (a 1 MiB batch line
  /// of distinct three-letter SKUs makes about 10 MB); anything longer is not an order, and
  /// is refused rather than read into memory.
  static let maximumLineBytes = 1 << 26

  /// Opens the file to append, creating it and its folders only when they are missing.
  private func openForWriting() throws(FileError) -> LineFile {
    if let writer { return writer }
    let file = try LineFile.openToAppend(path, lineBound: lineBound)
    try checkRegular(file, writing: true)
    writer = file
    return file
  }

  /// Only a regular file holds orders, and never one that the command also prints to.
  func checkRegular(_ file: LineFile, writing: Bool) throws(FileError) {
    let status: (kind: FileKind, size: Int, identity: FileIdentity)
    do { status = try file.descriptor.status() } catch { throw .unreadable(path, error) }
    guard status.kind == .regular else { throw .notRegular(path, status.kind, writing: writing) }
    if let stream = streams.first(where: { $0.file == status.identity }) {
      throw .sharedWithStream(path, stream: stream.stream.name)
    }
  }
}
