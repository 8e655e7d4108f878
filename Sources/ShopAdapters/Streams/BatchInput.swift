import Glibc
import ShopCore

/// Batch input, one order a line in `shop place`'s syntax, read in groups as it arrives.
///
/// A group is what one read gave, plus whatever more is already waiting, up to
/// ``groupBytes``: a file is read in large groups (few `fsync`s), while a slow pipe yields
/// each line as soon as it comes, so its report is not held back until the end of input.
/// Memory stays bounded by the group size whatever the input's length.
public final class BatchInput {
  public static let groupBytes = 1 << 20
  /// A longer line is reported as malformed and skipped, so one endless line can't fill memory.
  public static let maximumLineBytes = 1 << 20

  private let descriptor: Int32
  private let name: String
  private let ownsDescriptor: Bool
  private var buffer: [UInt8]
  /// Bytes of an unfinished line, at the front of `buffer`.
  private var carried = 0
  private var lineNumber = 0
  /// The current line passed ``maximumLineBytes``: its rest is dropped up to the newline.
  private var skippingLongLine = false
  private var atEnd = false

  /// Reads an already open descriptor, such as standard input; `name` is for error messages.
  public init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.name = name
    self.ownsDescriptor = false
    self.buffer = [UInt8](repeating: 0, count: BatchInput.groupBytes + BatchInput.maximumLineBytes)
  }

  /// Opens the file at `path`.
  /// - Throws: ``FileError/unreadable(path:errno:)`` when it can't be opened.
  public init(path: String) throws(FileError) {
    let opened = open(path, O_RDONLY | O_CLOEXEC)
    guard opened >= 0 else { throw .unreadable(path: path, errno: errno) }
    self.descriptor = opened
    self.name = path
    self.ownsDescriptor = true
    self.buffer = [UInt8](repeating: 0, count: BatchInput.groupBytes + BatchInput.maximumLineBytes)
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
  }

  /// The next group of requests in input order, or nil at the end of input. Blank lines and
  /// `#` comments are skipped but counted, so line numbers match the input.
  public func nextGroup() throws(FileError) -> [Request]? {
    while !atEnd {
      let filled = try fill()
      let requests = split(upTo: filled)
      if !requests.isEmpty { return requests }
    }
    return nil
  }

  /// Reads at least once (blocking), then whatever more is ready; returns the end of the data.
  private func fill() throws(FileError) -> Int {
    var end = carried
    let limit = carried + BatchInput.groupBytes
    repeat {
      let result = buffer.withUnsafeMutableBytes {
        FileSystem.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[end..<limit]))
      }
      switch result {
      case .failure(let error):
        throw .unreadable(path: name, errno: error.code)
      case .success(0):
        atEnd = true
        return end
      case .success(let count):
        end += count
      }
    } while end < limit && moreIsWaiting()
    return end
  }

  private func moreIsWaiting() -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&request, 1, 0) > 0 && request.revents & Int16(POLLIN) != 0
  }

  /// Parses the complete lines of `buffer[..<end]` (and, at the end of input, the last line
  /// without a newline); moves an unfinished line to the front for the next read.
  private func split(upTo end: Int) -> [Request] {
    var requests: [Request] = []
    var start = 0
    buffer.withUnsafeBufferPointer { bytes in
      while start < end {
        guard let newline = bytes[start..<end].firstIndex(of: UInt8(ascii: "\n")) else { break }
        finishLine(UnsafeBufferPointer(rebasing: bytes[start..<newline]), into: &requests)
        start = newline + 1
      }
      if atEnd, start < end {
        finishLine(UnsafeBufferPointer(rebasing: bytes[start..<end]), into: &requests)
        start = end
      }
    }
    carried = end - start
    if carried > BatchInput.maximumLineBytes {
      if !skippingLongLine {
        lineNumber += 1
        requests.append(
          Request(
            line: lineNumber, cart: .failure(.lineTooLong(limit: BatchInput.maximumLineBytes))))
        skippingLongLine = true
      }
      carried = 0
    } else if carried > 0, start > 0 {
      buffer.withUnsafeMutableBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        memmove(base, base + start, carried)
      }
    }
    return requests
  }

  private func finishLine(_ line: UnsafeBufferPointer<UInt8>, into requests: inout [Request]) {
    if skippingLongLine {
      skippingLongLine = false  // The end of the line already reported as too long.
      return
    }
    lineNumber += 1
    var end = line.count
    if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }  // Files saved on Windows.
    var start = 0
    while start < end, CartSyntax.isBlank(line[start]) { start += 1 }
    if start == end || line[start] == UInt8(ascii: "#") { return }
    let text = UnsafeBufferPointer(rebasing: line[start..<end])
    requests.append(Request(line: lineNumber, cart: CartSyntax.cart(line: text)))
  }
}
