import ShopCore

// The fakes every test target shares: the ports of ShopCore, each as small as it can be.

/// Prices from a dictionary.
public struct FakeCatalog: Catalog {
  public let prices: [String: Int]

  public init(prices: [String: Int]) {
    self.prices = prices
  }

  public func price(of sku: String) -> Int? { prices[sku] }

  public var entries: [(sku: String, price: Int)] {
    prices.sorted { $0.key < $1.key }.map { (sku: $0.key, price: $0.value) }
  }
}

/// A store in an array that records each call, so tests can see one save per group.
public final class FakeOrders: Orders {
  public private(set) var saved: [Order] = []
  public private(set) var saveCalls = 0

  public init() {}

  /// Numbers and checks references by the core's own rule, ``Placement/plan``: the fake
  /// repeats no rule.
  public func place(_ drafts: [Draft]) throws -> [Placement] {
    saveCalls += 1
    let plan = Placement.plan(drafts, after: saved.last?.number) { reference in
      saved.first { $0.reference == reference }
    }
    guard let plan else { throw FakeStoreFull() }
    saved += plan.new
    return plan.placements
  }

  public func order(holding reference: Reference) -> Order? {
    saved.first { $0.reference == reference }
  }
}

extension FakeOrders: OrderVoids {
  /// Voids by the core's own rule, ``VoidOutcome/plan(_:target:holding:)``, and numbers the
  /// void as any record: the fake repeats no rule.
  public func void(_ draft: Draft) throws -> VoidOutcome {
    var voidedBy: [Int: Int] = [:]
    for record in saved { if let voided = record.voids { voidedBy[voided] = record.number } }
    func marked(_ order: Order) -> Order { order.voided(by: voidedBy[order.number]) }
    let target = saved.first { $0.number == draft.voids }.map(marked)
    let holding = draft.reference.flatMap { reference in
      saved.first { $0.reference == reference }.map(marked)
    }
    if let decided = VoidOutcome.plan(draft, target: target, holding: holding) { return decided }
    guard case .placed(let void) = try place([draft]).first else { throw FakeStoreFull() }
    return .voided(void)
  }
}

extension FakeOrders: OrderHistory {
  /// Every record, each order a void took back marked with it: the only form the fake gives;
  /// every other form of the history is the port's default.
  public func readAll(_ visit: (Order) throws -> Void) throws {
    var voidedBy: [Int: Int] = [:]
    for record in saved { if let voided = record.voids { voidedBy[voided] = record.number } }
    for record in saved { try visit(record.voided(by: voidedBy[record.number])) }
  }
}

/// A void report that writes down what it is told.
public final class RecordingVoidReport: VoidReport {
  public private(set) var outcomes: [VoidOutcome] = []
  public private(set) var flushes = 0

  public init() {}

  public func report(_ outcome: VoidOutcome) {
    outcomes.append(outcome)
  }

  public func flush() throws {
    flushes += 1
  }
}

public struct FakeStoreFull: Error {
  public init() {}
}

/// A report that writes down what it is told.
public final class RecordingReport: Report {
  public private(set) var outcomes: [(outcome: Outcome, line: Int?)] = []
  public private(set) var flushes = 0

  public init() {}

  public func report(_ outcome: Outcome, line: Int?) {
    outcomes.append((outcome, line))
  }

  public func flush() throws {
    flushes += 1
  }
}

/// A report that says nothing, as the quiet app's report says nothing of placed orders.
public final class SilentReport: Report {
  public init() {}
  public func report(_ outcome: Outcome, line: Int?) {}
  public func flush() throws {}
}

/// A clock that always says the same time.
public struct FixedClock: WallClock, CustomStringConvertible {
  public let time: Timestamp

  public init(time: Timestamp) {
    self.time = time
  }

  public func now() -> Timestamp { time }

  public var description: String { "fixed clock at \(time.secondsSince1970) s (a test's)" }
}

extension Cart {
  /// A cart from literal items, for tests; duplicates add up as in the real syntax.
  public init(_ items: KeyValuePairs<String, Int>) throws {
    self.init()
    for (sku, quantity) in items { try add(Item(sku: sku, quantity: quantity)) }
  }
}
