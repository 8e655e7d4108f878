import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The shared decimal reader against Swift's own `Int(_:)`, and each format that uses it
/// against the accept/refuse table it had before it shared the reader.
struct DecimalIntegerTests {
  static let readers: [DecimalInteger] = [
    DecimalInteger(sign: .none, leadingZeros: .allowed, range: 1...Int.max),
    DecimalInteger(sign: .none, leadingZeros: .allowed, range: 0...Int.max),
    DecimalInteger(sign: .none, leadingZeros: .allowed, range: 1...10_000),
    DecimalInteger(sign: .minus, leadingZeros: .allowed, range: Int.min...Int.max),
    DecimalInteger(sign: .minus, leadingZeros: .refused, range: Int.min...Int.max),
    DecimalInteger(sign: .minus, leadingZeros: .refused, range: -40...(-3)),
    DecimalInteger(sign: .none, leadingZeros: .refused, range: 0...9999),
  ]

  /// What `reader` must answer, from the standard library's parser and the reader's rules.
  static func expected(_ text: String, _ reader: DecimalInteger) -> Int? {
    guard !text.hasPrefix("+"), reader.sign == .minus || !text.hasPrefix("-"),
      let value = Int(text), reader.range.contains(value)
    else { return nil }
    let digits = text.drop { $0 == "-" }
    if reader.leadingZeros == .refused, digits.count > 1, digits.first == "0" { return nil }
    return value
  }

  static let edges: [String] = [
    "", "0", "00", "-0", "-00", "1", "01", "007", "+5", "-5", "-", "+", "--5", "5-", " 5", "5 ",
    "1a", "a1", "9999", "10000", "10001", "-3", "-2", "-40", "-41", "0040", "-040",
    "\(Int.max)", "0\(Int.max)", "9223372036854775808", "99999999999999999999",
    "\(Int.min)", "-9223372036854775809", "-0\(Int.max)", "18446744073709551616",
  ]

  @Test func readsWhatTheStandardLibraryReadsWithinItsRules() {
    var random = SplitMix(seed: 17)
    let alphabet = Array("0123456789-+ x".utf8)
    var texts = Self.edges
    for _ in 0..<4000 {
      let length = Int(random.next() % 22)
      let digitsOnly = random.next() % 2 == 0
      texts.append(
        String(
          decoding: (0..<length).map { place in
            digitsOnly && place > 0
              ? UInt8(ascii: "0") + UInt8(random.next() % 10)
              : alphabet[Int(random.next() % UInt64(alphabet.count))]
          }, as: UTF8.self))
    }
    for reader in Self.readers {
      for text in texts {
        #expect(reader.value(Array(text.utf8)) == Self.expected(text, reader), "\(text) \(reader)")
      }
    }
  }

  /// A time's fields: exactly so many digits at a place, nothing else, and never past the end.
  @Test(
    arguments: [
      ("2026", 0, 4, 2026), ("x06:", 1, 2, 6), ("0000", 0, 4, 0), ("99", 0, 2, 99),
      ("1a", 0, 2, nil), ("-1", 0, 2, nil), ("+1", 0, 2, nil), (" 1", 0, 2, nil), ("12", 1, 2, nil),
      ("12", -1, 2, nil), ("/:", 0, 1, nil), (":", 0, 1, nil),
      (String(repeating: "9", count: 19), 0, 19, nil),
      (String(repeating: "9", count: 18), 0, 18, 999_999_999_999_999_999),
    ] as [(String, Int, Int, Int?)])
  func fixedDigitsAreAllDigitsAndStayInside(text: String, start: Int, count: Int, value: Int?) {
    var text = text
    #expect(text.withUTF8 { DecimalInteger.digits($0, at: start, count: count) } == value)
  }

  @Test func aScanStopsAtTheFirstNonDigitAndReadsPastTheRange() throws {
    let reader = DecimalInteger(sign: .minus, leadingZeros: .refused, range: 0...99)
    let text = Array("x-12,345,99999999999999999999]0x".utf8)
    let negative = try #require(reader.scan(text, from: 1))
    #expect(negative.value == nil && negative.end == 4)
    let inRange = try #require(reader.scan(text, from: 5))
    #expect(inRange.value == nil && inRange.end == 8)
    let small = try #require(reader.scan(Array("42,".utf8), from: 0))
    #expect(small.value == 42 && small.end == 2)
    let huge = try #require(reader.scan(text, from: 9))
    #expect(huge.value == nil && huge.end == 29)
    let zero = try #require(reader.scan(text, from: 30))
    #expect(zero.value == 0 && zero.end == 31)
    #expect(reader.scan(text, from: 0) == nil)
    #expect(reader.scan(Array("-x".utf8), from: 0) == nil)
    #expect(reader.scan(Array("012".utf8), from: 0) == nil)
    #expect(reader.scan(Array("7".utf8)[1...], from: 1) == nil)
  }

  // The tables below are each caller's behaviour before the readers were made one.

