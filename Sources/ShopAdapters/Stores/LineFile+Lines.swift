/// Reading a line file forward, line by line, up to an end that is the start of a line or
/// the end of a last line that only lacks its newline (`unterminated`).
extension LineFile {
  /// Calls `body` with each line from `start` to `end`, its offset and its number (when
  /// known), reading through a bounded buffer; `body` returns false to stop. A line longer
  /// than the bound is refused at its number once the lines before it went.
  func lines(
    from start: Int, to end: Int, unterminated: Bool, firstLine: Int?,
    _ body: (Int, Int?, UnsafeBufferPointer<UInt8>) throws -> Bool
  ) throws {
    var buffer = [UInt8](repeating: 0, count: LineFile.chunkBytes)
    var filled = 0  // Bytes in `buffer`, from the file at `bufferOffset`.
    var bufferOffset = start
    var lineNumber = firstLine
    while bufferOffset + filled < end {
      if filled == buffer.count {
        guard buffer.count <= lineBound else {
          throw FileError.badData(
            path, line: try lineNumber ?? self.lineNumber(at: bufferOffset), reason: tooLong)
        }
        let grown = min(buffer.count * 2, lineBound + 1)
        buffer.append(contentsOf: [UInt8](repeating: 0, count: grown - buffer.count))
      }
      let length = min(buffer.count - filled, end - bufferOffset - filled)
      try read(into: &buffer, at: bufferOffset + filled, range: filled..<(filled + length))
      filled += length
      // The last line ends at the end when it only lacks its newline.
      let atEnd = bufferOffset + filled == end && unterminated
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

  /// The line that starts at `offset`, and the offset after its newline (or `end`, for a
  /// last line without one).
  func line(at offset: Int, end: Int, unterminated: Bool) throws(FileError) -> ([UInt8], Int) {
    let limit = min(end, offset + lineBound + 1)
    let newline = try newline(after: offset - 1, before: limit)
    let lineEnd: Int
    if let newline {
      lineEnd = newline
    } else if unterminated && limit == end {
      lineEnd = end
    } else if limit < end {
      throw .badData(path, line: try lineNumber(at: offset), reason: tooLong)
    } else {
      throw .unreadable(path, .shortRead)
    }
    var bytes = [UInt8](repeating: 0, count: lineEnd - offset)
    try read(into: &bytes, at: offset)
    return (bytes, min(lineEnd + 1, end))
  }
}
