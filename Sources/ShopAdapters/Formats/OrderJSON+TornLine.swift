import ShopCore

extension OrderJSON {
  /// What the bytes after a file's last newline are, against the line the encoder writes for
  /// the next order.
  enum LineStart: Equatable {
    /// A proper start of that line: a write that never finished, and was never reported.
    case prefix
    /// All of that line but its newline: a whole order, which may have been reported.
    case wholeLine
    /// Anything else: bytes `shop` did not write there.
    case other
  }

  /// Matches `chunks` against the line the encoder writes for order `number`, by
  /// ``OrderLayout``, reading them one chunk at a time and never going back, so a tail of any
  /// length costs bounded memory, and a foreign one is told at its first byte that differs.
  static func lineStart<Chunks: IteratorProtocol<[UInt8]>>(
    of chunks: inout Chunks, number: Int
  ) -> LineStart {
    var match = PrefixMatch(chunks: chunks)
    defer { chunks = match.chunks }
    do {
      try match.literal([OrderLayout.objectStart])
      try match.members(OrderLayout.order, number: number)
      // The whole line but its newline; anything after it is not a line `shop` wrote.
      return match.isAtEnd() ? .wholeLine : .other
    } catch .ended {
      return .prefix
    } catch {
      return .other
    }
  }
}

/// Matches bytes against the encoder's grammar, one piece at a time and only forwards, pulling
/// chunks as it goes; running out of bytes partway means they were a prefix.
struct PrefixMatch<Chunks: IteratorProtocol<[UInt8]>> {
  enum Stop: Error {
    case ended, mismatch
  }

  var chunks: Chunks
  private var chunk: [UInt8] = []
  private var index = 0

  init(chunks: Chunks) {
    self.chunks = chunks
  }

  mutating func next() throws(Stop) -> UInt8 {
    while index == chunk.count {
      guard let more = chunks.next() else { throw .ended }
      chunk = more
      index = 0
    }
    return chunk[index]
  }

  mutating func isAtEnd() -> Bool {
    do {
      _ = try next()
      return false
    } catch {
      return true
    }
  }

  mutating func literal(_ expected: some Collection<UInt8>) throws(Stop) {
    for byte in expected {
      guard try next() == byte else { throw .mismatch }
      index += 1
    }
  }

  mutating func run(_ length: ClosedRange<Int>, where allowed: (UInt8) -> Bool) throws(Stop) {
    var count = 0
    while count < length.upperBound, try allowed(next()) {
      index += 1
      count += 1
    }
    guard count >= length.lowerBound else { throw .mismatch }
  }
}

extension PrefixMatch {
  /// An object's members in `fields`' order and its closing brace, its `{` already matched;
  /// `number` is the only value told in advance.
  mutating func members(_ fields: [OrderLayout.Field], number: Int) throws(Stop) {
    // Bytes of the next member's comma and key already matched, while telling whether an
    // optional member was there.
    var matched = 0
    for (index, field) in fields.enumerated() {
      let text = OrderLayout.keyText(field, first: index == 0)
      if field.isOptional, index + 1 < fields.count {
        // This member and the next start alike (`,"`); the matcher never goes back, so the
        // first byte where they differ tells which one is here.
        let next = OrderLayout.keyText(fields[index + 1], first: false)
        let common = zip(text, next).prefix { $0 == $1 }.count
        try literal(text[matched..<common])
        guard try self.next() == text[common] else {
          matched = common
          continue
        }
        try literal(text[common...])
      } else {
        try literal(text[matched...])
      }
      matched = 0
      switch field.value {
      case .integer where field == .number:
        var digits: [UInt8] = []
        ByteWriter.appendDecimal(number, to: &digits)
        try literal(digits)
      case .items:
        try literal([OrderLayout.listStart])
        repeat {
          try literal([OrderLayout.objectStart])
          try members(OrderLayout.item, number: number)
        } while try skip(OrderLayout.separator)
        try literal([OrderLayout.listEnd])
      case let value:
        if value.isQuoted { try literal([OrderLayout.quote]) }
        try run(value.run.length, where: value.run.allowed)
        if value.isQuoted { try literal([OrderLayout.quote]) }
      }
    }
    try literal([OrderLayout.objectEnd])
  }

  /// Consumes `byte` when it comes next.
  mutating func skip(_ byte: UInt8) throws(Stop) -> Bool {
    guard try next() == byte else { return false }
    try literal([byte])
    return true
  }
}
