import ShopCore
import ShopTestSupport
import Testing

/// Numbering (from 1001 up by one, no gap, no repeat) and references (which bytes, held once)
/// as ``Placement/plan(_:after:placedAt:existing:)`` applies them for every store.
struct NumberingAndReferenceTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ quantity: Int = 1, ref: String? = nil) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: quantity, price: 30)], placedAt: time,
        reference: ref.flatMap { Reference($0) }))
  }

  @Test(arguments: [
    (Int?.none, Int?.some(1001)), (1001, 1002), (1002, 1003), (4711, 4712),
    (Int.max - 1, Int.max), (Int.max, nil),
  ])
  func theNextNumberFollowsTheLastByOne(last: Int?, next: Int?) {
    #expect(Order.number(after: last) == next)
    if let next { #expect(Order.isNumber(next, after: last)) }
  }

  /// Only the drafts that are placed take numbers, in turn, from the one after the last; a
  /// group of nothing but repeats uses none, and the next group goes on from the same last.
  @Test func onlyPlacedDraftsTakeNumbersWithNoGap() throws {
    let held = Order(number: 1001, draft: try draft(ref: "held"))
    let existing = { (reference: Reference) in reference.text == "held" ? held : nil }
    let empty = try #require(Placement.plan([], after: nil, existing: existing))
    #expect(empty.placements.isEmpty && empty.new.isEmpty)
    let repeats = try #require(
      Placement.plan(
        [try draft(ref: "held"), try draft(2, ref: "held")], after: 1001, existing: existing))
    #expect(repeats.new.isEmpty)
    #expect(repeats.placements == [.alreadyPlaced(held), .conflict(held)])
    let mixed = try #require(
      Placement.plan(
        [
          try draft(), try draft(ref: "held"), try draft(ref: "new"), try draft(),
          try draft(ref: "new"),
        ],
        after: 1001, existing: existing))
    #expect(mixed.new.map(\.number) == [1002, 1003, 1004])
    #expect(mixed.placements.map(\.order.number) == [1002, 1001, 1003, 1004, 1003])
    let first = try #require(Placement.plan([try draft(), try draft()], after: nil) { _ in nil })
    #expect(first.new.map(\.number) == [1001, 1002])
  }

  /// Each byte alone, all 256: a ref takes letters, digits, `-`, `_`, `.`, `:` and `/`; a SKU
  /// the same but `:` and `/`.
  @Test func whichBytesARefAndASKUTake() {
    for byte in UInt8.min...UInt8.max {
      let scalar = Unicode.Scalar(byte)
      let alphanumeric =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A)
      let sku = alphanumeric || "-_.".unicodeScalars.contains(scalar)
      let ref = sku || ":/".unicodeScalars.contains(scalar)
      #expect(Reference.isValid([byte]) == ref, "byte \(byte)")
      #expect(SKU.isValid([byte]) == sku, "byte \(byte)")
      #expect((Reference([byte]) != nil) == ref)
      // One bad byte spoils a ref of good ones, wherever it is.
      #expect(Reference.isValid([0x61, byte, 0x62]) == ref)
    }
  }

  /// From 1 to 64 bytes, for a ref and a SKU alike.
  @Test(arguments: [0, 1, 2, 63, 64, 65, 1000])
  func aRefAndASKUAreOneTo64Bytes(length: Int) {
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
    #expect(Reference.isValid(bytes) == (1...64).contains(length))
    #expect(SKU.isValid(bytes) == (1...64).contains(length))
    #expect(Reference.maximumLength == 64 && SKU.maximumLength == 64)
  }

  /// A ref is its bytes: the same text from a string or from bytes is the same ref, a letter
  /// in another case is another ref, and a set holds each ref once.
  @Test func aRefIsItsBytesCaseAndAll() throws {
    let text = try #require(Reference("web-5512"))
    let bytes = try #require(Reference(Array("web-5512".utf8)))
    #expect(text == bytes && text.hashValue == bytes.hashValue)
    #expect(text.text == "web-5512" && text.description == "web-5512")
    #expect(Reference("WEB-5512") != text)
    #expect(Reference("web-5512 ") == nil)
    let set = Set(["a", "b", "a", "A", "b"].compactMap { Reference($0) })
    #expect(set.count == 3)
  }

  /// A group with hundreds of refs, many repeated, against the rule written out plainly: the
  /// first of each ref is placed, every later one is the repeat of it (same quantity) or a
  /// conflict; the table the plan keeps its refs in must never lose or confuse one.
  @Test(arguments: [UInt64(1), 2, 3])
  func aLargeGroupHoldsEachRefOnce(seed: UInt64) throws {
    var random = SplitMix(seed: seed)
    var drafts: [Draft] = []
    for _ in 0..<600 {
      let ref: String? = random.next(below: 5) == 0 ? nil : "r\(random.next(below: 200))"
      drafts.append(try draft(random.next(below: 2) + 1, ref: ref))
    }
    let held = Order(number: 1001, draft: try draft(1, ref: "r7"))
    let plan = try #require(
      Placement.plan(drafts, after: 1001) { $0.text == "r7" ? held : nil })
    var first: [Reference: Order] = [try #require(held.reference): held]
    var next = 1002
    var expected: [Placement] = []
    for draft in drafts {
      if let reference = draft.reference, let order = first[reference] {
        expected.append(
          draft.lines == order.lines ? .alreadyPlaced(order) : .conflict(order))
        continue
      }
      let order = Order(number: next, draft: draft)
      next += 1
      if let reference = draft.reference { first[reference] = order }
      expected.append(.placed(order))
    }
    #expect(plan.placements == expected)
    #expect(plan.new.map(\.number) == Array(1002..<next))
  }

  /// The same items are the same SKUs and quantities, whatever the order of the lines, a SKU
  /// given in parts, or the prices.
  @Test func aRetryIsTheSameItemsOrAConflict() throws {
    let saved = Order(number: 1001, draft: try draft(2, ref: "a"))
    #expect(Placement(retrying: try draft(2, ref: "a"), existing: saved) == .alreadyPlaced(saved))
    #expect(Placement(retrying: try draft(3, ref: "a"), existing: saved) == .conflict(saved))
    let inParts = try #require(
      Draft(
        lines: [
          OrderLine(sku: "pen", quantity: 1, price: 99),
          OrderLine(sku: "pen", quantity: 1, price: 1),
        ],
        placedAt: time, reference: Reference("a")))
    #expect(Placement(retrying: inParts, existing: saved) == .alreadyPlaced(saved))
    #expect(Placement(retrying: inParts, existing: saved).order == saved)
  }
}
