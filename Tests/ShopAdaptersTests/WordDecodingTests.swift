import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The word reader of stored lines (OrderJSON+WordDecoding.swift) against the plain reader of
/// the layout (``JSONParser/laidOutOrder(startingWith:)``): on random lines of every shape
/// (numbers of 1 to 20 digits, leading zeros, signs, refs and SKUs of 0 to 66 bytes of allowed
/// and other bytes, 0 to 10 items, real and impossible times, repeated and changing), each
/// with every byte's bits flipped and bytes replaced, cut and doubled, read in turn with one
/// memory of the last time: it takes a line only as the plain reader reads it (the same
/// members, the same items kept in the same order), refuses one only where the plain reader
/// refuses it at the same item, and keeps nothing of a line it leaves to that reader.
struct WordDecodingTests {
  /// What items a reader keeps, in order, into a journal both readers' lines can be compared
  /// by; it refuses an item whose price is `refusing`, as a sum past `Int` is refused.
  final class Journal {
    var kept: [([UInt8], Int, Int)] = []
  }

  struct Recorded: LaidOutItems {
    let journal: Journal
    let refusing: Int

    static func empty() -> Recorded { Recorded(journal: Journal(), refusing: -1) }

    mutating func append(sku: UnsafeBufferPointer<UInt8>, quantity: Int, price: Int) -> Bool {
      guard price != refusing else { return false }
      journal.kept.append((Array(sku), quantity, price))
      return true
    }
  }

  enum Verdict: Equatable { case taken, refused, undecided }

  /// How many lines read by words named a SKU twice.
  final class Counts {
    var repeated = 0
  }
  let counts = Counts()

  /// Reads `line` both ways and checks they agree; what the word reader said.
  func compare(_ line: [UInt8], _ times: inout LaidOutWords.LastTime, refusing: Int) -> Verdict {
    line.withUnsafeBufferPointer { bytes in
      let fastJournal = Journal()
      let plainJournal = Journal()
      let fast = LaidOutWords.read(
        bytes, startingWith: Recorded(journal: fastJournal, refusing: refusing), times: &times)
      let plain = StoredLine.plainRead(
        bytes, startingWith: Recorded(journal: plainJournal, refusing: refusing))
      let text = String(decoding: line, as: UTF8.self)
      // And the whole check of a stored line, against the fast decoder's order.
      var again = times
      let number = StoredLine.checked(bytes, startingWith: StoredLine.Sum(), times: &again)?.number
      #expect(number == OrderJSONDifferentialTests().fast(line)?.number, "\(text)")
      switch fast {
      case .taken(let order, let distinct):
        guard let plain else {
          Issue.record("taken by words, refused by the plain reader: \(text)")
          return .taken
        }
        #expect(order.number == plain.number, "\(text)")
        #expect(order.reference?.baseAddress == plain.reference?.baseAddress, "\(text)")
        #expect(order.reference?.count == plain.reference?.count, "\(text)")
        #expect(order.total == plain.total, "\(text)")
        #expect(order.payable == plain.payable, "\(text)")
        #expect(order.placedAt == plain.placedAt, "\(text)")
        #expect(same(fastJournal, plainJournal), "\(text)")
        #expect(!fastJournal.kept.isEmpty)
        let skus = fastJournal.kept.map { String(decoding: $0.0, as: UTF8.self) }
        #expect(distinct == (Set(skus).count == skus.count), "\(text)")
        if !distinct { counts.repeated += 1 }
        return .taken
      case .refused:
        #expect(plain == nil, "refused by words, taken by the plain reader: \(text)")
        #expect(same(fastJournal, plainJournal), "\(text)")
        return .refused
      case .undecided:
        #expect(fastJournal.kept.isEmpty, "\(text)")
        return .undecided
      }
    }
  }

  func same(_ one: Journal, _ other: Journal) -> Bool {
    one.kept.count == other.kept.count
      && zip(one.kept, other.kept).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
  }

