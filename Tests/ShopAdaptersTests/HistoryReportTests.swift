import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// `shop orders --csv` and what `shop summary` prints.
struct OrderCSVTests {
  static let time = Timestamp(secondsSince1970: 1_796_018_803)  // 2026-11-30T06:06:43Z

  static func order(_ number: Int, _ lines: [(String, Int, Int)]) throws -> Order {
    let draft = try #require(
      Draft(lines: lines.map { OrderLine(sku: $0.0, quantity: $0.1, price: $0.2) }, placedAt: time))
    return Order(number: number, draft: draft)
  }

  @Test func aRecordIsTheFiveFieldsEndedByCRLF() throws {
    var bytes: [UInt8] = []
    OrderCSV.append(try OrderCSVTests.order(1001, [("pen", 2, 30), ("lamp", 1, 190)]), to: &bytes)
    OrderCSV.append(try OrderCSVTests.order(1002, [("a.b-c_D", 1_000_000, 1)]), to: &bytes)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "1001,2026-11-30T06:06:43Z,pen=2 lamp=1,250,225,,,\r\n"
        + "1002,2026-11-30T06:06:43Z,a.b-c_D=1000000,1000000,900000,,,\r\n")
    #expect(
      String(decoding: OrderCSV.header, as: UTF8.self)
        == "number,placedAt,items,total,payable,ref,voids,voidedBy\r\n")
  }

  @Test(arguments: [
    ("pen=2 lamp=1", "pen=2 lamp=1"),
    ("", ""),
    ("a,b", "\"a,b\""),
    ("say \"hi\"", "\"say \"\"hi\"\"\""),
    ("\"", "\"\"\"\""),
    ("two\nlines", "\"two\nlines\""),
    ("cr\rhere", "\"cr\rhere\""),
    ("crlf\r\n", "\"crlf\r\n\""),
    (" spaces stay ", " spaces stay "),
  ])
  func aFieldIsQuotedOnlyWhenRFC4180NeedsIt(field: String, written: String) {
    var bytes: [UInt8] = []
    OrderCSV.appendField(Array(field.utf8), to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == written)
    #expect(OrderCSVTests.unquote(written) == field)
  }

  /// An RFC 4180 reader of one field, to check that quoting gives the field back.
  static func unquote(_ text: String) -> String {
    guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return text }
    return String(text.dropFirst().dropLast()).replacing("\"\"", with: "\"")
  }

  @Test func everyListingFormWritesTheHeaderOnceThenItsRecords() throws {
    let store = MemoryOrders()
    for time: Int64 in [0, 86400, 86400 * 2] {
      let draft = try #require(
        Draft(
          lines: [OrderLine(sku: "pen", quantity: 1, price: 30)],
          placedAt: Timestamp(secondsSince1970: time)))
      _ = try store.save([draft])
    }
    let header = "number,placedAt,items,total,payable,ref,voids,voidedBy\r\n"
    func csv(_ selection: OrderSelection, in range: TimeRange = .all) throws -> String {
      let output = BufferOutput()
      let listing = OrderListing(output: output, style: .csv)
      _ = try ListOrders(history: store, listing: listing).run(selection, in: range)
      return output.text
    }
    let all = try csv(.all)
    #expect(all.hasPrefix(header))
    #expect(all.split(separator: "\r\n").count == 4)
    #expect(!all.replacing("\r\n", with: "").contains("\n"))
    #expect(
      try csv(.last(1)) == header + "1003,1970-01-03T00:00:00Z,pen=1,30,30,,,\r\n")
    let range = TimeRange(since: Timestamp(secondsSince1970: 86400), until: nil)
    #expect(
      try csv(.all, in: range)
        == header + "1002,1970-01-02T00:00:00Z,pen=1,30,30,,,\r\n"
        + "1003,1970-01-03T00:00:00Z,pen=1,30,30,,,\r\n")
    // An empty range is a header alone: a spreadsheet still opens it, with its columns.
    let none = TimeRange(since: Timestamp(secondsSince1970: 86400 * 9), until: nil)
    #expect(try csv(.all, in: none) == header)
  }
}

struct SummaryListingTests {
  static let summary = Summary(
    totals: Summary.Totals(orders: 3, total: 470, payable: 445),
    days: [
      Summary.Day(
        start: Timestamp(secondsSince1970: 1_795_996_800 - 86400),
        totals: Summary.Totals(orders: 1, total: 30, payable: 30)),
      Summary.Day(
        start: Timestamp(secondsSince1970: 1_795_996_800),
        totals: Summary.Totals(orders: 2, total: 440, payable: 415)),
    ],
    sales: [
      Summary.Sales(sku: "lamp", quantity: 2, revenue: 380, orders: 2),
      Summary.Sales(sku: "pen", quantity: 3, revenue: 90, orders: 2),
    ])

  static func printed(_ grouping: Summary.Grouping, json: Bool, _ summary: Summary = summary)
    throws -> String
  {
    let output = BufferOutput()
    try SummaryListing(output: output, json: json).report(summary, by: grouping)
    #expect(output.flushed == 1)
    return output.text
  }

