import ShopAdapters
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

struct CartSyntaxTests {
  func parse(_ arguments: [String]) -> Result<Cart, CartError> {
    CartSyntax.cart(arguments: arguments.map { Array($0.utf8) })
  }

  func parse(line: String) -> Result<Cart, CartError> {
    var line = line
    return line.withUTF8 { CartSyntax.cart(line: $0) }
  }

  @Test func itemsParseInOrderAndDuplicatesAddUp() throws {
    let cart = try parse(["pen=2", "lamp=1", "pen=3", "a-b_c.9=1000000", "x=007"]).get()
    #expect(
      try cart.items == [
        .init(sku: "pen", quantity: 5), .init(sku: "lamp", quantity: 1),
        .init(sku: "a-b_c.9", quantity: 1_000_000), .init(sku: "x", quantity: 7),
      ])
  }

  @Test(arguments: [
    ("pen", CartError.notAnItem("'pen'")),
    ("pen=2=3", .notAnItem("'pen=2=3'")),
    ("=2", .badSKU("'=2'")),
    ("pen=", .badQuantity("'pen='")),
    ("pen=0", .badQuantity("'pen=0'")),
    ("pen=-1", .badQuantity("'pen=-1'")),
    ("pen=+1", .badQuantity("'pen=+1'")),
    ("pen=1.5", .badQuantity("'pen=1.5'")),
    ("pen=1000001", .badQuantity("'pen=1000001'")),
    ("pen=99999999999999999999999", .badQuantity("'pen=99999999999999999999999'")),
    ("p n=1", .badSKU("'p n=1'")),
    ("p'n=1", .badSKU("'p'n=1'")),
    ("p\"n=1", .badSKU("'p\"n=1'")),
    ("p\u{1}n=1", .badSKU("'p\\x01n=1'")),
    ("pé=1", .badSKU("'pé=1'")),
    ("p\u{202E}n=1", .badSKU("'p\\xE2\\x80\\xAEn=1'")),
    ("p\u{85}n=1", .badSKU("'p\\xC2\\x85n=1'")),
    (
      String(repeating: "a", count: 65) + "=1",
      .badSKU("'" + String(repeating: "a", count: 65) + "=1'")
    ),
  ])
  func badItemsAreRefusedWithTheirText(item: String, error: CartError) {
    #expect(parse([item]) == .failure(error))
  }

  @Test func aSixtyFourByteSKUIsFine() throws {
    let sku = String(repeating: "z", count: 64)
    #expect(try parse([sku + "=1"]).get().items == [.init(sku: sku, quantity: 1)])
  }

  @Test func noItemsIsAnError() {
    #expect(parse([]) == .failure(.noItems))
    #expect(parse(line: " \t ") == .failure(.noItems))
  }

  @Test func linesSplitOnSpacesAndTabs() throws {
    let cart = try parse(line: "pen=2\tlamp=1   pen=1 ").get()
    #expect(try cart.items == [.init(sku: "pen", quantity: 3), .init(sku: "lamp", quantity: 1)])
    #expect(parse(line: "pen=2 lamp") == .failure(.notAnItem("'lamp'")))
  }

  @Test func aSumAboveTheMaximumIsRefusedNamingTheSKUAndTheSum() throws {
    let refused = CartError.quantityTooLarge(sku: "pen", sum: 1_000_001)
    #expect(parse(["pen=500000", "pen=500001"]) == .failure(refused))
    #expect(parse(line: "pen=500000\tpen=500001") == .failure(refused))
    #expect(parse(["pen=1", "pen=999999", "pen=1"]) == .failure(refused))
    #expect(
      parse(["pen=1000000", "pen=1000000"])
        == .failure(.quantityTooLarge(sku: "pen", sum: 2_000_000)))
    #expect(refused.description == "'pen': quantities add up to 1000001, more than 1000000")
    // Exactly the maximum is still an order.
    #expect(
      try parse(["pen=500000", "lamp=1", "pen=500000"]).get().items.first?.quantity == 1_000_000)
  }

  @Test func aLongCartHoldsItsSumsToTheMaximumToo() throws {
    // Past 16 items the cart finds SKUs by an index rather than a scan: the same rule applies.
    let many = (0..<40).map { "sku\($0)=600000" }
    #expect(parse(many + ["sku3=400000"]).map(\.items.count) == .success(40))
    #expect(
      parse(many + ["sku39=400001"]) == .failure(.quantityTooLarge(sku: "sku39", sum: 1_000_001)))
  }

  @Test func longCartsStayInFirstGivenOrder() throws {
    let items = (0..<100).map { "sku\($0)=1" } + (0..<100).map { "sku\($0)=2" }
    let cart = try parse(items).get()
    #expect(cart.items.count == 100)
    #expect(cart.items.map(\.sku) == (0..<100).map { "sku\($0)" })
    #expect(cart.items.allSatisfy { $0.quantity == 3 })
  }

  /// Valid UTF-8 reads as typed; only control characters, invalid bytes and what could fake
  /// the quoting are escaped.
  @Test func quotingKeepsValidUTF8AsTyped() {
    #expect(TerminalText.quoted(Array("café=1".utf8)) == "'café=1'")
    #expect(TerminalText.quoted(Array("ペン=1".utf8)) == "'ペン=1'")
    #expect(TerminalText.quoted([0x70, 0xC3, 0x28]) == "'p\\xC3('")
    #expect(TerminalText.quoted(Array("a\u{1B}b'c\\d".utf8)) == "'a\\x1Bb'c\\d'")
    guard case .failure(let error) = parse(["café=1"]) else {
      Issue.record("café is not a SKU")
      return
    }
    #expect("\(error)".hasPrefix("'café=1': SKU must be"))
  }

  /// A library's or a server's words keep their lines, each escaped as a quoted text is;
  /// words already made safe come out as they went in.
  @Test func linesFromOutsideAreEscapedLineByLine() {
    #expect(
      TerminalText.lines("a\u{1B}[31mb\nc\td\u{202E}e") == "a\\x1B[31mb\nc\\x09d\\xE2\\x80\\xAEe")
    let safe = "the orders database 'd\\x0Ab' on h:1: can't connect"
    #expect(TerminalText.lines(safe) == safe)
    #expect(TerminalText.escaped(Array("café".utf8) + [0xFF]) == "café\\xFF")
  }

  @Test(arguments: [
    ("@web-1 pen=2 lamp=1", "web-1", "pen=2 lamp=1"), ("@a:b/c\tpen=1", "a:b/c", "pen=1"),
    ("pen=1", nil, "pen=1"),
  ])
  func aBatchLineMayStartWithItsRef(line: String, ref: String?, items: String) throws {
    var line = line
    var expected = items
    let request = line.withUTF8 { CartSyntax.request(line: $0, number: 7) }
    let cart = expected.withUTF8 { CartSyntax.cart(line: $0) }
    #expect(request.line == 7)
    #expect(request.reference?.text == ref)
    #expect(try request.cart.get() == cart.get())
  }

  @Test(arguments: [
    ("@ pen=1", CartError.badReference("'@'")), ("@bad! pen=1", .badReference("'@bad!'")),
    ("@web-1", .noItems), ("@web-1 @web-2 pen=1", .notAnItem("'@web-2'")),
    ("pen=1 @web-1", .notAnItem("'@web-1'")),
    (
      "@\(String(repeating: "x", count: 65)) pen=1",
      .badReference("'@\(String(repeating: "x", count: 65))'")
    ),
  ])
  func aBadRefMakesTheLineMalformed(line: String, error: CartError) {
    var line = line
    let request = line.withUTF8 { CartSyntax.request(line: $0, number: 1) }
    #expect(request.cart == .failure(error))
  }
}
