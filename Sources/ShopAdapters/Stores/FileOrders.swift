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
  private var referenceIndex: ReferenceIndex?

  /// Touches nothing yet: the file is opened, and created with its folders, on first use.
  public init(path: FilePath) {
    self.path = path
    self.streams = []
  }

  /// As ``init(path:)``, for a command that prints to `streams` (standard output, error):
  /// when the orders file already is one of them, it is refused now, before a report or an
  /// error can be printed into it; on first use, the opened file is checked again.
  public init(path: FilePath, streams: [(name: String, file: FileIdentity)]) throws(FileError) {
    self.path = path
    self.streams = streams
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
    let file = try openForWriting()
    do { try file.lockExclusive() } catch { throw .cannotWrite(path, error) }
    defer { file.unlock() }

    let fileEnd = try size(of: file)
    let tail = try lastLine(of: file, before: fileEnd, writing: true)
    if let order = tail.order, tail.start > 0 {
      try checkFollows(order, endingAt: tail.start - 1, file)
    }
    let last = tail.order?.number
    if tail.end < fileEnd {
      try checkTorn(file, from: tail.end, to: fileEnd, next: Order.number(after: last))
    }
    let indexed = try references(of: drafts, in: file, end: tail.end)
    let plan = try Placement.plan(drafts, after: last) { reference throws(FileError) in
      guard let indexed else { return nil }
      return try indexed.index.order(for: reference, in: indexed.orders)
    }
    guard let plan else { throw .full(path, OrdersFull(last: .max)) }
    guard !plan.new.isEmpty else { return plan.placements }
    pending.removeAll(keepingCapacity: true)
    var offsets: [(Reference, Int)] = []
    var lastStart = 0
    for order in plan.new {
      lastStart = tail.end + pending.count
      if let reference = order.reference { offsets.append((reference, lastStart)) }
      encoder.append(order, to: &pending)
    }
    do {
      if tail.end < fileEnd { try file.truncate(to: tail.end) }
    } catch {
      throw .cannotWrite(path, error)
    }
    do throws(SystemError) {
      try file.writeAll(pending)
      try file.sync()
      // The first orders in a file: its folder entry may be as new as the file, whoever made
      // it, and a file that a power cut unlinks loses its orders with it.
      if tail.end == 0 { try syncFolder() }
    } catch {
      // Cut off what part of the group reached the file, so it ends with a whole order.
      try? file.truncate(to: tail.end)
      throw .cannotWrite(path, error)
    }
    if let indexed, let last = plan.new.last?.number {
      do {
        try indexed.index.record(
          offsets, end: tail.end + pending.count, lastStart: lastStart, last: last,
          indexed.orders)
      } catch {
        indexed.index.drop()  // Left behind the orders: caught up on its next use.
      }
    }
    return plan.placements
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

  /// The order that holds `reference`, found through the index, or false when none does.
  public func order(
    referenced reference: Reference, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    let file: Descriptor
    do {
      file = try Descriptor.open(path, .read)
    } catch  where error.isMissing {
      return false
    } catch {
      throw FileError.unreadable(path, error)
    }
    try checkRegular(file, writing: false)
    let locked = (try? file.lockShared()) != nil
    defer { if locked { file.unlock() } }
    let end = try newline(before: try size(of: file), in: file).map { $0 + 1 } ?? 0
    let identity: FileIdentity
    do { identity = try file.status().identity } catch { throw FileError.unreadable(path, error) }
    let orders = ReferenceIndex.Orders(file: file, identity: identity, end: end, writable: false)
    let index = ReferenceIndex(orders: path)
    try index.prepare(orders)
    guard let order = try index.order(for: reference, in: orders) else { return false }
    try visit(order, nil)
    return true
  }

  /// The last order must follow the one before it by one: a file whose end repeats or skips a
  /// number is refused rather than continued. Two lines read from the end: constant cost.
  private func checkFollows(_ last: Order, endingAt newline: Int, _ file: Descriptor)
    throws(FileError)
  {
    let start = try self.newline(before: newline, in: file).map { $0 + 1 } ?? 0
    var line = [UInt8](repeating: 0, count: newline - start)
    try read(file, into: &line, at: start)
    let previous: Order
    do {
      previous = try OrderJSON.order(from: line)
    } catch {
      throw .badData(
        path, line: try lineNumber(at: start, in: file),
        reason: "not an order: \(error.reason); nothing was changed")
    }
    guard Order.number(after: previous.number) != last.number else { return }
    throw .badData(
      path, line: try lineNumber(at: newline + 1, in: file),
      reason: "order \(last.number) follows order \(previous.number): numbers must go up by "
        + "one; nothing was changed")
  }

  /// Refuses a torn tail that is not the start of the line `shop` writes for `next`: such
  /// bytes were written by someone else, and cutting them would destroy them.
  private func checkTorn(_ file: Descriptor, from start: Int, to end: Int, next: Int?)
    throws(FileError)
  {
    var torn = [UInt8](repeating: 0, count: end - start)
    try read(file, into: &torn, at: start)
    let isOurs = torn.withUnsafeBufferPointer { bytes in
      next.map { OrderJSON.isStartOfLine(bytes, number: $0) } ?? false
    }
    guard isOurs else {
      throw .badData(
        path, line: try lineNumber(at: start, in: file),
        reason: "the file ends in \(end - start) bytes without a newline that are not the "
          + "start of an order shop writes; nothing was changed")
    }
  }

  private func syncFolder() throws(SystemError) {
    do {
      try System.syncFolder(path.parent)
    } catch  where error.isUnsupported {
      return  // The file system can't sync folders; the file itself is synced.
    }
  }

  // MARK: - Reading

  public func readAll(_ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
    guard let snapshot = try openSnapshot() else { return }
    var previous: Int?
    try lines(of: snapshot, from: 0, firstLine: 1) { offset, lineNumber, bytes in
      let order = try parse(bytes, line: lineNumber, at: offset, in: snapshot)
      try checkNumber(order.number, after: previous, line: lineNumber ?? 0)
      previous = order.number
      try visit(order, bytes)
      return true
    }
  }

  /// How many orders the file holds, without parsing every line: complete lines are counted,
  /// and the last one must be order 1000 + count, or the file has lost or gained lines.
  public func count() throws(FileError) -> Int {
    guard let snapshot = try openSnapshot() else { return 0 }
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
    let tail = try lastLine(of: snapshot.file, before: snapshot.end)
    let expected = Order.firstNumber - 1 + lines
    if let last = tail.order?.number, last != expected {
      throw .badData(
        path, line: lines,
        reason: "the last order is \(last) but \(lines) lines must end with \(expected)")
    }
    return lines
  }

  public func last(_ count: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void)
    throws
  {
    guard count > 0, let snapshot = try openSnapshot() else { return }
    // Back from the end past `count` newlines: the start of the first line to list.
    var start = snapshot.end
    var newlines = 0
    while newlines <= count, let newline = try newline(before: start, in: snapshot.file) {
      newlines += 1
      start = newline
    }
    start = newlines > count ? start + 1 : 0
    // From the first line the numbering is known to start at 1001; from a later one, only the
    // lines read can be checked against each other: the cost must not grow with the file.
    var checking = start == 0
    var previous: Int?
    try lines(of: snapshot, from: start, firstLine: start == 0 ? 1 : nil) {
      offset, number, bytes in
      let order = try parse(bytes, line: number, at: offset, in: snapshot)
      if checking, order.number != Order.number(after: previous) {
        let line = try number ?? lineNumber(at: offset, in: snapshot.file)
        try checkNumber(order.number, after: previous, line: line)
      }
      checking = true
      previous = order.number
      try visit(order, bytes)
      return true
    }
  }

  /// Finds order `number` by bisecting the file by offset: in a well-formed file numbers rise
  /// with the offset, so a few reads find it in a file of any size. The number found is
  /// checked, never assumed.
  public func order(
    numbered number: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    guard number >= Order.firstNumber, let snapshot = try openSnapshot() else { return false }
    var low = 0
    var high = snapshot.end
    while high - low > FileOrders.chunkBytes {
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
        try parse(line, line: nil, at: lineStart, in: snapshot)
      }
      if order.number == number {
        try bytes.withUnsafeBufferPointer { try visit(order, $0) }
        return true
      }
      if order.number < number { low = lineEnd } else { high = lineStart }
    }
    var found = false
    try lines(of: snapshot, from: low, firstLine: low == 0 ? 1 : nil) {
      offset, lineNumber, bytes in
      guard offset < high else { return false }
      let order = try parse(bytes, line: lineNumber, at: offset, in: snapshot)
      if order.number == number {
        try visit(order, bytes)
        found = true
      }
      return order.number < number
    }
    return found
  }

  private func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, line: Int?, at offset: Int = 0,
    in snapshot: Snapshot
  ) throws(FileError) -> Order {
    do {
      return try OrderJSON.order(from: bytes)
    } catch {
      var number = line ?? 0
      if line == nil { number = try lineNumber(at: offset, in: snapshot.file) }
      throw .badData(path, line: number, reason: "not an order: \(error.reason)")
    }
  }

  /// Order `number` must follow `previous` (nil: it is the first order) by one.
  private func checkNumber(_ number: Int, after previous: Int?, line: Int) throws(FileError) {
    guard number != Order.number(after: previous) else { return }
    let reason =
      previous.map { "order \(number) follows order \($0): numbers must go up by one" }
      ?? "the first order is \(number), not \(Order.firstNumber)"
    throw .badData(path, line: line, reason: reason)
  }

  // MARK: - A snapshot and its lines

  /// An open file and the end of its last complete line when the read began.
  private struct Snapshot {
    let file: Descriptor
    let end: Int
  }

  private static let chunkBytes = 1 << 16

  /// Opens the file to read what it holds now; nil when it does not exist (no orders).
  private func openSnapshot() throws(FileError) -> Snapshot? {
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
    // replaced, so the last newline seen now marks bytes that will never change.
    let locked = (try? file.lockShared()) != nil
    defer { if locked { file.unlock() } }
    let end = try newline(before: try size(of: file), in: file).map { $0 + 1 } ?? 0
    return Snapshot(file: file, end: end)
  }

  /// Calls `body` with each complete line from `start` to the snapshot's end, its offset and
  /// its number (when known), reading through a bounded buffer; `body` returns false to stop.
  private func lines(
    of snapshot: Snapshot, from start: Int, firstLine: Int?,
    _ body: (Int, Int?, UnsafeBufferPointer<UInt8>) throws -> Bool
  ) throws {
    var buffer = [UInt8](repeating: 0, count: FileOrders.chunkBytes)
    var filled = 0  // Bytes in `buffer`, from the file at `bufferOffset`.
    var bufferOffset = start
    var lineNumber = firstLine
    while bufferOffset + filled < snapshot.end {
      if filled == buffer.count {
        buffer.append(contentsOf: repeatElement(0, count: buffer.count))  // A very long line.
      }
      let length = min(buffer.count - filled, snapshot.end - bufferOffset - filled)
      try read(
        snapshot.file, into: &buffer, at: bufferOffset + filled, range: filled..<(filled + length))
      filled += length
      var consumed = 0
      let keepGoing = try buffer.withUnsafeBufferPointer { bytes in
        while let newline = System.firstIndex(
          of: UInt8(ascii: "\n"),
          in: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[consumed..<filled])))
        {
          let line = UnsafeBufferPointer(rebasing: bytes[consumed..<(consumed + newline)])
          guard try body(bufferOffset + consumed, lineNumber, line) else { return false }
          lineNumber = lineNumber.map { $0 + 1 }
          consumed += newline + 1
        }
        return true
      }
      if !keepGoing { return }
      // Move the unfinished line to the front.
      buffer.withUnsafeMutableBytes { bytes in
        guard consumed > 0, let base = bytes.baseAddress else { return }
        base.copyMemory(from: base + consumed, byteCount: filled - consumed)
      }
      filled -= consumed
      bufferOffset += consumed
    }
  }

  /// The complete line that starts at `offset`, and the offset after its newline.
  private func line(at offset: Int, in snapshot: Snapshot) throws(FileError) -> ([UInt8], Int) {
    guard let newline = try newline(after: offset - 1, before: snapshot.end, in: snapshot.file)
    else { throw .unreadable(path, .shortRead) }
    var bytes = [UInt8](repeating: 0, count: newline - offset)
    try read(snapshot.file, into: &bytes, at: offset)
    return (bytes, newline + 1)
  }

  // MARK: - The end of the file

  /// The last complete line before `end` and where it ends (after its newline).
  private struct LastLine {
    /// Where the line starts; 0 also when there is no complete line.
    let start: Int
    /// 0 when there is no complete line.
    let end: Int
    /// The order on it; nil for no complete line.
    let order: Order?
  }

  /// Reads only the last complete line, backwards from `end`: constant cost in file size.
  /// Usually one read of the last block holds the whole line and the newline before it.
  private func lastLine(of file: Descriptor, before end: Int, writing: Bool = false)
    throws(FileError) -> LastLine
  {
    let blockStart = max(0, end - 4096)
    var block = [UInt8](repeating: 0, count: end - blockStart)
    try read(file, into: &block, at: blockStart)
    var lastNewline: Int?
    var lineStart: Int?
    block.withUnsafeBytes { bytes in
      guard let last = System.lastIndex(of: UInt8(ascii: "\n"), in: bytes) else { return }
      lastNewline = blockStart + last
      if let before = System.lastIndex(
        of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: bytes[..<last]))
      {
        lineStart = blockStart + before + 1
      } else if blockStart == 0 {
        lineStart = 0
      }
    }
    if lastNewline == nil { lastNewline = try newline(before: blockStart, in: file) }
    guard let lastNewline else { return LastLine(start: 0, end: 0, order: nil) }
    let start: Int
    if let lineStart {
      start = lineStart
    } else {
      start = try newline(before: lastNewline, in: file).map { $0 + 1 } ?? 0
    }
    var line: [UInt8]
    if start >= blockStart {
      line = Array(block[(start - blockStart)..<(lastNewline - blockStart)])
    } else {
      line = [UInt8](repeating: 0, count: lastNewline - start)
      try read(file, into: &line, at: start)
    }
    let order: Order
    do {
      order = try OrderJSON.order(from: line)
    } catch {
      throw .badData(
        path, line: try lineNumber(at: start, in: file),
        reason: "the last order is unreadable (\(error.reason))"
          + (writing ? "; nothing was changed" : ""))
    }
    return LastLine(start: start, end: lastNewline + 1, order: order)
  }

  /// The offset of the last newline before `end`, scanning backwards a block at a time.
  private func newline(before end: Int, in file: Descriptor) throws(FileError) -> Int? {
    var blockEnd = end
    var block = [UInt8](repeating: 0, count: 4096)
    while blockEnd > 0 {
      let blockStart = max(0, blockEnd - block.count)
      let length = blockEnd - blockStart
      try read(file, into: &block, at: blockStart, range: 0..<length)
      let found = block.withUnsafeBytes {
        System.lastIndex(
          of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      if let found { return blockStart + found }
      blockEnd = blockStart
    }
    return nil
  }

  /// The offset of the first newline after `offset` and before `end`.
  private func newline(after offset: Int, before end: Int, in file: Descriptor) throws(FileError)
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
  private func lineNumber(at offset: Int, in file: Descriptor) throws(FileError) -> Int {
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