  @Test(
    arguments: [
      ("1", 1), ("1000000", 1_000_000), ("0001000000", 1_000_000), ("007", 7), ("0", nil),
      ("00", nil), ("-0", nil), ("-1", nil), ("+1", nil), ("", nil), ("1000001", nil),
      ("9223372036854775808", nil), ("1 ", nil), ("1=", nil),
    ] as [(String, Int?)])
  func aQuantityIsDigitsFromOneToTheCartsMaximum(text: String, quantity: Int?) {
    var item = "pen=" + text
    let parsed = item.withUTF8 { CartSyntax.item($0) }
    #expect((try? parsed.get())?.quantity == quantity)
  }

  @Test(
    arguments: [
      ("0", 0), ("30", 30), ("007", 7), ("\(Int.max)", Int.max), ("000\(Int.max)", Int.max),
      ("+5", nil), ("-5", nil), ("-0", nil), ("", nil), ("9223372036854775808", nil),
      ("99999999999999999999", nil), ("1a", nil), ("1 0", nil), ("0x10", nil),
    ] as [(String, Int?)])
  func aCatalogPriceIsDigitsFromZeroToIntMax(text: String, price: Int?) {
    let catalog = try? FileCatalog(
      path: "prices.csv", contents: Array("sku,price\npen,\(text)\n".utf8))
    #expect(catalog?.price(of: "pen") == price)
  }

  @Test(
    arguments: [
      ("0", .integer(0)), ("-0", .integer(0)), ("42", .integer(42)), ("-42", .integer(-42)),
      ("\(Int.max)", .integer(Int.max)), ("\(Int.min)", .integer(Int.min)),
      ("9223372036854775808", .other), ("-9223372036854775809", .other),
      ("99999999999999999999", .other), ("1.5", .other), ("1e3", .other), ("-2E-1", .other),
      ("99999999999999999999.5", .other), ("007", nil), ("-01", nil), ("00", nil), ("+5", nil),
      ("-", nil), ("", nil), ("1.", nil), ("1e", nil), ("--1", nil), ("1-", nil),
    ] as [(String, JSONParser.Value?)])
  func aJSONNumberIsAnIntegerOrOtherWithoutLeadingZeros(text: String, value: JSONParser.Value?) {
    var text = text
    let read = text.withUTF8 { bytes in
      var parser = JSONParser(bytes: bytes)
      return parser.document()
    }
    #expect(read == value)
  }

  /// The encoder's layout is read by the fast path, a space in it sends the line to the
  /// general reader: both take the same numbers.
  @Test(
    arguments: [
      ("1001", 1001), ("\(Int.max)", Int.max), ("1001.0", nil), ("01001", nil), ("+1001", nil),
      ("-1001", nil), ("1000", nil), ("9223372036854775808", nil), ("1e4", nil), ("", nil),
    ] as [(String, Int?)])
  func anOrderNumberIsReadAlikeInEitherLayout(text: String, number: Int?) {
    let line =
      #"{"number":\#(text),"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#
    for layout in [line, line.replacingOccurrences(of: #"{"number""#, with: #"{ "number""#)] {
      var layout = layout
      let order = layout.withUTF8 { try? OrderJSON.order(from: $0) }
      #expect(order?.number == number, "\(layout)")
    }
  }

  @Test(
    arguments: [
      ("2", "30", "60", true), ("2", "-0", "0", true), ("-5", "60", "-300", false),
      ("0", "30", "0", false), ("02", "30", "60", false), ("2", "030", "60", false),
      ("+2", "30", "60", false), ("2.0", "30", "60", false), ("2", "30", "060", false),
      ("1", "9223372036854775808", "60", false), ("18446744073709551618", "30", "60", false),
    ] as [(String, String, String, Bool)])
  func anItemsIntegersAreReadAlikeInEitherLayout(
    quantity: String, price: String, total: String, accepted: Bool
  ) {
    let line =
      #"{"number":1001,"items":[{"sku":"pen","quantity":\#(quantity),"price":\#(price)}],"total":\#(total),"payable":\#(total),"placedAt":"2026-11-30T06:06:43Z"}"#
    for layout in [line, line.replacingOccurrences(of: #"{"sku""#, with: #"{ "sku""#)] {
      var layout = layout
      let order = layout.withUTF8 { try? OrderJSON.order(from: $0) }
      #expect((order != nil) == accepted, "\(layout)")
    }
  }

  @Test(
    arguments: [
      ("2026-11-30T06:06:43Z", 1_796_018_803), ("0000-01-01T00:00:00Z", -62_167_219_200),
      ("9999-12-31T23:59:59Z", 253_402_300_799), ("+026-11-30T06:06:43Z", nil),
      ("-026-11-30T06:06:43Z", nil), ("2026-+1-30T06:06:43Z", nil), ("2026-11-30T-6:06:43Z", nil),
      ("2026-11-30T06:06: 3Z", nil), ("2026-11-30T06:06:4aZ", nil), ("2026-11-30T24:00:00Z", nil),
      ("2026-11-30T06:60:43Z", nil), ("2026-11-30T06:06:60Z", nil), ("2026-13-01T06:06:43Z", nil),
      ("2026-00-01T06:06:43Z", nil), ("2026-11-00T06:06:43Z", nil), ("2026-11-31T06:06:43Z", nil),
    ] as [(String, Int64?)])
  func aTimeIsItsFixedDigitsOnly(text: String, seconds: Int64?) {
    #expect(UTCTime.parse(text)?.secondsSince1970 == seconds)
  }
}
