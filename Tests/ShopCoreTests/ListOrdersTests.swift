import ShopCore
import ShopTestSupport
import Testing

/// A listing that writes down what it is told.
final class RecordingListing: Listing {
  private(set) var listed: [Int] = []
  private(set) var missing: [String] = []
  private(set) var counts: [Int] = []
  private(set) var delivered: [Bool] = []

  func list(_ order: Order) { listed.append(order.number) }
  func missing(_ number: Int) { missing.append("\(number)") }
  func missing(reference: Reference) { missing.append(reference.text) }
  func count(_ count: Int) { counts.append(count) }
  func deliver(complete: Bool) { delivered.append(complete) }
}

/// `shop orders`: which orders each selection lists, through a root of fakes.
struct ListOrdersTests {
  let noon: Int64 = 1_796_040_000

  /// Six records: 1001 (ref a, pen), 1002 (lamp), 1003 (pen, lamp), 1004 voids 1002,
  /// 1005 (ink, ref b), 1006 (pen); an hour apart.
  func history() throws -> FakeOrders {
    let orders = FakeOrders()
    let items: [(KeyValuePairs<String, Int>, String?)] = [
      (["pen": 1], "a"), (["lamp": 1], nil), (["pen": 1, "lamp": 1], nil),
    ]
    for (index, (cart, ref)) in items.enumerated() {
      let lines = cart.map { OrderLine(sku: $0.key, quantity: $0.value, price: 30) }
      _ = try orders.place([
        try #require(
          Draft(
            lines: lines, placedAt: Timestamp(secondsSince1970: noon + Int64(index) * 3600),
            reference: ref.flatMap { Reference($0) }))
      ])
    }
    _ = try orders.void(
      Draft(voiding: 1002, placedAt: Timestamp(secondsSince1970: noon + 3 * 3600)))
    for (index, (sku, ref)) in [("ink", "b"), ("pen", nil)].enumerated() {
      _ = try orders.place([
        try #require(
          Draft(
            lines: [OrderLine(sku: sku, quantity: 1, price: 7)],
            placedAt: Timestamp(secondsSince1970: noon + Int64(4 + index) * 3600),
            reference: ref.flatMap { Reference($0) }))
      ])
    }
    return orders
  }

  func run(
    _ selection: OrderSelection, in range: TimeRange = .all, holding sku: String? = nil
  ) throws -> (RecordingListing, Int) {
    let listing = RecordingListing()
    let missing = try ListOrders(history: try history(), listing: listing)
      .run(selection, in: range, holding: sku)
    return (listing, missing)
  }

  func hours(_ since: Int64?, _ until: Int64?) -> TimeRange {
    TimeRange(
      since: since.map { Timestamp(secondsSince1970: noon + $0 * 3600) },
      until: until.map { Timestamp(secondsSince1970: noon + $0 * 3600) })
  }

  @Test func everyFormOverEveryOrder() throws {
    #expect(try run(.all).0.listed == [1001, 1002, 1003, 1004, 1005, 1006])
    #expect(try run(.count).0.counts == [6])
    #expect(try run(.last(2)).0.listed == [1005, 1006])
    #expect(try run(.last(0)).0.listed == [])
    #expect(try run(.last(100)).0.listed.count == 6)
    #expect(try run(.all).0.delivered == [true])
  }

  /// Numbers in the order given, repeats and all; each with no order is told, and counted.
  @Test func numbersAreListedAsGivenAndTheMissingCounted() throws {
    let (listing, missing) = try run(.numbers([1003, 1001, 1003, 999, 1007, Int.max]))
    #expect(listing.listed == [1003, 1001, 1003])
    #expect(listing.missing == ["999", "1007", "\(Int.max)"])
    #expect(missing == 3)
  }

  /// A range and a SKU choose among the forms over every order, never among named ones.
  @Test func aRangeOrASKUDoesNotFilterANamedOrder() throws {
    let range = hours(4, 5)
    #expect(try run(.numbers([1001]), in: range, holding: "ink").0.listed == [1001])
    let (listing, missing) = try run(.reference(try #require(Reference("a"))), in: range)
    #expect(listing.listed == [1001] && missing == 0)
    let (none, notFound) = try run(.reference(try #require(Reference("A"))))
    #expect(none.listed.isEmpty && none.missing == ["A"] && notFound == 1)
  }

  @Test func aRangeListsTheOrdersPlacedInItStartInEndOut() throws {
    #expect(try run(.all, in: hours(1, 3)).0.listed == [1002, 1003])
    #expect(try run(.count, in: hours(1, 3)).0.counts == [2])
    #expect(try run(.last(1), in: hours(1, 3)).0.listed == [1003])
    #expect(try run(.all, in: hours(3, nil)).0.listed == [1004, 1005, 1006])
    #expect(try run(.all, in: hours(nil, 0)).0.listed == [])
    #expect(try run(.count, in: hours(2, 2)).0.counts == [0])
  }

  /// A SKU lists the orders that hold it, voided or not; a void, which holds no item, is none.
  @Test func aSKUListsTheOrdersHoldingIt() throws {
    #expect(try run(.all, holding: "pen").0.listed == [1001, 1003, 1006])
    #expect(try run(.all, holding: "lamp").0.listed == [1002, 1003])
    #expect(try run(.count, holding: "lamp").0.counts == [2])
    #expect(try run(.last(2), holding: "pen").0.listed == [1003, 1006])
    #expect(try run(.last(2), in: hours(0, 3), holding: "pen").0.listed == [1001, 1003])
    #expect(try run(.all, holding: "chair").0.listed == [])
  }
}
