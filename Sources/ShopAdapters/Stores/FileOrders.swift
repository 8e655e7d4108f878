import ShopCore

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
/// reads is the file as it was when it started, whatever writers do meanwhile.
public final class FileOrders: Orders, OrderHistory {
  public let path: FilePath
  /// The files the command prints to, by name ("standard output"): never the orders file.
  private let streams: [(name: String, file: FileIdentity)]
  private var writer: Descriptor?
  private var encoder = OrderJSON.Encoder()
  private var pending: [UInt8] = []
  /// Where the last order's line starts in `pending`.
  private var lastLineStart = 0
  /// The last order this store saved and returned to be reported, and its line as written
  /// (without the newline): what a file that replaced the held one must hold to be used.
  private var lastReported: Int?
  private var lastWritten: [UInt8]?
  private var referenceIndex: ReferenceIndex?

  /// Touches nothing yet: the file is opened, and created with its folders, on first use.
  public init(path: FilePath) {
    self.path = path
    self.streams = []
    self.lineBound = FileOrders.maximumLineBytes
  }

  /// For tests: a store that refuses lines longer than `lineBound` bytes.
  init(path: FilePath, lineBound: Int) {
    self.path = path
    self.streams = []
    self.lineBound = lineBound
  }

  /// As ``init(path:)``, for a command that prints to `streams` (standard output, error):
  /// when the orders file already is one of them, it is refused now, before a report or an
  /// error can be printed into it; on first use, the opened file is checked again.
  public init(path: FilePath, streams: [(name: String, file: FileIdentity)]) throws(FileError) {
    self.path = path
    self.streams = streams
    self.lineBound = FileOrders.maximumLineBytes
    guard !streams.isEmpty, let identity = try? System.identity(of: path),
      let stream = streams.first(where: { $0.file == identity })
    else { return }
    throw .sharedWithStream(path, stream: stream.name)
  }

  // MARK: - Saving

  public func save(_ drafts: [Draft]) throws(FileError) -> [Order] {
    try place(drafts).map(\.order)
  }

