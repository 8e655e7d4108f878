import ShopCore
import ShopTestSupport
import Testing

/// A catalog that counts the suggestions asked of it and answers from its own list, so a test
/// sees the use case go through the port and ask once per SKU per group.
final class CountingCatalog: Catalog {
  let prices: [String: Int]
  let order: [String]
  private(set) var asked: [String] = []

  init(_ entries: KeyValuePairs<String, Int>) {
    prices = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    order = entries.map(\.key)
  }

  func price(of sku: String) -> Int? { prices[sku] }

  var entries: [(sku: String, price: Int)] {
    prices.sorted { $0.key < $1.key }.map { (sku: $0.key, price: $0.value) }
  }

  func suggestion(for sku: String) -> String? {
    asked.append(sku)
    return Spelling.nearest(to: sku, among: order)
  }
}

/// `no pne (did you mean pen?)`: the use case asks the catalog in use about each unknown SKU.
struct SuggestionTests {
  func root(_ catalog: any Catalog, _ report: RecordingReport, _ orders: FakeOrders) -> PlaceOrder {
    PlaceOrder(
      catalog: catalog, orders: orders, clock: FixedClock(time: Timestamp(secondsSince1970: 0)),
      report: report)
  }

  @Test func anUnknownSKUNearOneSoldGetsItAndOneFarOffGetsNothing() throws {
    let report = RecordingReport()
    let orders = FakeOrders()
    let place = root(FakeCatalog(prices: ["pen": 30, "lamp": 190]), report, orders)
    #expect(try place.place(Cart(["pne": 1])) == .unknown(["pne"], suggestions: ["pne": "pen"]))
    #expect(try place.place(Cart(["chair": 1])) == .unknown(["chair"]))
    #expect(
      try place.place(Cart(["lmap": 1, "pen": 2, "chair": 1, "pne": 1]))
        == .unknown(["lmap", "chair", "pne"], suggestions: ["lmap": "lamp", "pne": "pen"]))
    #expect(orders.saved.isEmpty)
    #expect(
      report.outcomes.map(\.outcome).last
        == .unknown(
          ["lmap", "chair", "pne"], suggestions: ["lmap": "lamp", "pne": "pen"]))
  }

  @Test func theSuggestionComesFromTheCatalogInUse() throws {
    let report = RecordingReport()
    let desks = CountingCatalog(["desk": 5, "deskmat": 2])
    let outcome = try root(desks, report, FakeOrders()).place(Cart(["dsk": 1, "pne": 1]))
    #expect(outcome == .unknown(["dsk", "pne"], suggestions: ["dsk": "desk"]))
    #expect(desks.asked == ["dsk", "pne"])
  }

  /// A batch asks once per distinct unknown SKU in a group, whatever the number of lines.
  @Test func aBatchSuggestsOnEveryLineAndAsksOncePerSKU() throws {
    let report = RecordingReport()
    let catalog = CountingCatalog(["pen": 30, "lamp": 190])
    let orders = FakeOrders()
    let place = root(catalog, report, orders)
    let carts = [
      try Cart(["pne": 1]), try Cart(["pen": 1]), try Cart(["pne": 2, "chair": 1]),
      try Cart(["lmap": 1]), try Cart(["pne": 1]), try Cart(["chair": 1]),
    ]
    let requests = carts.enumerated().map {
      Request(line: $0.offset + 1, cart: .success($0.element))
    }
    #expect(try place.place(requests).rejected == 5)
    #expect(
      report.outcomes.map(\.outcome).dropFirst(2) == [
        .unknown(["pne", "chair"], suggestions: ["pne": "pen"]),
        .unknown(["lmap"], suggestions: ["lmap": "lamp"]),
        .unknown(["pne"], suggestions: ["pne": "pen"]), .unknown(["chair"]),
      ])
    #expect(report.outcomes.first?.outcome == .unknown(["pne"], suggestions: ["pne": "pen"]))
    #expect(catalog.asked == ["pne", "chair", "lmap"])
    #expect(orders.saved.count == 1)
    // The next group asks again: the catalog is asked, never a cache older than the group.
    _ = try place.place([Request(line: 7, cart: .success(try Cart(["pne": 1])))])
    #expect(catalog.asked == ["pne", "chair", "lmap", "pne"])
  }

  /// The default, for a catalog that keeps only `entries`: sorted by SKU, so a tie goes to the
  /// SKU first in byte order.
  @Test func theDefaultSearchesTheEntriesInOrder() {
    let catalog = FakeCatalog(prices: ["pen": 30, "pan": 1, "lamp": 190])
    #expect(catalog.suggestion(for: "pxn") == "pan")
    #expect(catalog.suggestion(for: "lam") == "lamp")
    #expect(catalog.suggestion(for: "chair") == nil)
    #expect(FakeCatalog(prices: [:]).suggestion(for: "pen") == nil)
  }
}