  /// A random line in or near the layout.
  func randomLine(_ random: inout SplitMix) -> [UInt8] {
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    func digits(_ count: Int) -> String {
      String(
        (0..<count).map { index in
          Character(String(index == 0 && !chance(5) ? random.next() % 9 + 1 : random.next() % 10))
        })
    }
    func integer() -> String {
      if chance(3) { return pick(["-1", "-0", "0", "00", "01", "1.5", "1e3", ""]) }
      return digits(pick([1, 1, 2, 3, 4, 6, 7, 8, 9, 12, 16, 17, 18, 19, 20]))
    }
    func word(_ alphabet: String, _ lengths: [Int]) -> String {
      let letters = Array(alphabet)
      return String((0..<pick(lengths)).map { _ in pick(letters) })
    }
    let skuAlphabet = chance(10) ? "ab-_.09AZ:/ \"\\é" : "abcxyzABZ0189-_."
    let repeating = chance(30)
    let number = chance(80) ? String(Int(random.next() % 2_000_000) + 1001) : integer()
    var line = #"{"number":\#(number)"#
    if chance(40) {
      let ref = word("aZ09-_.:/", chance(10) ? [0, 1, 63, 64, 65, 66] : [3, 8, 12, 20])
      line += #","ref":"\#(ref)""#
    }
    var items: [String] = []
    var total = 0
    var fits = true
    for _ in 0..<pick([1, 1, 2, 3, 4, 7, 8, 9, 10, 0]) {
      // Now and then from a few SKUs alike but for one byte (at an end, in the middle, past
      // the 16th), so that lines with a SKU twice, and with near twins, are read.
      let twins = [
        "a", "b", "ab", "ba", "sku-0001", "sku-0002", "sku-00010", "0123456789abcdef",
        "0123456789abcdeF", "0123456789abcdef-", "0123456789abcdef-x", "0123456789Xbcdef-x",
      ]
      let sku =
        repeating
        ? pick(twins)
        : word(skuAlphabet, chance(10) ? [0, 1, 7, 8, 9, 16, 63, 64, 65, 66] : [8, 5, 3])
      let quantity = chance(5) ? pick(["0", "1000000", "1000001", "-2", "007"]) : digits(1)
      let price = chance(10) ? integer() : String(random.next() % 600)
      items.append(#"{"sku":"\#(sku)","quantity":\#(quantity),"price":\#(price)}"#)
      if let quantity = Int(quantity), let price = Int(price) {
        let (product, overflow) = quantity.multipliedReportingOverflow(by: price)
        let (sum, again) = total.addingReportingOverflow(product)
        if overflow || again { fits = false }
        total = sum
      }
    }
    let totalText = chance(90) && fits ? String(total) : integer()
    let payable = chance(90) ? String(Order.payable(total: total)) : integer()
    let time = pick([
      "2026-12-03T10:00:00Z", "2026-12-03T10:00:00Z", "2026-12-03T10:00:01Z",
      "2024-02-29T23:59:59Z", "2026-02-29T10:00:00Z", "2026-13-01T10:00:00Z",
      "2026-12-03T24:00:00Z", "2026-12-03 10:00:00Z", "0000-01-01T00:00:00Z",
    ])
    line += #","items":[\#(items.joined(separator: ","))],"total":\#(totalText),"#
    line += #""payable":\#(payable),"placedAt":"\#(time)"}"#
    return Array(line.utf8)
  }

  /// `line` damaged at `at`: a bit flipped, the byte replaced, taken out or doubled, or the
  /// line cut there.
  func damaged(_ line: [UInt8], at: Int, _ random: inout SplitMix) -> [UInt8] {
    var damaged = line
    switch random.next() % 6 {
    case 0, 1: damaged[at] ^= 1 << UInt8(random.next() % 8)
    case 2:
      let noise = Array("0123456789-\",:{}[] \\x".utf8) + [0x80, 0x0D, 0xFF]
      damaged[at] = noise[Int(random.next() % UInt64(noise.count))]
    case 3: damaged.remove(at: at)
    case 4: damaged.insert(damaged[at], at: at)
    default: damaged.removeSubrange(at...)
    }
    return damaged
  }

  @Test func theWordReaderTakesWhatThePlainReaderTakesAndNothingElse() {
    var random = SplitMix(seed: 3501)
    var times = LaidOutWords.LastTime()
    var verdicts: [Verdict: Int] = [:]
    var damagedTaken = 0
    for round in 0..<400 {
      let line = randomLine(&random)
      // Every few lines, items of the price of one of its items are refused, as a sum past
      // `Int` would be.
      let prices = String(decoding: line, as: UTF8.self).split(separator: #""price":"#)
        .dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
      let refusing = round % 3 == 0 ? prices.randomElement(using: &random) ?? -1 : -1
      verdicts[compare(line, &times, refusing: refusing), default: 0] += 1
      for at in line.indices where round % 8 == 0 || random.next() % 6 == 0 {
        let verdict = compare(damaged(line, at: at, &random), &times, refusing: refusing)
        verdicts[verdict, default: 0] += 1
        if verdict == .taken { damagedTaken += 1 }
      }
      // The line again: its time was just read, or a damaged one's was.
      _ = compare(line, &times, refusing: refusing)
    }
    #expect(verdicts[.taken, default: 0] > 500, "\(verdicts)")
    #expect(verdicts[.refused, default: 0] > 10, "\(verdicts)")
    #expect(verdicts[.undecided, default: 0] > 5000, "\(verdicts)")
    #expect(counts.repeated > 50, "\(counts.repeated)")
    // Some damage leaves a line in the layout (a digit for a digit): both take it alike.
    #expect(damagedTaken > 100, "\(damagedTaken)")
  }

  /// What the encoder writes, every order of the differential tests' kinds but for a number
  /// of 19 digits (the plain reader's), is read by words: no constant of the layout is wrong.
  @Test func everyEncodedOrderIsReadByWords() throws {
    var random = SplitMix(seed: 3502)
    var times = LaidOutWords.LastTime()
    var taken = 0
    for _ in 0..<500 {
      let random19 = try OrderJSONDifferentialTests().randomOrder(&random)
      let draft = try #require(
        Draft(
          lines: random19.lines, placedAt: random19.placedAt, reference: random19.reference))
      let order = Order(
        number: Int(random.next() % 1_000_000_000_000) + Order.firstNumber, draft: draft)
      let line = Array(OrderJSONDifferentialTests().encoded(order).dropLast())
      let verdict = compare(line, &times, refusing: -1)
      #expect(verdict == .taken, "\(String(decoding: line, as: UTF8.self))")
      if verdict == .taken { taken += 1 }
    }
    #expect(taken > 400)
  }

  /// Each byte class is the core's rule, for every byte at every place in a word.
  @Test func eachByteIsClassedByTheCoresRule() {
    var random = SplitMix(seed: 3503)
    for byte in 0...255 {
      for place in 0..<8 {
        let others = random.next()
        let shift = UInt64(place * 8)
        let word = others & ~(0xFF << shift) | UInt64(byte) << shift
        let bit: UInt64 = 0x80 << shift
        let value = UInt8(byte)
        #expect((LaidOutWords.skuBytes(word) & bit != 0) == SKU.isAllowed(value), "\(byte)")
        #expect(
          (LaidOutWords.referenceBytes(word) & bit != 0) == Reference.isAllowed(value), "\(byte)")
        #expect((LaidOutWords.digits(word) & bit != 0) == DecimalInteger.isDigit(value), "\(byte)")
      }
    }
  }