  @Test func textLinesPerGrouping() throws {
    #expect(
      try SummaryListingTests.printed(.none, json: false)
        == "orders 3  voided 0  total 470  payable 445  discount 25\n")
    #expect(
      try SummaryListingTests.printed(.day, json: false)
        == "2026-11-29  orders 1  voided 0  total 30  payable 30  discount 0\n"
        + "2026-11-30  orders 2  voided 0  total 440  payable 415  discount 25\n")
    #expect(
      try SummaryListingTests.printed(.sku, json: false)
        == "lamp  quantity 2  revenue 380  orders 2\npen  quantity 3  revenue 90  orders 2\n")
  }

  @Test func jsonObjectsPerGrouping() throws {
    #expect(
      try SummaryListingTests.printed(.none, json: true)
        == #"{"orders":3,"voided":0,"total":470,"payable":445,"discount":25}"# + "\n")
    #expect(
      try SummaryListingTests.printed(.day, json: true)
        == #"{"day":"2026-11-29","orders":1,"voided":0,"total":30,"payable":30,"discount":0}"#
        + "\n"
        + #"{"day":"2026-11-30","orders":2,"voided":0,"total":440,"payable":415,"discount":25}"#
        + "\n")
    #expect(
      try SummaryListingTests.printed(.sku, json: true)
        == #"{"sku":"lamp","quantity":2,"revenue":380,"orders":2}"# + "\n"
        + #"{"sku":"pen","quantity":3,"revenue":90,"orders":2}"# + "\n")
  }

  @Test func anEmptyRangeSumsToZeroAndHasNoRows() throws {
    let empty = Summary(totals: Summary.Totals())
    #expect(
      try SummaryListingTests.printed(.none, json: false, empty)
        == "orders 0  voided 0  total 0  payable 0  discount 0\n")
    #expect(try SummaryListingTests.printed(.day, json: true, empty) == "")
    #expect(try SummaryListingTests.printed(.sku, json: false, empty) == "")
  }

  @Test(
    arguments: [
      ("2026-12-01", 1_796_083_200), ("2026-12-01T09:30Z", 1_796_083_200 + 34_200),
      ("2026-12-01T09:30:15Z", 1_796_083_200 + 34_215), ("2024-02-29", 1_709_164_800),
      ("1970-01-01T00:00:00Z", 0),
      // RFC 3339: offsets converted to UTC, lower case, a space, fractions, a leap second.
      ("2026-12-01T15:00:15+05:30", 1_796_083_200 + 34_215),
      ("2026-12-01T01:30:15-08:00", 1_796_083_200 + 34_215),
      ("2026-12-01T09:30:15+00:00", 1_796_083_200 + 34_215),
      ("2026-12-01T09:30:15-00:00", 1_796_083_200 + 34_215),
      ("2026-12-01t09:30:15z", 1_796_083_200 + 34_215),
      ("2026-12-01 09:30:15Z", 1_796_083_200 + 34_215),
      ("2026-12-01T09:30+01:00", 1_796_083_200 + 30_600),
      ("2026-12-01T00:30:00+01:00", 1_796_083_200 - 1800),
      ("2026-11-30T23:30:00-01:00", 1_796_083_200 + 1800),
      // toISOString(): a fraction is the next whole second, as orders are stamped in them.
      ("2026-12-01T09:30:15.123Z", 1_796_083_200 + 34_216),
      ("2026-12-01T09:30:15.000Z", 1_796_083_200 + 34_215),
      ("2026-12-01T09:30:15.000000001Z", 1_796_083_200 + 34_216),
      ("2026-12-01T15:00:15.5+05:30", 1_796_083_200 + 34_216),
      ("2026-12-31T23:59:60Z", 1_798_761_600),
    ] as [(String, Int64)])
  func timeArgumentsInEveryForm(text: String, seconds: Int64) {
    #expect(TimeArgument.timestamp(Array(text.utf8)) == Timestamp(secondsSince1970: seconds))
  }

  @Test(arguments: [
    "", "2026", "2026-12", "2026-12-1", "2026-13-01", "2026-02-29", "2026-12-01T09:30",
    "2026-12-01T09:30:00", "2026-12-01T24:00Z", "2026-12-01T09:60Z", "2026-12-01T09:30:61Z",
    "2026-12-01T09:30:00+0100", "2026-12-01T09:30:00+01", "2026-12-01T09:30:00+24:00",
    "2026-12-01T09:30:00+01:60", "2026-12-01T09:30:00.Z", "2026-12-01T09:30:00,5Z",
    "2026-12-01T09:30.5Z", "tomorrow", "Today", "+2026-12-01", "2026-12-01Z",
    "2026-12-01T09:30:00ZZ", "2026-12-01T09:30:00Z ", " 2026-12-01", "2026-12-01x09:30Z",
    "2026-12-01T9:30:00Z", "2026-12-01T09:30:00+05:30x", "today", "yesterday",
  ])
  func badTimeArgumentsAreRefused(text: String) {
    #expect(TimeArgument.timestamp(Array(text.utf8)) == nil, "\(text)")
  }

  @Test func todayAndYesterdayAreUTCDaysOfTheClock() {
    let now = Timestamp(secondsSince1970: 1_796_083_200 + 34_215)
    let today = TimeArgument.timestamp(Array("today".utf8), now: now)
    #expect(today == Timestamp(secondsSince1970: 1_796_083_200))
    let yesterday = TimeArgument.timestamp(Array("yesterday".utf8), now: now)
    #expect(yesterday == Timestamp(secondsSince1970: 1_796_083_200 - 86400))
    let midnight = Timestamp(secondsSince1970: 1_796_083_200)
    #expect(TimeArgument.timestamp(Array("today".utf8), now: midnight) == midnight)
    let before = Timestamp(secondsSince1970: 1_796_083_199)
    #expect(
      TimeArgument.timestamp(Array("today".utf8), now: before)
        == Timestamp(secondsSince1970: 1_796_083_200 - 86400))
  }
}
