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
    var lineNumber = firstLine
    try spans(from: start, to: end, unterminated: unterminated) { offset, bytes in
      var consumed = 0
      while consumed < bytes.count {
        let rest = UnsafeBufferPointer(rebasing: bytes[consumed...])
        // A span's last line lacks its newline only at an unterminated end.
        let length =
          System.firstIndex(of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rest)) ?? rest.count
        let line = UnsafeBufferPointer(rebasing: rest[..<length])
        guard try body(offset + consumed, lineNumber, line) else { return false }
        lineNumber = lineNumber.map { $0 + 1 }
        consumed += length + 1
      }
      return true
    } tooLong: { _ in
      lineNumber
    }
  }

  /// Calls `body` with the lines from `start` to `end` a buffer at a time: each span is
  /// whole lines, each with its newline, but for a last line that only lacks it at an
  /// `unterminated` end; with the offset of its first. `body` returns false to stop. A line
  /// longer than the bound is refused at its number (from `tooLong`, given its offset, or
  /// counted) once the spans before it went: a search over whole spans (voids) costs one
  /// pass of `memchr` a span, not a call per line.
  func spans(
    from start: Int, to end: Int, unterminated: Bool,
    _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Bool,
    tooLong lineNumber: (Int) -> Int? = { _ in nil }
  ) throws {
    var buffer = [UInt8](repeating: 0, count: LineFile.chunkBytes)
    var filled = 0  // Bytes in `buffer`, from the file at `bufferOffset`.
    var bufferOffset = start
    while bufferOffset + filled < end {
      if filled == buffer.count {
        guard buffer.count <= lineBound else {
          throw FileError.badData(
            path, line: try lineNumber(bufferOffset) ?? self.lineNumber(at: bufferOffset),
            reason: tooLong)
        }
        let grown = min(buffer.count * 2, lineBound + 1)
        buffer.append(contentsOf: [UInt8](repeating: 0, count: grown - buffer.count))
      }
      let length = min(buffer.count - filled, end - bufferOffset - filled)
      try read(into: &buffer, at: bufferOffset + filled, range: filled..<(filled + length))
      filled += length
      // The last line ends at the end when it only lacks its newline.
      let atEnd = bufferOffset + filled == end && unterminated
      let consumed = try buffer.withUnsafeBufferPointer { bytes -> Int? in
        let read = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<filled])
        // The last newline is near the end: found backwards.
        let whole =
          atEnd ? filled : (System.lastIndex(of: UInt8(ascii: "\n"), in: read).map { $0 + 1 } ?? 0)
        guard whole > 0 else { return 0 }
        return try body(bufferOffset, UnsafeBufferPointer(rebasing: bytes[..<whole])) ? whole : nil
      }
      guard let consumed else { return }
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