  /// Integers of every length, with and without a leading zero, before what may follow one
  /// (the layout's `,` and `}`, and others) and at the end of the bytes: read as the plain
  /// reader reads them, or left to it. (A `.` or `e` after one is refused by the text the
  /// layout wants next, not by this reader.)
  @Test func integersAreReadAsThePlainReaderReadsThem() {
    var random = SplitMix(seed: 3504)
    var read = 0
    for length in 1...21 {
      for _ in 0..<40 {
        var digits = (0..<length).map { _ in UInt8(ascii: "0") + UInt8(random.next() % 10) }
        if random.next() % 3 != 0, digits[0] == UInt8(ascii: "0") { digits[0] = UInt8(ascii: "7") }
        let after = Array(",}-0 \"x".utf8)[Int(random.next() % 7)]
        let padding = Int(random.next() % 12)
        let text = digits + [after] + [UInt8](repeating: UInt8(ascii: ","), count: padding)
        text.withUnsafeBufferPointer { bytes in
          guard let base = bytes.baseAddress,
            let (value, end) = LaidOutWords.integer(base, 0, bytes.count)
          else { return }
          var parser = JSONParser(bytes: bytes)
          let plain = parser.plainInteger()
          #expect(plain == value, "\(String(decoding: text, as: UTF8.self))")
          #expect(parser.position == end || plain == nil)
          read += 1
        }
      }
    }
    #expect(read > 300)
  }
}
