import Glibc
import ShopCore

/// Orders in a JSON Lines file (one ``OrderJSON`` object a line), appended, never rewritten,
/// and safe to share between any number of processes.
///
/// `save` holds an exclusive `flock` from reading the last number to the `fsync`, so numbers
/// never repeat and lines never interleave; it finds the last number from the end of the file,
/// so it costs the same on a million orders as on one. A line without its newline is a write
/// that never finished (and was never reported): readers skip it and the next writer cuts it.
public final class FileOrders: Orders {
  public let path: String
  private var descriptor: Int32 = -1
  /// This process created the file, so its folder entry still has to be made durable.
  private var created = false
  private var encoder = OrderJSON.Encoder()
  private var pending: [UInt8] = []

  /// Touches nothing yet: the file is opened, and created with its folders, on first use.
  public init(path: String) {
    self.path = path
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  public func save(_ drafts: [Draft]) throws -> [Order] {
    let descriptor = try openForWriting()
    try lock(descriptor)
    defer { _ = flock(descriptor, LOCK_UN) }

    let tail = try readTail(descriptor)
    var orders: [Order] = []
    orders.reserveCapacity(drafts.count)
    var last = tail.lastNumber
    pending.removeAll(keepingCapacity: true)
    for draft in drafts {
      guard let number = Order.number(after: last) else { throw OrdersFull(last: last ?? 0) }
      let order = Order(number: number, draft: draft)
      encoder.append(order, to: &pending)
      orders.append(order)
      last = number
    }
    if tail.fileEnd != tail.completeEnd, ftruncate(descriptor, off_t(tail.completeEnd)) != 0 {
      throw FileError.cannotWrite(path: path, errno: errno)
    }
    if let failure = pending.withUnsafeBytes({ FileSystem.writeAll(descriptor, $0) }) {
      // Cut off what part of the group reached the file, so the file ends with a whole order.
      _ = ftruncate(descriptor, off_t(tail.completeEnd))
      throw FileError.cannotWrite(path: path, errno: failure)
    }
    if fsync(descriptor) != 0 {
      let failure = errno
      _ = ftruncate(descriptor, off_t(tail.completeEnd))
      throw FileError.cannotWrite(path: path, errno: failure)
    }
    if created {
      FileSystem.syncFolder(containing: path)
      created = false
    }
    return orders
  }

  /// Calls `body` with each saved order and its stored line, oldest first, streaming.
  /// A missing file holds no orders.
  /// - Throws: ``FileError/badData(path:line:reason:)`` at the first complete line that is
  ///   not an order, naming its line number.
  public func readOrders(_ body: (Order, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    guard let reader = try openForReading() else { return }
    defer { close(reader) }
    var lineNumber = 0
    var carry: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = try read(reader, into: &chunk)
      if count == 0 { return }  // What is left in `carry` is a torn line: never reported.
      carry.append(contentsOf: chunk[..<count])
      var start = 0
      try carry.withUnsafeBufferPointer { bytes in
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
          lineNumber += 1
          let line = UnsafeBufferPointer(rebasing: bytes[start..<newline])
          switch OrderJSON.order(from: line) {
          case .success(let order): try body(order, line)
          case .failure(let error):
            throw FileError.badData(
              path: path, line: lineNumber, reason: "not an order: \(error.reason)")
          }
          start = newline + 1
        }
      }
      carry.removeFirst(start)
    }
  }

