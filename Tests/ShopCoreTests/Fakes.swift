import ShopCore

/// Prices from a dictionary.
struct FakeCatalog: Catalog {
  let prices: [String: Int]

  func price(of sku: String) -> Int? { prices[sku] }

  var entries: [(sku: String, price: Int)] {
    prices.sorted { $0.key < $1.key }.map { (sku: $0.key, price: $0.value) }
  }
}

/// A store in an array that records each call, so tests can see one save per group.
final class FakeOrders: Orders {
  private(set) var saved: [Order] = []
  private(set) var saveCalls = 0

  func place(_ drafts: [Draft]) throws -> [Placement] {
    saveCalls += 1
    let plan = Placement.plan(drafts, after: saved.last?.number) { reference in
      saved.first { $0.reference == reference }
    }
    guard let plan else { throw FakeStoreFull() }
    saved += plan.new
    return plan.placements
  }
}

struct FakeStoreFull: Error {}

/// A report that writes down what it is told.
final class RecordingReport: Report {
  private(set) var outcomes: [(outcome: Outcome, line: Int?)] = []
  private(set) var flushes = 0

  func report(_ outcome: Outcome, line: Int?) {
    outcomes.append((outcome, line))
  }

  func flush() throws {
    flushes += 1
  }
}

/// A report that says nothing, as the quiet app's report says nothing of placed orders.
final class SilentReport: Report {
  func report(_ outcome: Outcome, line: Int?) {}
  func flush() throws {}
}

struct FixedClock: WallClock {
  let time: Timestamp

  func now() -> Timestamp { time }
}

extension Cart {
  /// A cart from literal items, for tests; duplicates add up as in the real syntax.
  init(_ items: KeyValuePairs<String, Int>) throws {
    self.init()
    for (sku, quantity) in items { try add(Item(sku: sku, quantity: quantity)) }
  }
}
