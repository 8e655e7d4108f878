import ShopConventions
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

  /// Matches `chunks` against the line the encoder writes for record `number`, by
  /// ``OrderLayout``: an order's layout, or with `void` a void's. It reads them one chunk at a
  /// time and never goes back, so a tail of any length costs bounded memory, and a foreign
  /// one is told at its first byte that differs.
  static func lineStart<Chunks: IteratorProtocol<[UInt8]>>(
    of chunks: inout Chunks, number: Int, void: Bool = false
  ) -> LineStart {
    var match = PrefixMatch(chunks: chunks)
    defer { chunks = match.chunks }
    do {
      try match.byte(OrderLayout.objectStart)
      var digits: [UInt8] = []
      ByteWriter.appendDecimal(number, to: &digits)
      var tally = TornTally()
      tally.number = number
      try match.members(void ? .void : .order, number: digits[...], tally: &tally)
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

  mutating func literal(_ expected: ArraySlice<UInt8>) throws(Stop) {
    for byte in expected { try self.byte(byte) }
  }

  mutating func byte(_ expected: UInt8) throws(Stop) {
    guard try next() == expected else { throw .mismatch }
    index += 1
  }

  /// The bytes of a run of `length` bytes that are all `allowed`.
  mutating func run(_ length: ClosedRange<Int>, where allowed: (UInt8) -> Bool) throws(Stop)
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    while bytes.count < length.upperBound, try allowed(next()) {
      bytes.append(try next())
      index += 1
    }
    guard bytes.count >= length.lowerBound else { throw .mismatch }
    return bytes
  }
}

/// An object's members as the matcher needs them, worked out once: each key's text (with the
/// comma before it), and for an optional member how many bytes it shares with the next one's.
struct MemberKeys {
  let fields: [OrderLayout.Field]
  let texts: [[UInt8]]
  let shared: [Int]

  init(_ fields: [OrderLayout.Field]) {
    let texts = fields.indices.map { OrderLayout.keyText(fields[$0], first: $0 == 0) }
    self.fields = fields
    self.texts = texts
    shared = fields.indices.map { index in
      guard fields[index].isOptional, index + 1 < fields.count else { return 0 }
      return zip(texts[index], texts[index + 1]).prefix { $0 == $1 }.count
    }
  }

  static let order = MemberKeys(OrderLayout.order)
  static let void = MemberKeys(OrderLayout.void)
  static let item = MemberKeys(OrderLayout.item)
}

/// What the matcher knows of the order so far, so that a value the encoder would have worked
/// out (the total from the items, what is payable from the total) must be that value.
struct TornTally {
  /// The sum of price × quantity of the items matched; nil once it no longer fits in `Int`,
  /// where the encoder never writes the order at all.
  var sum: Int? = 0
  var quantity = 0
  var total = 0
  /// The record's own number: a void names an order before it.
  var number = Order.firstNumber
  /// The SKUs of the items matched whole: the encoder writes each once.
  var skus: Set<[UInt8]> = []

  mutating func addItem(price: Int) {
    let (amount, productOverflow) = price.multipliedReportingOverflow(by: quantity)
    guard let before = sum, !productOverflow else {
      sum = nil
      return
    }
    let (after, sumOverflow) = before.addingReportingOverflow(amount)
    sum = sumOverflow ? nil : after
  }
}

extension PrefixMatch {
  /// An object's members in `keys`' order and its closing brace, its `{` already matched;
  /// the order's `number` (its digits) is the only value told in advance, and every other
  /// value must be one the encoder writes: integers without a leading zero, a quantity the
  /// cart holds, each SKU once, the total of the items and its payable, a time that exists.
  mutating func members(_ keys: MemberKeys, number: ArraySlice<UInt8>, tally: inout TornTally)
    throws(Stop)
  {
    // Bytes of the next member's comma and key already matched, while telling whether an
    // optional member was there.
    var matched = 0
    for index in keys.fields.indices {
      let field = keys.fields[index]
      let text = keys.texts[index]
      if field.isOptional, index + 1 < keys.fields.count {
        // This member and the next start alike (`,"`); the matcher never goes back, so the
        // first byte where they differ tells which one is here.
        let common = keys.shared[index]
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
      switch (field, field.value) {
      case (.number, _):
        try literal(number)
      case (.voids, _):
        guard tally.number > Order.firstNumber else { throw .mismatch }
        _ = try integer(in: Order.firstNumber...(tally.number - 1))
      case (.quantity, _):
        tally.quantity = try integer(in: 1...Cart.maximumQuantity)
      case (.price, _):
        tally.addItem(price: try integer(in: 0...Int.max))
        // Items whose sum passes `Int` make an order the encoder never writes.
        guard tally.sum != nil else { throw .mismatch }
      case (.total, _):
        guard let sum = tally.sum else { throw .mismatch }  // Told at the price already.
        tally.total = sum
        try literal(decimal(sum))
      case (.payable, _):
        try literal(decimal(Order.payable(total: tally.total)))
      case (.placedAt, _):
        try byte(OrderLayout.quote)
        var time: [UInt8] = []
        while time.count < UTCTime.length {
          time.append(try next())
          guard UTCTime.couldStart(time) else { throw .mismatch }
          self.index += 1
        }
        try byte(OrderLayout.quote)
      case (_, .items):
        try byte(OrderLayout.listStart)
        repeat {
          try byte(OrderLayout.objectStart)
          try members(.item, number: number, tally: &tally)
        } while try skip(OrderLayout.separator)
        try byte(OrderLayout.listEnd)
      case (_, let value):
        // A ref or a SKU: every other field has its case above.
        guard let word = value.wordRun else { throw .mismatch }
        try byte(OrderLayout.quote)
        let bytes = try run(word.length, where: word.allowed)
        try byte(OrderLayout.quote)
        // A SKU given twice is one item in a cart: a second item of it is no encoder's.
        if field == .sku, !tally.skus.insert(bytes).inserted { throw .mismatch }
      }
    }
    try byte(OrderLayout.objectEnd)
  }

  /// Decimal digits as the encoder writes an integer of `range`: no sign, no leading zero,
  /// each digit checked as it comes, so a value past the range is told at its digit.
  mutating func integer(in range: ClosedRange<Int>) throws(Stop) -> Int {
    var value = 0
    var digits = 0
    while OrderLayout.isDigit(try next()) {
      let digit = try next()
      // A leading zero only as the whole of a 0.
      guard digits == 0 || value != 0 else { throw .mismatch }
      let (times, timesOverflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, sumOverflow) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
      guard !timesOverflow, !sumOverflow, sum <= range.upperBound else { throw .mismatch }
      // Below the range, and too large to stay in it with one more digit: no value of it.
      guard sum >= range.lowerBound || sum <= range.upperBound / 10 else { throw .mismatch }
      // A quantity's first digit can't be 0: no more digits would make it one.
      guard digits > 0 || sum > 0 || range.lowerBound == 0 else { throw .mismatch }
      value = sum
      digits += 1
      index += 1
    }
    guard digits > 0, range.contains(value) else { throw .mismatch }
    return value
  }

  private func decimal(_ value: Int) -> ArraySlice<UInt8> {
    var digits: [UInt8] = []
    ByteWriter.appendDecimal(value, to: &digits)
    return digits[...]
  }

  /// Consumes `byte` when it comes next.
  mutating func skip(_ expected: UInt8) throws(Stop) -> Bool {
    guard try next() == expected else { return false }
    try byte(expected)
    return true
  }
}
