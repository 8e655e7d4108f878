import ShopAdapters
import ShopCore
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
}
