import Foundation
import ShopAdapters
import ShopCore
import ShopTestSupport
import Testing

struct ReportTests {
  let order: Order

  init() throws {
    let lines = [
      OrderLine(sku: "pen", quantity: 2, price: 30),
      OrderLine(sku: "lamp", quantity: 1, price: 190),
    ]
    let draft = try #require(
      Draft(lines: lines, placedAt: Timestamp(secondsSince1970: 1_796_018_803)))
    order = Order(number: 1001, draft: draft)
  }

  func tell(_ report: any Report, _ outcomes: [(Outcome, Int?)]) throws {
    for (outcome, line) in outcomes { report.report(outcome, line: line) }
    try report.flush()
  }

  @Test func textReadsAsTheSeedPrints() throws {
    let output = BufferOutput()
    try tell(
      TextReport(output: output),
      [
        (.placed(order), nil), (.unknown(["chair"]), nil), (.unknown(["chair", "desk"]), 3),
        (.malformed(.badQuantity("'pen=0'")), 7), (.tooLarge, 9),
      ])
    #expect(
      output.text == """
        order 1001 for 225
        no chair
        line 3: no chair, desk
        line 7: 'pen=0': quantity must be a whole number from 1 to 1000000
        line 9: the order's total is too large to compute

        """)
    #expect(output.flushed == 1)
  }

  @Test func quietTellsOnlyBatchLinesNotPlacedWithTheLoudWording() throws {
    let errors = BufferOutput()
    try tell(
      QuietReport(errors: errors),
      [
        (.placed(order), nil), (.unknown(["chair"]), nil), (.unknown(["chair", "desk"]), 2),
        (.malformed(.noItems), 4),
      ])
    #expect(errors.text == "line 2: no chair, desk\nline 4: no items: expected SKU=QTY...\n")
  }

  @Test func jsonCarriesTheOrderAndTheLine() throws {
    let output = BufferOutput()
    try tell(
      JSONReport(output: output),
      [
        (.placed(order), nil), (.placed(order), 2), (.unknown(["chair", "desk"]), nil),
        (.unknown(["chair"]), 3), (.malformed(.badSKU("'p\"n=1'")), 4), (.tooLarge, 5),
      ])
    let stored =
      #""number":1001,"items":[{"sku":"pen","quantity":2,"price":30},{"sku":"lamp","quantity":1,"price":190}],"total":250,"payable":225,"placedAt":"2026-11-30T06:06:43Z"}"#
    #expect(
      output.text.split(separator: "\n").map(String.init) == [
        "{" + stored, #"{"line":2,"# + stored, #"{"unknown":["chair","desk"]}"#,
        #"{"line":3,"unknown":["chair"]}"#,
        #"{"line":4,"error":"'p\"n=1': SKU must be 1-64 letters, digits, '-', '_' or '.'"}"#,
        #"{"line":5,"error":"the order's total is too large to compute"}"#,
      ])
  }

  /// A suggestion follows its SKU in text, and is a separate member in JSON, so
  /// `{"unknown":[...]}` reads as before for a reader that knows only that.
  @Test func suggestionsFollowTheirSKUs() throws {
    let outcomes: [(Outcome, Int?)] = [
      (.unknown(["pne"], suggestions: ["pne": "pen"]), nil),
      (.unknown(["lmap", "chair", "pne"], suggestions: ["pne": "pen", "lmap": "lamp"]), 3),
      (.unknown(["chair", "desk"], suggestions: [:]), 4),
      (.unknown(["chair", "pne"], suggestions: ["pne": "pen"]), nil),
    ]
    let text = BufferOutput()
    try tell(TextReport(output: text), outcomes)
    #expect(
      text.text == """
        no pne (did you mean pen?)
        line 3: no lmap (did you mean lamp?), chair, pne (did you mean pen?)
        line 4: no chair, desk
        no chair, pne (did you mean pen?)

        """)
    let quiet = BufferOutput()
    try tell(QuietReport(errors: quiet), outcomes)
    #expect(
      quiet.text
        == "line 3: no lmap (did you mean lamp?), chair, pne (did you mean pen?)\nline 4: no chair, desk\n"
    )
    let json = BufferOutput()
    try tell(JSONReport(output: json), outcomes)
    #expect(
      json.text.split(separator: "\n").map(String.init) == [
        #"{"unknown":["pne"],"suggestions":{"pne":"pen"}}"#,
        #"{"line":3,"unknown":["lmap","chair","pne"],"suggestions":{"lmap":"lamp","pne":"pen"}}"#,
        #"{"line":4,"unknown":["chair","desk"]}"#,
        #"{"unknown":["chair","pne"],"suggestions":{"pne":"pen"}}"#,
      ])
  }
}

