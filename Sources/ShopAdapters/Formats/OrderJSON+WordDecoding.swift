import ShopConventions
import ShopCore

/// The fast path of reading a stored line laid out exactly as ``OrderLayout`` says (issue 35),
/// fenced here: the line is read through its base address a word (8 bytes) at a time, where
/// ``JSONParser/laidOutOrder(startingWith:)`` reads it a byte at a time through checked
/// calls. Fixed text is compared with constants, an integer's digits are found and summed in
/// one word, a SKU's or ref's bytes are classified eight at once, and a time the line before
/// had is not read again. It takes only what it reads whole; anything else (a difference
/// anywhere, a minus sign, a leading zero, more than 18 digits, more than ``maximumItems``
/// items) is ``Read/undecided``, for that reader to decide: so no line is refused here that
/// it would take, nor read otherwise. `WordDecodingTests` holds the two equal on random,
/// damaged and odd lines.
enum LaidOutWords {
  /// What the words of a line say.
  enum Read<Items: LaidOutItems> {
    /// Every member read, every item kept; `distinct`: no two items name one SKU (compared
    /// exactly, byte for byte).
    case taken(LaidOutOrder<Items>, distinct: Bool)
    /// Every member read, and an item refused by `Items` (a sum past `Int`): the plain reader,
    /// which keeps the same items in the same order, refuses it there too.
    case refused
    /// Not read whole here: the plain reader decides, from the line's start.
    case undecided
  }

  /// The time of the line read last, as its 20 bytes (three words, the last two overlapping)
  /// and what ``UTCTime/parse(_:)`` made of them: the lines of a batch share one.
  struct LastTime {
    fileprivate var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    fileprivate var time: Timestamp?
  }

  /// More items than this are left to the plain reader: they are kept here until the whole
  /// line is read, so that a line left undecided has kept none.
  static let maximumItems = 8

  /// Where an item's members are in the line.
  private struct Item {
    var sku: Int
    var skuCount: Int
    var quantity: Int
    var price: Int
  }

