import ShopConventions

/// An open file of lines that grows only at its end, and the path it was opened at: what the
/// order log (``FileOrders``) is kept in. It reads at any offset, scans back and forth for
/// newlines within a bound on a line's length, appends and syncs, takes back a torn tail, and
/// tells whether the path still names it. Every failure is a ``FileError`` of its path; what
/// the lines mean is the log's business.
struct LineFile {
  let path: FilePath
  let descriptor: Descriptor
  /// The longest line it takes, in bytes.
  let lineBound: Int

  static let chunkBytes = 1 << 16

  var tooLong: String {
    "a line longer than \(lineBound) bytes is not an order shop writes"
  }

  // MARK: - What it is

  func size() throws(FileError) -> Int {
    do { return try descriptor.status().size } catch { throw .unreadable(path, error) }
  }

  func details() throws(FileError) -> FileDetails {
    do { return try descriptor.details() } catch { throw .unreadable(path, error) }
  }

  func identity() throws(FileError) -> FileIdentity {
    do { return try descriptor.status().identity } catch { throw .unreadable(path, error) }
  }

  /// Whether the path still names this file (`stat` of the path against `fstat` of the
  /// descriptor: a `cp` over it keeps it, a `mv`, `rm` or `sed -i` does not).
  func pathNames() throws(FileError) -> Bool {
    let held = try identity()
    do { return try System.identity(of: path) == held } catch { throw .unreadable(path, error) }
  }

  // MARK: - Reading at an offset

  /// Fills `bytes[range]` (all of it by default) from `offset`, or throws.
  func read(into bytes: inout [UInt8], at offset: Int, range: Range<Int>? = nil)
    throws(FileError)
  {
    let range = range ?? 0..<bytes.count
    let got: Int
    do { got = try descriptor.read(into: &bytes, range, at: offset) } catch {
      throw .unreadable(path, error)
    }
    guard got == range.count else { throw .unreadable(path, .shortRead) }
  }

  func byte(at offset: Int) throws(FileError) -> UInt8 {
    var byte: [UInt8] = [0]
    try read(into: &byte, at: offset)
    return byte[0]
  }

  /// The bytes from `offset` to `end`, a chunk at a time.
  func chunks(from offset: Int, to end: Int) -> Chunks {
    Chunks(file: descriptor, offset: offset, end: end)
  }

  // MARK: - Newlines

  /// The offset of the last newline before `end` and not before `floor`, scanning backwards
  /// a block at a time.
  func newline(before end: Int, notBefore floor: Int = 0) throws(FileError) -> Int? {
    var blockEnd = end
    var block = [UInt8](repeating: 0, count: 4096)
    while blockEnd > floor {
      let blockStart = max(floor, blockEnd - block.count)
      let length = blockEnd - blockStart
      try read(into: &block, at: blockStart, range: 0..<length)
      let found = block.withUnsafeBytes {
        System.lastIndexFromEnd(
          of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      if let found { return blockStart + found }
      blockEnd = blockStart
      // Long lines are rare: read them in larger blocks.
      if block.count < LineFile.chunkBytes {
        block = [UInt8](repeating: 0, count: LineFile.chunkBytes)
      }
    }
    return nil
  }

  /// The offset of the first newline after `offset` and before `end`.
  func newline(after offset: Int, before end: Int) throws(FileError) -> Int? {
    var blockStart = offset + 1
    var block = [UInt8](repeating: 0, count: 4096)
    while blockStart < end {
      let length = min(block.count, end - blockStart)
      try read(into: &block, at: blockStart, range: 0..<length)
      let found = block.withUnsafeBytes {
        System.firstIndex(
          of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      if let found { return blockStart + found }
      blockStart += length
    }
    return nil
  }

  /// How many newlines the first `end` bytes hold, read in large chunks, holes skipped.
  func newlines(before end: Int) throws(FileError) -> Int {
    var count = 0
    // Only as large as the file asks for: naming a bad line in a small file zeroes no MiB.
    var chunk = [UInt8](repeating: 0, count: min(1 << 20, end))
    var position = 0
    while let data = descriptor.data(from: position, before: end) {
      position = data.lowerBound
      let length = min(chunk.count, data.upperBound - position)
      try read(into: &chunk, at: position, range: 0..<length)
      count += chunk.withUnsafeBytes {
        System.count(UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: $0[..<length]))
      }
      position += length
    }
    // No data left before `end`: holes to it, unless the file is now shorter than that (cut
    // by another program meanwhile), which is a short read, as a read there would be.
    if position < end, try size() < end { throw .unreadable(path, .shortRead) }
    return count
  }

  /// The 1-based line that starts at `offset`; reads the file up to it, so only for errors.
  func lineNumber(at offset: Int) throws(FileError) -> Int {
    try newlines(before: offset) + 1
  }

  /// The line that ends at the newline at `newline`: where it starts, and its bytes (nil when
  /// it is longer than the bound, and so not read).
  func line(endingAt newline: Int) throws(FileError) -> (Int, [UInt8]?) {
    let floor = max(0, newline - lineBound - 1)
    guard let before = try self.newline(before: newline, notBefore: floor) else {
      if floor > 0 { return (floor, nil) }
      var bytes = [UInt8](repeating: 0, count: newline)
      try read(into: &bytes, at: 0)
      return (0, bytes)
    }
    var bytes = [UInt8](repeating: 0, count: newline - before - 1)
    try read(into: &bytes, at: before + 1)
    return (before + 1, bytes)
  }

  // MARK: - Writing (under the exclusive lock)

  /// Cuts the file back to `start` when it is longer (`size`: a torn tail), writes `bytes`
  /// and syncs them, and with `syncingFolder` the folder entry too. On failure it cuts off
  /// what part reached the file, so it ends as it did.
  func append(_ bytes: [UInt8], at start: Int, size: Int, syncingFolder: Bool)
    throws(FileError)
  {
    do {
      if start < size { try descriptor.truncate(to: start) }
    } catch {
      throw .cannotWrite(path, error)
    }
    do throws(SystemError) {
      try descriptor.writeAll(bytes)
      try descriptor.sync()
      if syncingFolder { try syncFolder() }
    } catch {
      try? descriptor.truncate(to: start)
      throw .cannotWrite(path, error)
    }
  }

  /// Cuts the file back to `size` and syncs it, as far as it can: what was appended is
  /// taken back.
  func takeBack(to size: Int) {
    try? descriptor.truncate(to: size)
    try? descriptor.sync()
  }

  /// Syncs the folder entry of a new file: it may be as new as the file, whoever made it,
  /// and a file that a power cut unlinks loses its lines with it.
  private func syncFolder() throws(SystemError) {
    // Through a symbolic link the new entry is in the folder of the file the link names.
    let folder = (try? System.resolvedPath(path))?.parent ?? path.parent
    do {
      try System.syncFolder(folder)
    } catch  where error.isUnsupported {
      return  // The file system can't sync folders; the file itself is synced.
    }
  }

  /// The bytes of a file from one offset to another, a chunk at a time; a read error ends
  /// them and is kept, so the caller can tell it from the end.
  struct Chunks: IteratorProtocol {
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
}
