import ShopCore
import ShopTestSupport
import Testing

struct ReferenceTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ items: [(String, Int, Int)], ref: String? = nil) throws -> Draft {
    let lines = items.map { OrderLine(sku: $0.0, quantity: $0.1, price: $0.2) }
    return try #require(
      Draft(lines: lines, placedAt: time, reference: ref.flatMap { Reference($0) }))
  }

  @Test(arguments: [
    ("a", true), ("web-5512", true), ("A.b_c:d/e-9", true),
    (String(repeating: "x", count: 64), true),
    ("", false), (String(repeating: "x", count: 65), false), ("web 5512", false), ("@web", false),
    ("café", false), ("a\"b", false), ("a\\b", false), ("a,b", false), ("a\nb", false),
    ("a=b", false), ("#1", false),
  ])
  func aReferenceIsOneTo64SafeBytes(text: String, valid: Bool) {
    #expect((Reference(text) != nil) == valid, "\(text)")
    #expect(Reference.isValid(Array(text.utf8)) == valid)
  }

  @Test func sameItemsMeansSameSKUsAndQuantitiesInAnyOrderWhateverThePrices() throws {
    let saved = Order(number: 1005, draft: try draft([("pen", 2, 30), ("lamp", 1, 190)]))
    #expect(try draft([("lamp", 1, 190), ("pen", 2, 30)]).hasSameItems(as: saved))
    #expect(try draft([("pen", 2, 31), ("lamp", 1, 1)]).hasSameItems(as: saved))
    #expect(try draft([("pen", 1, 30), ("lamp", 1, 190), ("pen", 1, 30)]).hasSameItems(as: saved))
    #expect(try !draft([("pen", 2, 30)]).hasSameItems(as: saved))
    #expect(try !draft([("pen", 3, 30), ("lamp", 1, 190)]).hasSameItems(as: saved))
    #expect(try !draft([("pen", 2, 30), ("lamp", 1, 190), ("ink", 1, 7)]).hasSameItems(as: saved))
    #expect(try !draft([("pen", 2, 30), ("lamp", 2, 190)]).hasSameItems(as: saved))
    #expect(try !draft([("Pen", 2, 30), ("lamp", 1, 190)]).hasSameItems(as: saved))
  }

  @Test func aPlanNumbersOnlyNewRefsAndAnswersRepeatsWithTheirOrder() throws {
    let held = Order(number: 1003, draft: try draft([("pen", 1, 30)], ref: "old"))
    let drafts = [
      try draft([("pen", 1, 30)], ref: "a"),
      try draft([("pen", 1, 30)]),
      try draft([("pen", 1, 30)], ref: "a"),
      try draft([("pen", 2, 30)], ref: "a"),
      try draft([("pen", 1, 30)], ref: "old"),
      try draft([("lamp", 1, 190)], ref: "old"),
      try draft([("pen", 1, 30)], ref: "b"),
    ]
    var asked: [String] = []
    let plan = try #require(
      Placement.plan(drafts, after: 1004) { reference in
        asked.append(reference.text)
        return reference.text == "old" ? held : nil
      })
    #expect(plan.new.map(\.number) == [1005, 1006, 1007])
    #expect(plan.new.map { $0.reference?.text } == ["a", nil, "b"])
    let a = plan.new[0]
    #expect(
      plan.placements == [
        .placed(a), .placed(plan.new[1]), .alreadyPlaced(a), .conflict(a), .alreadyPlaced(held),
        .conflict(held), .placed(plan.new[2]),
      ])
    #expect(asked == ["a", "old", "b"], "each ref is looked up in the store once")
  }

  @Test func aPlanThatRunsOutOfNumbersIsNil() throws {
    let drafts = [try draft([("pen", 1, 30)], ref: "a"), try draft([("pen", 1, 30)], ref: "b")]
    #expect(Placement.plan(drafts, after: Int.max - 1) { _ in nil } == nil)
    let held = Order(number: 1001, draft: drafts[0])
    let plan = Placement.plan([drafts[0]], after: Int.max) { _ in held }
    #expect(plan?.placements == [.alreadyPlaced(held)], "a repeat needs no number")
  }

  @Test func aRepeatedRefIsReportedAsAlreadyPlacedOrRefusedAndCounted() throws {
    let report = RecordingReport()
    let orders = FakeOrders()
    let root = PlaceOrder(
      catalog: FakeCatalog(prices: ["pen": 30, "lamp": 190]), orders: orders,
      clock: FixedClock(time: time), report: report)
    let web = try #require(Reference("web-5512"))
    let pen = try Cart.Item(sku: "pen", quantity: 2)
    var cart = Cart()
    try cart.add(pen)
    let first = try root.place(cart, reference: web)
    guard case .placed(let order) = first else {
      Issue.record("not placed: \(first)")
      return
    }
    #expect(try root.place(cart, reference: web) == .alreadyPlaced(order))
    var other = Cart()
    try other.add(Cart.Item(sku: "lamp", quantity: 1))
    #expect(try root.place(other, reference: web) == .conflict(web, order))
    let rejected = try root.place([
      Request(line: 1, cart: .success(cart), reference: web),
      Request(line: 2, cart: .success(other), reference: web),
      Request(line: 3, cart: .success(other)),
    ])
    #expect(rejected.rejected == 1, "only the conflict is rejected")
    #expect(orders.saved.map(\.number) == [1001, 1002])
  }

  /// A line that can't be priced (an unknown SKU, a total too large) is answered as if it had
  /// come alone when only a later line of its group placed its ref: the later line is the
  /// repeat. An order that held the ref before the group, or from an earlier line, counts.
  @Test func aLineIsNeverTheRepeatOfAnOrderALaterLinePlaced() throws {
    let report = RecordingReport()
    let root = PlaceOrder(
      catalog: FakeCatalog(prices: ["pen": 30, "gold": .max]), orders: FakeOrders(),
      clock: FixedClock(time: time), report: report)
    let ref = { (text: String) in try #require(Reference(text)) }
    let chair = try Cart(["chair": 1])
    let pen = try Cart(["pen": 1])
    let gold = try Cart(["gold": 2])
    let group = try root.place([
      Request(line: 1, cart: .success(chair), reference: ref("c1")),
      Request(line: 2, cart: .success(gold), reference: ref("c2")),
      Request(line: 3, cart: .success(pen), reference: ref("c1")),
      Request(line: 4, cart: .success(pen), reference: ref("c2")),
      Request(line: 5, cart: .success(chair), reference: ref("c1")),
    ])
    let outcomes = report.outcomes.map(\.outcome)
    guard outcomes.count == 5, case .placed(let c1) = outcomes[2],
      case .placed(let c2) = outcomes[3]
    else {
      Issue.record("\(outcomes)")
      return
    }
    #expect(outcomes[0] == .unknown(["chair"], suggestions: [:]))
    #expect(outcomes[1] == .tooLarge)
    #expect(outcomes[4] == .conflict(try ref("c1"), c1), "an earlier line placed it")
    #expect(group.rejected == 3)
    // The next group finds both refs held from before it.
    _ = try root.place([
      Request(line: 6, cart: .success(chair), reference: ref("c1")),
      Request(line: 7, cart: .success(gold), reference: ref("c2")),
    ])
    #expect(
      report.outcomes.suffix(2).map(\.outcome) == [
        .conflict(try ref("c1"), c1), .conflict(try ref("c2"), c2),
      ])
  }
}