  /// How many orders the file holds, without parsing every line: complete lines are counted,
  /// and the last one must be order 1000 + count, or the file has lost or gained lines.
  public func count() throws -> Int {
    guard let reader = try openForReading() else { return 0 }
    defer { close(reader) }
    var lines = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = try read(reader, into: &chunk)
      if count == 0 { break }
      lines += chunk.withUnsafeBytes {
        FileSystem.newlines(in: UnsafeRawBufferPointer(rebasing: $0[..<count]))
      }
    }
    let tail = try readTail(reader)
    let expected = Order.firstNumber - 1 + lines
    if let last = tail.lastNumber, last != expected {
      throw FileError.badData(
        path: path, line: lines,
        reason: "the last order is \(last) but \(lines) lines must end with \(expected)")
    }
    return lines
  }

  /// The next chunk of a sequential read; 0 at the end of the file.
  private func read(_ descriptor: Int32, into chunk: inout [UInt8]) throws -> Int {
    let result = chunk.withUnsafeMutableBytes { FileSystem.read(descriptor, into: $0) }
    switch result {
    case .success(let count): return count
    case .failure(let error): throw FileError.unreadable(path: path, errno: error.code)
    }
  }

  // MARK: - The end of the file

  private struct Tail {
    /// Where the last complete line ends (after its newline); a torn line starts there.
    let completeEnd: Int
    let fileEnd: Int
    /// The number of the order on the last complete line; nil for no complete line.
    let lastNumber: Int?
  }

  /// Reads only the last complete line, backwards from the end: constant cost in file size.
  private func readTail(_ descriptor: Int32) throws -> Tail {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw FileError.unreadable(path: path, errno: errno)
    }
    let fileEnd = Int(status.st_size)
    guard let lastNewline = try newline(before: fileEnd, in: descriptor) else {
      return Tail(completeEnd: 0, fileEnd: fileEnd, lastNumber: nil)
    }
    let lineStart = try newline(before: lastNewline, in: descriptor).map { $0 + 1 } ?? 0
    var line = [UInt8](repeating: 0, count: lastNewline - lineStart)
    let read = line.withUnsafeMutableBytes { FileSystem.read(descriptor, into: $0, at: lineStart) }
    switch read {
    case .failure(let error): throw FileError.unreadable(path: path, errno: error.code)
    case .success(let count) where count < line.count:
      throw FileError.unreadable(path: path, errno: EIO)
    case .success: break
    }
    switch line.withUnsafeBufferPointer({ OrderJSON.order(from: $0) }) {
    case .success(let order):
      return Tail(completeEnd: lastNewline + 1, fileEnd: fileEnd, lastNumber: order.number)
    case .failure(let error):
      throw FileError.badData(
        path: path, line: try lineNumber(at: lineStart, in: descriptor),
        reason: "the last order is unreadable (\(error.reason)); nothing was changed")
    }
  }

  /// The offset of the last newline before `end`, scanning backwards a block at a time.
  private func newline(before end: Int, in descriptor: Int32) throws -> Int? {
    var blockEnd = end
    var block = [UInt8](repeating: 0, count: 4096)
    while blockEnd > 0 {
      let blockStart = max(0, blockEnd - block.count)
      let length = blockEnd - blockStart
      let read = block.withUnsafeMutableBytes {
        FileSystem.read(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<length]), at: blockStart)
      }
      switch read {
      case .failure(let error): throw FileError.unreadable(path: path, errno: error.code)
      case .success(let count) where count < length:
        throw FileError.unreadable(path: path, errno: EIO)
      case .success: break
      }
      if let index = block[..<length].lastIndex(of: UInt8(ascii: "\n")) {
        return blockStart + index
      }
      blockEnd = blockStart
    }
    return nil
  }

  /// The 1-based line that starts at `offset`; reads the file up to it, so only for errors.
  private func lineNumber(at offset: Int, in descriptor: Int32) throws -> Int {
    var lines = 1
    var position = 0
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while position < offset {
      let length = min(block.count, offset - position)
      let read = block.withUnsafeMutableBytes {
        FileSystem.read(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<length]), at: position)
      }
      switch read {
      case .failure(let error): throw FileError.unreadable(path: path, errno: error.code)
      case .success(0): return lines
      case .success(let count):
        lines += block.withUnsafeBytes {
          FileSystem.newlines(in: UnsafeRawBufferPointer(rebasing: $0[..<count]))
        }
        position += count
      }
    }
    return lines
  }

  // MARK: - Opening and locking

  private func openForWriting() throws -> Int32 {
    if descriptor >= 0 { return descriptor }
    if let failure = FileSystem.makeFolders(toFile: path) { throw failure }
    var opened = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
    if opened < 0, errno == ENOENT {
      opened = open(path, O_RDWR | O_APPEND | O_CLOEXEC | O_CREAT | O_EXCL, 0o644)
      if opened >= 0 {
        created = true
      } else if errno == EEXIST {  // Another process created it first.
        opened = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
      }
    }
    guard opened >= 0 else { throw FileError.cannotCreate(path: path, errno: errno) }
    descriptor = opened
    return opened
  }

  private func openForReading() throws -> Int32? {
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    if reader >= 0 { return reader }
    if errno == ENOENT { return nil }
    throw FileError.unreadable(path: path, errno: errno)
  }

  /// Waits for the lock: a busy store is a reason to wait, never to fail.
  private func lock(_ descriptor: Int32) throws {
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR { throw FileError.cannotWrite(path: path, errno: errno) }
    }
  }
}