  /// The line's members, read as ``JSONParser/laidOutOrder(startingWith:)`` reads them, the
  /// items handed to `empty` in their order once all of the line is read.
  @inline(__always)
  static func read<Items: LaidOutItems>(
    _ line: UnsafeBufferPointer<UInt8>, startingWith empty: Items, times: inout LastTime
  ) -> Read<Items> {
    guard let base = line.baseAddress, line.count >= 16 else { return .undecided }
    let end = line.count
    // {"number":
    guard word(base, 0) == 0x7265_626d_756e_227b, word(base, 2) == 0x3a22_7265_626d_756e,
      let (number, afterNumber) = integer(base, 10, end)
    else { return .undecided }
    var at = afterNumber
    var reference: UnsafeBufferPointer<UInt8>?
    // ,"ref":"
    if at + 8 <= end, word(base, at) == 0x223a_2266_6572_222c {
      guard let count = run(base, at + 8, end, allowed: referenceBytes) else { return .undecided }
      reference = UnsafeBufferPointer(start: base + at + 8, count: count)
      at += 8 + count + 1
    }
    // ,"items":[{"sku":"
    guard at + 18 <= end, word(base, at) == 0x2273_6d65_7469_222c,
      word(base, at + 8) == 0x2275_6b73_227b_5b3a, word(base, at + 10) == 0x223a_2275_6b73_227b
    else { return .undecided }
    at += 18
    return withUnsafeTemporaryAllocation(of: Item.self, capacity: maximumItems) { items in
      var count = 0
      while true {
        guard count < maximumItems, let skuCount = run(base, at, end, allowed: skuBytes) else {
          return .undecided
        }
        let sku = at
        at += skuCount
        // ","quantity":
        guard at + 13 <= end, word(base, at) == 0x746e_6175_7122_2c22,
          word(base, at + 5) == 0x3a22_7974_6974_6e61,
          let (quantity, afterQuantity) = integer(base, at + 13, end),
          quantity >= 1, quantity <= Cart.maximumQuantity
        else { return .undecided }
        at = afterQuantity
        // ,"price":
        guard at + 9 <= end, word(base, at) == 0x2265_6369_7270_222c,
          word(base, at + 1) == 0x3a22_6563_6972_7022,
          let (price, afterPrice) = integer(base, at + 9, end)
        else { return .undecided }
        at = afterPrice
        items.initializeElement(
          at: count, to: Item(sku: sku, skuCount: skuCount, quantity: quantity, price: price))
        count += 1
        guard at + 11 <= end else { return .undecided }
        let next = word(base, at)
        // },{"sku":"
        if next == 0x2275_6b73_227b_2c7d, word(base, at + 2) == 0x223a_2275_6b73_227b {
          at += 10
          continue
        }
        // }],"total":
        guard next == 0x6174_6f74_222c_5d7d, word(base, at + 3) == 0x3a22_6c61_746f_7422 else {
          return .undecided
        }
        at += 11
        break
      }
      // ,"payable":
      guard let (total, afterTotal) = integer(base, at, end), afterTotal + 11 <= end,
        word(base, afterTotal) == 0x6c62_6179_6170_222c,
        word(base, afterTotal + 3) == 0x3a22_656c_6261_7961,
        let (payable, afterPayable) = integer(base, afterTotal + 11, end),
        // ,"placedAt":"  then the time, a quote, the brace, and the end of the line.
        afterPayable + 13 + 22 == end, word(base, afterPayable) == 0x6465_6361_6c70_222c,
        word(base, afterPayable + 5) == 0x223a_2274_4164_6563,
        base[end - 2] == OrderLayout.quote, base[end - 1] == OrderLayout.objectEnd,
        let placedAt = time(base + afterPayable + 13, &times)
      else { return .undecided }
      // All read: the items, in their order, as the plain reader keeps them.
      var kept = empty
      for index in 0..<count {
        let item = items[index]
        guard
          kept.appendCompared(
            sku: UnsafeBufferPointer(start: base + item.sku, count: item.skuCount),
            quantity: item.quantity, price: item.price)
        else { return .refused }
      }
      var distinct = true
      for later in 1..<max(count, 1) {
        for earlier in 0..<later
        where items[earlier].skuCount == items[later].skuCount
          && same(base, items[earlier].sku, items[later].sku, count: items[later].skuCount)
        {
          distinct = false
        }
      }
      return .taken(
        LaidOutOrder(
          number: number, reference: reference, items: kept, total: total, payable: payable,
          placedAt: placedAt), distinct: distinct)
    }
  }

  /// Whether the `count` bytes at `one` and at `other` are the same, compared a word at a
  /// time: each is a SKU of the line read, which at least 8 more bytes follow.
  @inline(__always)
  static func same(_ base: UnsafePointer<UInt8>, _ one: Int, _ other: Int, count: Int) -> Bool {
    var offset = 0
    while count - offset > 8 {
      guard word(base, one + offset) == word(base, other + offset) else { return false }
      offset += 8
    }
    let mask: UInt64 = ~0 &>> UInt64((8 - (count - offset)) * 8)
    return (word(base, one + offset) ^ word(base, other + offset)) & mask == 0
  }

  /// The 8 bytes at `offset`, the first in the lowest bits.
  @inline(__always)
  static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte of `word` from `low` to `high` (both ASCII), no other bit. The
  /// bytes' high bits are cleared before adding, so no sum carries into the next byte.
  @inline(__always)
  static func bytes(of word: UInt64, from low: UInt8, to high: UInt8) -> UInt64 {
    let seven = word & ~highs
    let atLeastLow = seven &+ ones &* UInt64(0x80 &- low)
    let aboveHigh = seven &+ ones &* UInt64(0x7F &- high)
    return atLeastLow & ~aboveHigh & ~word & highs
  }

