import ShopConventions
import ShopCore

/// Batch input, one order a line in `shop place`'s syntax, read in groups as it arrives.
///
/// A group is what one read gave, plus whatever more is already waiting, up to
/// ``groupBytes`` of input and ``groupLines`` requests: a file is read in large groups (few
/// syncs), while a slow pipe yields each line as soon as it comes, so its report is not held
/// back until the end of input. Memory stays bounded by the group whatever the input's length,
/// for short lines as for long ones.
public final class BatchInput: RequestSource {
  public static let groupBytes = 1 << 20
  /// A group's requests, and so its orders, encoded lines and reports, stay in memory until
  /// it is saved: this bounds them when lines are short (a million `pen=1` lines).
  public static let groupLines = 16_384
  /// A longer line is reported as malformed and skipped, so one endless line can't fill memory.
  public static let maximumLineBytes = 1 << 20

  private let descriptor: any ByteSource
  /// ``groupLines`` and ``groupBytes``, but where a test reaches a group's edges with fewer
  /// lines.
  private let groupLines: Int
  private let groupBytes: Int
  /// What the input is called in messages: its path, or a name such as "standard input".
  private let name: FilePath
  /// Where input is read to. Only `buffer[start..<end]`, which reads filled, is ever looked
  /// at, so it is not zeroed first: a short batch touches a page of it, not all 2 MiB.
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  /// Unparsed input: `buffer[start..<end]`.
  private var start = 0
  private var end = 0
  private var lineNumber = 0
  /// The current line passed ``maximumLineBytes``: its rest is dropped up to the newline.
  private var skippingLongLine = false
  private var atEnd = false

  /// True when the input is a regular file: the next group may be read while the last is
  /// stored, since no writer waits for the last one's reports before it writes more.
  public var readsAhead: Bool { descriptor.neverWaits }

  /// Reads an already open stream, such as standard input; `name` is for error messages.
  public init(
    descriptor: any ByteSource, name: String, groupLines: Int = BatchInput.groupLines,
    groupBytes: Int = BatchInput.groupBytes
  ) {
    self.descriptor = descriptor
    self.groupLines = max(1, groupLines)
    self.groupBytes = max(1, groupBytes)
    self.name = FilePath(name)
    self.buffer = BatchInput.makeBuffer(groupBytes: self.groupBytes)
  }

  /// Opens the file at `path`. A FIFO is fine here (`shop batch <(…)`): it is read as a pipe.
  public init(path: FilePath) throws(FileError) {
    self.groupLines = BatchInput.groupLines
    self.groupBytes = BatchInput.groupBytes
    do {
      self.descriptor = try Descriptor.open(path, .readStream)
    } catch {
      throw .unreadable(path, error)
    }
    self.name = path
    self.buffer = BatchInput.makeBuffer(groupBytes: BatchInput.groupBytes)
  }

  private static func makeBuffer(groupBytes: Int) -> UnsafeMutableBufferPointer<UInt8> {
    .allocate(capacity: groupBytes + maximumLineBytes)
  }

  deinit { buffer.deallocate() }

  /// The next group of requests in input order, or nil at the end of input. Blank lines and
  /// `#` comments are skipped but counted, so line numbers match the input.
  public func nextGroup() throws(FileError) -> [Request]? {
    var requests: [Request] = []
    let more = try nextGroup { line, number in
      guard let line else {
        requests.append(BatchInput.tooLong(number))
        return
      }
      requests.append(CartSyntax.request(line: line, number: number))
    }
    return more ? requests : nil
  }

  /// Visits the next group's lines in input order, each with its number: its text (blanks
  /// and a CR around it trimmed, valid only during the call), or nil when it was longer than
  /// ``maximumLineBytes``. Blank lines and `#` comments are skipped but counted. False at the
  /// end of input, when no line was visited.
  public func nextGroup(
    _ visit: (_ line: UnsafeBufferPointer<UInt8>?, _ number: Int) -> Void
  ) throws(FileError) -> Bool {
    while true {
      if !hasCompleteLine() && !atEnd { try fill() }
      if split(visit) > 0 { return true }
      if atEnd && start == end { return false }
    }
  }

  private func hasCompleteLine() -> Bool {
    System.firstIndex(
      of: UInt8(ascii: "\n"),
      in: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<end]))) != nil
  }

  /// Moves unparsed input to the front, reads at least once (blocking), then whatever more is
  /// ready, up to a group's worth of bytes.
  private func fill() throws(FileError) {
    if start > 0 {
      if let base = buffer.baseAddress {
        UnsafeMutableRawPointer(base).copyMemory(from: base + start, byteCount: end - start)
      }
      end -= start
      start = 0
    }
    let limit = min(buffer.count, end + groupBytes)
    repeat {
      let count: Int
      do {
        count = try descriptor.read(
          into: UnsafeMutableRawBufferPointer(
            UnsafeMutableBufferPointer(rebasing: buffer[end..<limit])))
      } catch {
        throw .unreadable(name, error)
      }
      if count == 0 {
        atEnd = true
        return
      }
      end += count
    } while end < limit && descriptor.hasInputWaiting()
  }

  /// Visits complete lines (and, at the end of input, a last line without its newline) up to
  /// a group's worth; an unfinished line longer than the limit is visited as too long and
  /// dropped. How many lines were visited.
  private func split(_ visit: (UnsafeBufferPointer<UInt8>?, Int) -> Void) -> Int {
    var visited = 0
    var consumed = 0
    let bytes = UnsafeBufferPointer(buffer)
    while start < end, visited < groupLines, consumed < groupBytes {
      let rest = UnsafeBufferPointer(rebasing: bytes[start..<end])
      guard
        let newline = System.firstIndex(of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rest))
      else {
        if atEnd {
          finishLine(rest, &visited, visit)
          consumed += rest.count
          start = end
        }
        break
      }
      finishLine(UnsafeBufferPointer(rebasing: rest[..<newline]), &visited, visit)
      start += newline + 1
      consumed += newline + 1
    }
    if end - start > BatchInput.maximumLineBytes, !hasCompleteLine() {
      // No newline within the limit: report the line once, drop what came of it so far.
      if !skippingLongLine {
        lineNumber += 1
        visit(nil, lineNumber)
        visited += 1
        skippingLongLine = true
      }
      start = end
    }
    return visited
  }

  private static func tooLong(_ number: Int) -> Request {
    Request(line: number, cart: .failure(.lineTooLong(limit: BatchInput.maximumLineBytes)))
  }

  private func finishLine(
    _ line: UnsafeBufferPointer<UInt8>, _ visited: inout Int,
    _ visit: (UnsafeBufferPointer<UInt8>?, Int) -> Void
  ) {
    if skippingLongLine {
      skippingLongLine = false  // The end of the line already reported as too long.
      return
    }
    lineNumber += 1
    guard line.count <= BatchInput.maximumLineBytes else {
      visit(nil, lineNumber)
      visited += 1
      return
    }
    var end = line.count
    if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }  // Files saved on Windows.
    var start = 0
    while start < end, CartSyntax.isBlank(line[start]) { start += 1 }
    if start == end || line[start] == UInt8(ascii: "#") { return }
    visit(UnsafeBufferPointer(rebasing: line[start..<end]), lineNumber)
    visited += 1
  }
}