/// `shop orders`'s listing: bounded, delivered as it goes.
struct OrderListingTests {
  /// A history that counts how many orders it has handed out when the output is flushed.
  final class CountingHistory: OrderHistory {
    let orders: [Order]
    private(set) var handedOut = 0

    init(count: Int) throws {
      let time = Timestamp(secondsSince1970: 1_796_018_803)
      let draft = try #require(
        Draft(lines: [OrderLine(sku: "pen", quantity: 2, price: 30)], placedAt: time))
      orders = (0..<count).map { Order(number: 1001 + $0, draft: draft) }
    }

    func readAll(_ visit: (Order) throws -> Void) throws {
      for order in orders {
        handedOut += 1
        try visit(order)
      }
    }
    func count() -> Int { orders.count }
    func last(_ count: Int, _ visit: (Order) throws -> Void) throws {}
    func order(numbered number: Int, _ visit: (Order) throws -> Void)
      throws -> Bool
    { false }
    func order(
      referenced reference: Reference, _ visit: (Order) throws -> Void
    ) throws -> Bool { false }
  }

  /// Records, at each flush, how many orders the history had handed out by then.
  final class WatchingOutput: ByteOutput {
    var history: CountingHistory?
    private(set) var flushedAt: [Int] = []
    private(set) var bytes = 0

    func write(_ bytes: UnsafeRawBufferPointer) { self.bytes += bytes.count }
    func flush() throws { flushedAt.append(history?.handedOut ?? -1) }
  }

  @Test(arguments: [OrderListing.Style.text, .json])
  func theFirstLinesAreDeliveredLongBeforeTheLastOrderIsRead(style: OrderListing.Style) throws {
    let history = try CountingHistory(count: 20_000)
    let output = WatchingOutput()
    output.history = history
    let listing = OrderListing(output: output, style: style)
    _ = try ListOrders(history: history, listing: listing).run(.all)
    let first = try #require(output.flushedAt.first)
    #expect(first < 2_000, "the first delivery waited for \(first) of 20,000 orders")
    #expect(output.flushedAt.count > 10)
    #expect(output.flushedAt.last == 20_000)
  }

  /// Each order listed shows its own time, however its neighbours' times repeat, go back or
  /// differ by a second: a listing keeps the text of the last time for the orders sharing it.
  @Test(arguments: [OrderListing.Style.text, .json, .csv])
  func everyOrderListedShowsItsOwnTime(style: OrderListing.Style) throws {
    var random = SplitMix(seed: 44)
    let base: Int64 = 1_796_018_803
    let offsets: [Int64] = [0, 0, 0, 1, -1, 59, 86_400, -31_536_000]
    var orders: [Order] = []
    for number in 1001...1300 {
      let at = base + offsets[Int(random.next() % UInt64(offsets.count))]
      let draft = try #require(
        Draft(
          lines: [OrderLine(sku: "pen", quantity: 1, price: 30)],
          placedAt: Timestamp(secondsSince1970: at)))
      orders.append(Order(number: number, draft: draft))
    }
    let output = BufferOutput()
    let listing = OrderListing(output: output, style: style)
    for order in orders { try listing.list(order) }
    try listing.deliver(complete: true)
    let formatter = ISO8601DateFormatter()
    let expected = orders.map {
      formatter.string(
        from: Date(timeIntervalSince1970: TimeInterval($0.placedAt.secondsSince1970)))
    }
    // The one time in each line: `YYYY-MM-DDTHH:MM:SSZ`, whatever the format around it.
    let shown = Array(output.text.utf8).split(separator: UInt8(ascii: "\n")).compactMap {
      line -> String? in
      let bytes = Array(line)
      guard bytes.count >= 20 else { return nil }
      for start in 0...(bytes.count - 20)
      where bytes[start + 4] == UInt8(ascii: "-") && bytes[start + 10] == UInt8(ascii: "T")
        && bytes[start + 19] == UInt8(ascii: "Z")
      {
        return String(decoding: bytes[start..<(start + 20)], as: UTF8.self)
      }
      return nil
    }
    #expect(shown == expected)
  }
}