  public func place(_ drafts: [Draft]) throws(FileError) -> [Placement] {
    // Lock, then make sure the path still names the locked file, else let it go and open the
    // path again: another process (`sed -i`, `mv`, an editor) may replace it at any time.
    for _ in 0..<FileOrders.maximumReopenings {
      let file = try openForWriting()
      do { try file.lockExclusive() } catch { throw .cannotWrite(path, error) }
      defer { file.unlock() }
      guard try pathNames(file) else {
        try letGo(of: file)
        continue
      }
      let appended = try append(drafts, to: file)
      // Checked again after the sync: a group that went into a file no longer at the path
      // must not be reported. It is cut off that file, as a failed write would be, and placed
      // again in the file now at the path.
      guard try pathNames(file) else {
        try? file.truncate(to: appended.restore)
        try? file.sync()
        try letGo(of: file)
        continue
      }
      if let last = appended.new.last {
        lastWritten = Array(pending[lastLineStart..<(pending.count - 1)])
        lastReported = last.number
      }
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
  /// the size to cut the file back to if they must be taken back, and the index update to
  /// make once they are known to be in the file at the path.
  private struct Appended {
    let placements: [Placement]
    let new: [Order]
    let restore: Int
    let recordReferences: () -> Void
  }

  /// Places `drafts` at the end of the locked `file` by the core's rule (numbering, and
  /// references the file already holds), writes the new orders and syncs them.
  private func append(_ drafts: [Draft], to file: Descriptor) throws(FileError) -> Appended {
    let fileEnd = try size(of: file)
    let ends = try self.ends(of: file, size: fileEnd).checked(self, in: file, writing: true)
    let linesEnd = ends.linesEnd ?? 0
    // A last line missing only its newline is an order the index has not seen yet.
    var unterminated: Order?
    if case .whole(let order) = ends.tail { unterminated = order }
    let indexed = try references(of: drafts, in: file, end: linesEnd)
    let plan = try Placement.plan(drafts, after: ends.last?.number, placedAt: ends.last?.placedAt) {
      reference throws(FileError) in
      if let unterminated, unterminated.reference == reference { return unterminated }
      guard let indexed else { return nil }
      return try indexed.index.order(for: reference, in: indexed.orders)
    }
    guard let plan else { throw .full(path, OrdersFull(last: ends.last?.number ?? 0)) }
    guard !plan.new.isEmpty else {
      return Appended(placements: plan.placements, new: [], restore: fileEnd) {}
    }
    var restore = fileEnd
    if case .torn(let start) = ends.tail { restore = start }
    pending.removeAll(keepingCapacity: true)
    var offsets: [(Reference, Int)] = []
    if let unterminated, let reference = unterminated.reference {
      offsets.append((reference, linesEnd))
    }
    // A last line that is a whole order missing only its newline is completed, never cut.
    if unterminated != nil { pending.append(UInt8(ascii: "\n")) }
    for order in plan.new {
      lastLineStart = pending.count
      if let reference = order.reference { offsets.append((reference, restore + pending.count)) }
      encoder.append(order, to: &pending)
    }
    do {
      if restore < fileEnd { try file.truncate(to: restore) }
    } catch {
      throw .cannotWrite(path, error)
    }
    do throws(SystemError) {
      try file.writeAll(pending)
      try file.sync()
      // The first orders in a file: its folder entry may be as new as the file, whoever made
      // it, and a file that a power cut unlinks loses its orders with it.
      if ends.last == nil { try syncFolder() }
    } catch {
      // Cut off what part of the group reached the file, so it ends as it did.
      try? file.truncate(to: restore)
      throw .cannotWrite(path, error)
    }
    let end = restore + pending.count
    let lastStart = restore + lastLineStart
    let record = { [indexed] in
      guard let indexed, let last = plan.new.last?.number else { return }
      do {
        try indexed.index.record(
          offsets, end: end, lastStart: lastStart, last: last, indexed.orders)
      } catch {
        indexed.index.drop()  // Left behind the orders: caught up on its next use.
      }
    }
    return Appended(
      placements: plan.placements, new: plan.new, restore: restore, recordReferences: record)
  }

  /// The index of references, brought up to date under the lock, when a draft has one.
  private func references(of drafts: [Draft], in file: Descriptor, end: Int) throws(FileError)
    -> (index: ReferenceIndex, orders: ReferenceIndex.Orders)?
  {
    guard drafts.contains(where: { $0.reference != nil }) else { return nil }
    let identity: FileIdentity
    do { identity = try file.status().identity } catch { throw .unreadable(path, error) }
    let orders = ReferenceIndex.Orders(file: file, identity: identity, end: end, writable: true)
    let index = referenceIndex ?? ReferenceIndex(orders: path)
    referenceIndex = index
    try index.prepare(orders)
    index.prefetch(drafts)
    return (index, orders)
  }

  /// The order that holds `reference`, found through the index, or false when none does. The
  /// file is read as every reader reads it: a snapshot whose ends pass the shared rule.
  public func order(
    referenced reference: Reference, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    guard let snapshot = try openSnapshot(strict: true) else { return false }
    if case .whole(let order) = snapshot.ends.tail, order.reference == reference {
      try visit(order, nil)
      return true
    }
    let identity: FileIdentity
    do { identity = try snapshot.file.status().identity } catch {
      throw FileError.unreadable(path, error)
    }
    let orders = ReferenceIndex.Orders(
      file: snapshot.file, identity: identity, end: snapshot.ends.linesEnd ?? 0, writable: false)
    let index = ReferenceIndex(orders: path)
    try index.prepare(orders)
    guard let order = try index.order(for: reference, in: orders) else { return false }
    try visit(order, nil)
    return true
  }

  /// Whether the path still names `file`, the one this store holds (`stat` of the path against
  /// `fstat` of the descriptor: a `cp` over it keeps it, a `mv`, `rm` or `sed -i` does not).
  private func pathNames(_ file: Descriptor) throws(FileError) -> Bool {
    let held: FileIdentity
    do { held = try file.status().identity } catch { throw .unreadable(path, error) }
    do { return try System.identity(of: path) == held } catch { throw .unreadable(path, error) }
  }

  /// Drops `file`, which the path no longer names. Before this store reported any order, the
  /// file now at the path is simply used; after, only when it provably holds what was
  /// reported: the line of the last order reported is there, byte for byte, under its number
  /// (as after `sed -i`, `perl -i` or an editor's save). Else nothing more may be placed:
  /// the numbers would start over or skip, and the user must be told.
  private func letGo(of file: Descriptor) throws(FileError) {
    writer = nil
    guard let lastWritten, let lastReported else { return }
    let exists: Bool
    do { exists = try System.identity(of: path) != nil } catch { throw .unreadable(path, error) }
    guard exists else {
      throw .replaced(
        path, what: "was moved away or removed while shop was writing it",
        lastReported: lastReported)
    }
    var holds = false
    _ = try? FileOrders(path: path).order(numbered: lastReported) { _, stored in
      holds = stored.map { $0.elementsEqual(lastWritten) } ?? false
    }
    guard holds else {
      throw .replaced(
        path,
        what: "was replaced while shop was writing it, by a file without order "
          + "\(lastReported) as shop wrote it",
        lastReported: lastReported)
    }
  }

  private func syncFolder() throws(SystemError) {
    // Through a symbolic link the new entry is in the folder of the file the link names.
    let folder = (try? System.resolvedPath(path))?.parent ?? path.parent
    do {
      try System.syncFolder(folder)
    } catch  where error.isUnsupported {
      return  // The file system can't sync folders; the file itself is synced.
    }
  }

  // MARK: - Reading

  public func readAll(_ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
    guard let snapshot = try openSnapshot(strict: false) else { return }
    var previous: Int?
    try lines(of: snapshot, from: 0, firstLine: 1) { offset, lineNumber, bytes in
      let (order, stored) = try parse(bytes, line: lineNumber, at: offset, in: snapshot)
      try checkNumber(order.number, after: previous, line: lineNumber ?? 0)
      previous = order.number
      try visit(order, stored)
      return true
    }
    // Every complete line was checked on the way, and listed; what the ends say about the
    // bytes after them (a foreign tail) stops the listing here, as it stops a writer.
    _ = try snapshot.ends.checked(self, in: snapshot.file, writing: false)
  }

  /// How many orders the file holds, without parsing every line: complete lines are counted,
  /// and the last one must be order 1000 + count, or the file has lost or gained lines.
  public func count() throws(FileError) -> Int {
    guard let snapshot = try openSnapshot(strict: true) else { return 0 }
    var lines = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var position = 0
    while position < snapshot.end {
      let length = min(chunk.count, snapshot.end - position)
      try read(snapshot.file, into: &chunk, at: position, range: 0..<length)
      lines += chunk.withUnsafeBytes {
        System.count(UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      position += length
    }
    if snapshot.unterminated { lines += 1 }
    let expected = Order.firstNumber - 1 + lines
    if let last = snapshot.ends.last?.number, last != expected {
      throw .badData(
        path, line: lines,
        reason: "the last order is \(last) but \(lines) lines must end with \(expected)")
    }
    return lines
  }

  public func last(_ count: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void)
    throws
  {
    guard count > 0, let snapshot = try openSnapshot(strict: true) else { return }
    let start = try start(ofLast: count, endingAt: snapshot.end, notBefore: 0, in: snapshot)
    try visitChecked(snapshot, from: start, visit)
  }

  /// The start of the `count`-th line back from `end` (the start of a line, or the snapshot's
  /// end), never before `floor`: newlines are counted backwards, so the cost is that of the
  /// lines counted, not of the file. A last line without its newline needs one newline fewer.
  func start(ofLast count: Int, endingAt end: Int, notBefore floor: Int, in snapshot: Snapshot)
    throws(FileError) -> Int
  {
    let wanted = end == snapshot.end && snapshot.unterminated ? count : count + 1
    var start = end
    var newlines = 0
    while newlines < wanted, start > floor,
      let newline = try newline(before: start, in: snapshot.file)
    {
      newlines += 1
      start = newline
    }
    return newlines == wanted ? max(start + 1, floor) : floor
  }

  /// Visits the orders of the lines from `start` to the end of `snapshot`, checking their
  /// numbering: from the first line it is known to start at 1001; from a later one, only the
  /// lines read can be checked against each other, so the cost does not grow with the file.
  func visitChecked(
    _ snapshot: Snapshot, from start: Int,
    _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws {
    var checking = start == 0
    var previous: Int?
    try lines(of: snapshot, from: start, firstLine: start == 0 ? 1 : nil) {
      offset, number, bytes in
      let (order, stored) = try parse(bytes, line: number, at: offset, in: snapshot)
      if checking, order.number != Order.number(after: previous) {
        let line = try number ?? lineNumber(at: offset, in: snapshot.file)
        try checkNumber(order.number, after: previous, line: line)
      }
      checking = true
      previous = order.number
      try visit(order, stored)
      return true
    }
  }

  /// Finds order `number` by bisecting the file by offset: in a well-formed file numbers rise
  /// with the offset, so a few reads find it in a file of any size. The number found is
  /// checked, never assumed.
  public func order(
    numbered number: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    guard number >= Order.firstNumber, let snapshot = try openSnapshot(strict: true) else {
      return false
    }
    let start = try firstLine(in: snapshot) { $0.number >= number }
    guard start < snapshot.end else { return false }
    let (bytes, _) = try line(at: start, in: snapshot)
    return try bytes.withUnsafeBufferPointer { line in
      let (order, stored) = try parse(line, line: nil, at: start, in: snapshot)
      guard order.number == number else { return false }
      try visit(order, stored)
      return true
    }
  }

  /// The offset of the first line whose order `isAtOrPast` holds for (the end of the snapshot
  /// when none): for a test that holds from some line on, as numbers and, in a file this
  /// version wrote, times do. A bisection by offset, then a scan of the last small stretch;
  /// every line it reads is parsed as strictly as any reader parses it.
  func firstLine(in snapshot: Snapshot, where isAtOrPast: (Order) -> Bool) throws -> Int {
    var low = 0  // Every line that starts before `low` is before the one sought.
    var high = snapshot.end  // No line that starts in low..<high is known yet.
    var found = snapshot.end  // The first line known to be at or past it.
    while high - low > 4096 {
      let middle = low + (high - low) / 2
      let lineStart = try newline(after: middle - 2, before: high, in: snapshot.file).map {
        $0 + 1
      }
      guard let lineStart, lineStart < high else {
        high = middle
        continue
      }
      let (bytes, lineEnd) = try line(at: lineStart, in: snapshot)
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
    try lines(of: snapshot, from: low, firstLine: low == 0 ? 1 : nil) { offset, number, bytes in
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

  /// The order on a line, and the line itself when it is as `shop` writes it, for a listing to
  /// copy; nil when it must be encoded anew (extra keys, spaces, a CR before the newline).
  func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, line: Int?, at offset: Int = 0,
    in snapshot: Snapshot
  ) throws(FileError) -> (Order, UnsafeBufferPointer<UInt8>?) {
    do {
      let (order, isEncoders) = try OrderJSON.orderAndLayout(from: bytes)
      return (order, isEncoders ? bytes : nil)
    } catch {
      var number = line ?? 0
      if line == nil { number = try lineNumber(at: offset, in: snapshot.file) }
      throw .badData(path, line: number, reason: "not an order: \(error.reason)")
    }
  }

  /// Order `number` must follow `previous` (nil: it is the first order) by one.
  func checkNumber(_ number: Int, after previous: Int?, line: Int) throws(FileError) {
    guard number != Order.number(after: previous) else { return }
    throw .badData(path, line: line, reason: FileOrders.misnumbered(number, after: previous))
  }

  private static func misnumbered(_ number: Int, after previous: Int?) -> String {
    previous.map { "order \(number) follows order \($0): numbers must go up by one" }
      ?? "the first order is \(number), not \(Order.firstNumber)"
  }

  // MARK: - A snapshot and its lines (internal: FileOrders+Range.swift reads through them)

  /// An open file, what its ends said when the read began, and where reading stops: after
  /// the last complete line, or at the end of a last line that only lacks its newline.
  struct Snapshot {
    let file: Descriptor
    let ends: Ends
    /// Where a read of part of the file stops instead: the start of a line.
    var limit: Int? = nil
    var end: Int { limit ?? ends.readableEnd }
    var unterminated: Bool {
      guard limit == nil, case .whole = ends.tail else { return false }
      return true
    }

    /// The same snapshot, read only up to `end`, the start of a line.
    func window(endingAt end: Int) -> Snapshot {
      Snapshot(file: file, ends: ends, limit: end)
    }
  }

  static let chunkBytes = 1 << 16

  /// The longest line a reader or writer takes: 64 MiB. `shop` writes at most about 60
  /// bytes per item plus its SKU, so a line it wrote is a few MB at most (a 1 MiB batch line
  /// of distinct three-letter SKUs makes about 10 MB); anything longer is not an order, and
  /// is refused rather than read into memory.
  static let maximumLineBytes = 1 << 26

  /// ``maximumLineBytes``, smaller only in tests, which must not write 64 MiB lines to run fast.
  let lineBound: Int

  /// Opens the file to read what it holds now; nil when it does not exist (no orders).
  /// `strict`: what the ends say wrong stops the read now; else (a full listing, which checks
  /// every line itself) it stops the read once the lines before it were listed.
  func openSnapshot(strict: Bool) throws(FileError) -> Snapshot? {
    let file: Descriptor
    do {
      file = try Descriptor.open(path, .read)
    } catch  where error.isMissing {
      return nil
    } catch {
      throw .unreadable(path, error)
    }
    try checkRegular(file, writing: false)
    // Under the shared lock no write is half done, and no torn tail is being cut and
    // replaced, so the ends seen now mark bytes that will never change.
    let locked = (try? file.lockShared()) != nil
    defer { if locked { file.unlock() } }
    let ends = try self.ends(of: file, size: try size(of: file))
    if strict || ends.linesEnd == nil { _ = try ends.checked(self, in: file, writing: false) }
    return Snapshot(file: file, ends: ends)
  }

  /// Calls `body` with each line from `start` to the snapshot's end, its offset and its number
  /// (when known), reading through a bounded buffer; `body` returns false to stop. A line
  /// longer than ``maximumLineBytes`` is refused at its number once the lines before it went.
  func lines(
    of snapshot: Snapshot, from start: Int, firstLine: Int?,
    _ body: (Int, Int?, UnsafeBufferPointer<UInt8>) throws -> Bool
  ) throws {
    var buffer = [UInt8](repeating: 0, count: FileOrders.chunkBytes)
    var filled = 0  // Bytes in `buffer`, from the file at `bufferOffset`.
    var bufferOffset = start
    var lineNumber = firstLine
    while bufferOffset + filled < snapshot.end {
      if filled == buffer.count {
        guard buffer.count <= lineBound else {
          throw FileError.badData(
            path, line: try lineNumber ?? self.lineNumber(at: bufferOffset, in: snapshot.file),
            reason: tooLong)
        }
        let grown = min(buffer.count * 2, lineBound + 1)
        buffer.append(contentsOf: [UInt8](repeating: 0, count: grown - buffer.count))
      }
      let length = min(buffer.count - filled, snapshot.end - bufferOffset - filled)
      try read(
        snapshot.file, into: &buffer, at: bufferOffset + filled, range: filled..<(filled + length))
      filled += length
      // The last line of the snapshot ends at its end when it only lacks its newline.
      let atEnd = bufferOffset + filled == snapshot.end && snapshot.unterminated
      var consumed = 0
      let keepGoing = try buffer.withUnsafeBufferPointer { bytes in
        while consumed < filled {
          let rest = UnsafeBufferPointer(rebasing: bytes[consumed..<filled])
          let newline = System.firstIndex(of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rest))
          guard let length = newline ?? (atEnd ? rest.count : nil) else { break }
          let line = UnsafeBufferPointer(rebasing: bytes[consumed..<(consumed + length)])
          guard try body(bufferOffset + consumed, lineNumber, line) else { return false }
          lineNumber = lineNumber.map { $0 + 1 }
          consumed += length + 1
        }
        return true
      }
      if !keepGoing { return }
      consumed = min(consumed, filled)
      // Move the unfinished line to the front.
      buffer.withUnsafeMutableBytes { bytes in
        guard consumed > 0, let base = bytes.baseAddress else { return }
        base.copyMemory(from: base + consumed, byteCount: filled - consumed)
      }
      filled -= consumed
      bufferOffset += consumed
    }
  }

  /// The line that starts at `offset`, and the offset after its newline (or the snapshot's
  /// end, for a last line without one).
  func line(at offset: Int, in snapshot: Snapshot) throws(FileError) -> ([UInt8], Int) {
    let limit = min(snapshot.end, offset + lineBound + 1)
    let newline = try newline(after: offset - 1, before: limit, in: snapshot.file)
    let end: Int
    if let newline {
      end = newline
    } else if snapshot.unterminated && limit == snapshot.end {
      end = snapshot.end
    } else if limit < snapshot.end {
      throw .badData(
        path, line: try lineNumber(at: offset, in: snapshot.file), reason: tooLong)
    } else {
      throw .unreadable(path, .shortRead)
    }
    var bytes = [UInt8](repeating: 0, count: end - offset)
    try read(snapshot.file, into: &bytes, at: offset)
    return (bytes, min(end + 1, snapshot.end))
  }

  private var tooLong: String {
    "a line longer than \(lineBound) bytes is not an order shop writes"
  }

  // MARK: - The ends of the file: the one rule readers and writers share

  /// What the start and the end of an orders file say, read at constant cost: the first line
  /// must be order 1001, the last complete line an order that follows the one before it, and
  /// the bytes after the last newline (the tail) one of three things. Nothing, a prefix of the
  /// line `shop` writes for the next number (a write that never finished: readers skip it,
  /// the next writer cuts it), or that whole line but its newline (a write that finished
  /// but for it, and may have been reported: readers list it, the next writer completes it).
  /// Anything else is a file `shop` did not write, refused by readers and writers alike.
  struct Ends {
    enum Tail {
      case none
      case torn(start: Int)
      case whole(Order)
    }

    /// Where the file stops being an order log, and why; the offset is in the line at fault.
    struct Fault {
      let offset: Int
      let reason: String
    }

    /// The end of the last line with a newline (0: there is none); nil when the tail was too
    /// long to find it.
    let linesEnd: Int?
    /// The order on the last line with a newline.
    let lastLine: Order?
    let tail: Tail
    let size: Int
    let fault: Fault?

    /// The last order in the file.
    var last: Order? {
      if case .whole(let order) = tail { return order }
      return lastLine
    }

    /// Where readers stop.
    var readableEnd: Int {
      if case .whole = tail { return size }
      return linesEnd ?? 0
    }

    /// These ends, or the fault they found as the error of `store`'s path at its line.
    func checked(_ store: FileOrders, in file: Descriptor, writing: Bool) throws(FileError)
      -> Ends
    {
      guard let fault else { return self }
      throw .badData(
        store.path, line: try store.lineNumber(at: fault.offset, in: file),
        reason: fault.reason + (writing ? "; nothing was changed" : ""))
    }
  }

  /// Reads the ends of `file`, `size` bytes long. Faults are returned, not thrown, so a full
  /// listing can list the lines before one; read errors are thrown.
  private func ends(of file: Descriptor, size: Int) throws(FileError) -> Ends {
    let bound = lineBound
    func fault(_ offset: Int, _ reason: String, linesEnd: Int? = nil) -> Ends {
      Ends(
        linesEnd: linesEnd, lastLine: nil, tail: .none, size: size,
        fault: Ends.Fault(offset: offset, reason: reason))
    }
    // No line shop writes is longer than the bound, so neither is a torn tail.
    let floor = max(0, size - bound - 1)
    let lastNewline = try newline(before: size, notBefore: floor, in: file)
    if lastNewline == nil, floor > 0 {
      // A full listing reads up to `floor` and stops at the long line, or at this fault,
      // whose offset is in that line: the lines before it are listed first.
      return fault(floor, tooLong, linesEnd: floor)
    }
    let linesEnd = lastNewline.map { $0 + 1 } ?? 0

    var lastLine: Order?
    if let lastNewline {
      let (start, bytes) = try line(endingAt: lastNewline, in: file)
      guard let bytes else { return fault(start, tooLong, linesEnd: linesEnd) }
      let last: Order
      do { last = try OrderJSON.order(from: bytes) } catch {
        return fault(
          start, "the last order is unreadable (\(error.reason))", linesEnd: linesEnd)
      }
      if start == 0 {
        if last.number != Order.firstNumber {
          return fault(0, FileOrders.misnumbered(last.number, after: nil), linesEnd: linesEnd)
        }
      } else {
        // The line before must be the order before: constant cost, two lines from the end.
        let (previousStart, previousBytes) = try line(endingAt: start - 1, in: file)
        guard let previousBytes else {
          return fault(previousStart, tooLong, linesEnd: linesEnd)
        }
        let previous: Order
        do { previous = try OrderJSON.order(from: previousBytes) } catch {
          return fault(previousStart, "not an order: \(error.reason)", linesEnd: linesEnd)
        }
        guard Order.number(after: previous.number) == last.number else {
          return fault(
            start, FileOrders.misnumbered(last.number, after: previous.number),
            linesEnd: linesEnd)
        }
        // And the first line must be order 1001: one more read, at the start.
        if previousStart > 0, let first = try firstLineFault(of: file, linesEnd: linesEnd) {
          return fault(first.offset, first.reason, linesEnd: linesEnd)
        }
        if previousStart == 0, previous.number != Order.firstNumber {
          return fault(0, FileOrders.misnumbered(previous.number, after: nil), linesEnd: linesEnd)
        }
      }
      lastLine = last
    }

    guard linesEnd < size else {
      return Ends(linesEnd: linesEnd, lastLine: lastLine, tail: .none, size: size, fault: nil)
    }
    let foreign =
      "the file ends in \(size - linesEnd) bytes without a newline that are neither an order "
      + "nor the start of one shop writes"
    guard let next = Order.number(after: lastLine?.number) else {
      return fault(linesEnd, foreign, linesEnd: linesEnd)
    }
    var chunks = FileChunks(file: file, offset: linesEnd, end: size)
    let match = OrderJSON.lineStart(of: &chunks, number: next)
    if let failure = chunks.failure { throw .unreadable(path, failure) }
    switch match {
    case .prefix:
      return Ends(
        linesEnd: linesEnd, lastLine: lastLine, tail: .torn(start: linesEnd), size: size,
        fault: nil)
    case .wholeLine, .other:
      // A whole order in any layout, but only the next one, and only when it could be one:
      // the tail is read whole (it is within the bound) only if it starts and ends as one.
      var tail: [UInt8] = []
      var couldBeOne = match == .wholeLine
      if !couldBeOne, try byte(at: linesEnd, of: file) == UInt8(ascii: "{") {
        couldBeOne = try byte(at: size - 1, of: file) == UInt8(ascii: "}")
      }
      if couldBeOne {
        tail = [UInt8](repeating: 0, count: size - linesEnd)
        try read(file, into: &tail, at: linesEnd)
      }
      guard !tail.isEmpty, let order = try? OrderJSON.order(from: tail) else {
        return fault(linesEnd, foreign, linesEnd: linesEnd)
      }
      guard order.number == next else {
        return fault(
          linesEnd, FileOrders.misnumbered(order.number, after: lastLine?.number),
          linesEnd: linesEnd)
      }
      return Ends(
        linesEnd: linesEnd, lastLine: lastLine, tail: .whole(order), size: size, fault: nil)
    }
  }

  /// The fault of a first line that is not order 1001, if it is not.
  private func firstLineFault(of file: Descriptor, linesEnd: Int) throws(FileError) -> Ends.Fault? {
    guard
      let newline = try newline(
        after: -1, before: min(linesEnd, lineBound + 1), in: file)
    else { return Ends.Fault(offset: 0, reason: tooLong) }
    var bytes = [UInt8](repeating: 0, count: newline)
    try read(file, into: &bytes, at: 0)
    let first: Order
    do { first = try OrderJSON.order(from: bytes) } catch {
      return Ends.Fault(offset: 0, reason: "not an order: \(error.reason)")
    }
    guard first.number == Order.firstNumber else {
      return Ends.Fault(offset: 0, reason: FileOrders.misnumbered(first.number, after: nil))
    }
    return nil
  }

  /// The line that ends at the newline at `newline`: where it starts, and its bytes (nil when
  /// it is longer than the bound, and so not read).
  private func line(endingAt newline: Int, in file: Descriptor) throws(FileError) -> (
    Int, [UInt8]?
  ) {
    let floor = max(0, newline - lineBound - 1)
    guard let before = try self.newline(before: newline, notBefore: floor, in: file) else {
      if floor > 0 { return (floor, nil) }
      var bytes = [UInt8](repeating: 0, count: newline)
      try read(file, into: &bytes, at: 0)
      return (0, bytes)
    }
    var bytes = [UInt8](repeating: 0, count: newline - before - 1)
    try read(file, into: &bytes, at: before + 1)
    return (before + 1, bytes)
  }

  private func byte(at offset: Int, of file: Descriptor) throws(FileError) -> UInt8 {
    var byte: [UInt8] = [0]
    try read(file, into: &byte, at: offset)
    return byte[0]
  }

  /// The offset of the last newline before `end` and not before `floor`, scanning backwards
  /// a block at a time.
  func newline(before end: Int, notBefore floor: Int = 0, in file: Descriptor)
    throws(FileError) -> Int?
  {
    var blockEnd = end
    var block = [UInt8](repeating: 0, count: 4096)
    while blockEnd > floor {
      let blockStart = max(floor, blockEnd - block.count)
      let length = blockEnd - blockStart
      try read(file, into: &block, at: blockStart, range: 0..<length)
      let found = block.withUnsafeBytes {
        System.lastIndexFromEnd(
          of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      if let found { return blockStart + found }
      blockEnd = blockStart
      // Long lines are rare: read them in larger blocks.
      if block.count < FileOrders.chunkBytes {
        block = [UInt8](repeating: 0, count: FileOrders.chunkBytes)
      }
    }
    return nil
  }

  /// The offset of the first newline after `offset` and before `end`.
  func newline(after offset: Int, before end: Int, in file: Descriptor) throws(FileError)
    -> Int?
  {
    var blockStart = offset + 1
    var block = [UInt8](repeating: 0, count: 4096)
    while blockStart < end {
      let length = min(block.count, end - blockStart)
      try read(file, into: &block, at: blockStart, range: 0..<length)
      let found = block.withUnsafeBytes {
        System.firstIndex(
          of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      if let found { return blockStart + found }
      blockStart += length
    }
    return nil
  }

  /// The 1-based line that starts at `offset`; reads the file up to it, so only for errors.
  func lineNumber(at offset: Int, in file: Descriptor) throws(FileError) -> Int {
    var lines = 1
    var position = 0
    var block = [UInt8](repeating: 0, count: FileOrders.chunkBytes)
    while position < offset {
      let length = min(block.count, offset - position)
      try read(file, into: &block, at: position, range: 0..<length)
      lines += block.withUnsafeBytes {
        System.count(UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      position += length
    }
    return lines
  }

  /// Fills `bytes[range]` (all of it by default) from `offset`, or throws.
  private func read(
    _ file: Descriptor, into bytes: inout [UInt8], at offset: Int, range: Range<Int>? = nil
  ) throws(FileError) {
    let range = range ?? 0..<bytes.count
    let got: Int
    do { got = try file.read(into: &bytes, range, at: offset) } catch {
      throw .unreadable(path, error)
    }
    guard got == range.count else { throw .unreadable(path, .shortRead) }
  }

  private func size(of file: Descriptor) throws(FileError) -> Int {
    do { return try file.status().size } catch { throw .unreadable(path, error) }
  }

  // MARK: - Opening

  /// Opens the file to append, creating it and its folders only when they are missing: the
  /// usual case, an existing file, costs one `open`.
  private func openForWriting() throws(FileError) -> Descriptor {
    if let writer { return writer }
    let file: Descriptor
    do {
      file = try Descriptor.open(path, .append)
    } catch  where error.isMissing || error.isNotAFolder {
      try makeFolders(path.parent)
      do throws(SystemError) {
        do {
          file = try Descriptor.open(path, .createNew)
        } catch  where error.isExisting {
          // Another process created it first, or the path is a symbolic link to a file that
          // does not exist yet, which O_EXCL will not follow.
          do {
            file = try Descriptor.open(path, .append)
          } catch  where error.isMissing {
            file = try Descriptor.open(path, .createThroughLink)
          }
        }
      } catch {
        throw .cannotCreate(path, error)
      }
    } catch {
      throw .cannotCreate(path, error)
    }
    try checkRegular(file, writing: true)
    writer = file
    return file
  }

  /// Only a regular file holds orders, and never one that the command also prints to.
  private func checkRegular(_ file: Descriptor, writing: Bool) throws(FileError) {
    let status: (kind: FileKind, size: Int, identity: FileIdentity)
    do { status = try file.status() } catch { throw .unreadable(path, error) }
    guard status.kind == .regular else { throw .notRegular(path, status.kind, writing: writing) }
    if let stream = streams.first(where: { $0.file == status.identity }) {
      throw .sharedWithStream(path, stream: stream.name)
    }
  }

  /// Creates the folders on the way to the file that are missing, syncing each new folder's
  /// parent so the new entry survives a crash.
  private func makeFolders(_ folder: FilePath) throws(FileError) {
    let kind: FileKind?
    do { kind = try System.kind(of: folder) } catch { throw .cannotCreateFolder(folder, error) }
    switch kind {
    case .folder?: return
    case .some: throw .cannotCreateFolder(folder, .notAFolder)
    case nil: break
    }
    let parent = folder.parent
    if parent != folder { try makeFolders(parent) }
    do {
      try System.makeFolder(folder)
    } catch  where error.isExisting {
      return
    } catch {
      throw .cannotCreateFolder(folder, error)
    }
    try? System.syncFolder(parent)
  }
}

/// The bytes of a file from one offset to another, a chunk at a time; a read error ends them
/// and is kept, so the caller can tell it from the end.
private struct FileChunks: IteratorProtocol {
  let file: Descriptor
  var offset: Int
  let end: Int
  private(set) var failure: SystemError?

  init(file: Descriptor, offset: Int, end: Int) {
    self.file = file
    self.offset = offset
    self.end = end
  }

  mutating func next() -> [UInt8]? {
    guard offset < end, failure == nil else { return nil }
    var chunk = [UInt8](repeating: 0, count: min(1 << 16, end - offset))
    do {
      guard try file.read(into: &chunk, 0..<chunk.count, at: offset) == chunk.count else {
        failure = .shortRead
        return nil
      }
    } catch {
      failure = error
      return nil
    }
    offset += chunk.count
    return chunk
  }
}