  /// The bytes of a word that ``ShopCore/SKU/isAllowed(_:)`` allows.
  @inline(__always)
  static func skuBytes(_ word: UInt64) -> UInt64 {
    bytes(of: word, from: 0x2D, to: 0x2E) | bytes(of: word, from: 0x30, to: 0x39)
      | bytes(of: word, from: 0x41, to: 0x5A) | bytes(of: word, from: 0x5F, to: 0x5F)
      | bytes(of: word, from: 0x61, to: 0x7A)
  }

  /// The bytes of a word that ``ShopCore/Reference/isAllowed(_:)`` allows: a SKU's, `/`, `:`.
  @inline(__always)
  static func referenceBytes(_ word: UInt64) -> UInt64 {
    bytes(of: word, from: 0x2D, to: 0x3A) | bytes(of: word, from: 0x41, to: 0x5A)
      | bytes(of: word, from: 0x5F, to: 0x5F) | bytes(of: word, from: 0x61, to: 0x7A)
  }

  /// The digits of a word.
  @inline(__always)
  static func digits(_ word: UInt64) -> UInt64 {
    bytes(of: word, from: 0x30, to: 0x39)
  }

  /// The length of the run of 1 to 64 `allowed` bytes at `start` that a quote ends, as
  /// ``JSONParser``'s quoted run reads a SKU or a ref; nil for any other.
  @inline(__always)
  static func run(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, allowed: (UInt64) -> UInt64
  ) -> Int? {
    var at = start
    while at - start <= 64, at + 8 <= end {
      let others = ~allowed(word(base, at)) & highs
      if others != 0 {
        let stop = at + others.trailingZeroBitCount >> 3
        let count = stop - start
        guard count >= 1, count <= 64, base[stop] == OrderLayout.quote else { return nil }
        return count
      }
      at += 8
    }
    return nil
  }

  /// The integer of 1 to 18 digits at `start`, with no leading zero unless it is `0`, and
  /// where it ends; nil for any other (a minus, a leading zero, more digits), which the plain
  /// reader then takes or refuses.
  @inline(__always)
  static func integer(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int)? {
    guard start + 8 <= end else { return nil }
    let first = word(base, start)
    let count = (~digits(first) & highs).trailingZeroBitCount >> 3
    guard count > 0, count == 1 || first & 0xFF != 0x30 else { return nil }
    guard count == 8 else {
      // The digits moved to the top of the word, zeros (as digits) below them: a byte past
      // the digits that borrows when `0` is taken away only borrows from bytes shifted out.
      let shifted = (first &- ones &* 0x30) &<< UInt64((8 - count) * 8)
      return (Int(eightDigits(shifted)), start + count)
    }
    var value = Int(eightDigits(first &- ones &* 0x30))
    var at = start + 8
    while at < end, at - start < 18 {
      let digit = base[at] &- 0x30
      guard digit < 10 else { return (value, at) }
      value = value &* 10 &+ Int(digit)
      at += 1
    }
    // The 19th byte: a digit is a number the plain reader reads (or finds past `Int`).
    guard at < end, base[at] &- 0x30 >= 10 else { return nil }
    return (value, at)
  }

  /// The number of eight digits (0–9 each, the first in the lowest byte).
  @inline(__always)
  static func eightDigits(_ digits: UInt64) -> UInt64 {
    let pairs = digits &* 10 &+ (digits >> 8)
    let mask: UInt64 = 0x0000_00FF_0000_00FF
    let high: UInt64 = 100 + (1_000_000 << 32)
    let low: UInt64 = 1 + (10_000 << 32)
    return ((pairs & mask) &* high &+ ((pairs >> 16) & mask) &* low) >> 32
  }

  /// The time whose 20 bytes are at `start` (all readable): the last line's when they are
  /// the same bytes, else read by ``UTCTime/parse(_:)``.
  @inline(__always)
  static func time(_ start: UnsafePointer<UInt8>, _ last: inout LastTime) -> Timestamp? {
    let words = (word(start, 0), word(start, 8), word(start, 12))
    if let time = last.time, words == last.words { return time }
    guard let time = UTCTime.parse(UnsafeBufferPointer(start: start, count: UTCTime.length))
    else { return nil }
    last = LastTime(words: words, time: time)
    return time
  }
}
