import ShopCore

// Over 300 lines on purpose: one job, the promises of the store ports, each a check on a
// fresh store; split, a promise and the words that name it would be read in different files.

/// The promises of ``Orders``, ``OrderHistory`` and ``OrderVoids``, checked on any store or
/// fake: the memory store, the file store and PostgreSQL run it in ShopAdaptersTests, and
/// ShopCoreTests runs it on a minimal store (only `place` and `readAll`, every other form the
/// port's default) and on broken ones, which it must catch.
///
/// Each promise is checked on a fresh store from `fresh`; `reopened` gives another instance of
/// the same store (a new `FileOrders` on the same path, a new connection), so "held forever"
/// is checked across instances, not only in one object's memory. A check returns what it
/// found broken, each failure naming its ``Promise``, rather than recording issues itself:
/// a test of a broken store asserts which promise failed.
public enum StoreContract {
  /// What a store promises.
  public enum Promise: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A fresh store holds nothing, and every form says so.
    case empty = "an empty store has no orders"
    /// Orders are numbered from ``Order/firstNumber`` up by one, in the order placed, across
    /// groups; each is saved as its draft was (items, total, ref), at its time or raised to
    /// the order before it by at most ``Timestamp/maximumRaise``.
    case numbering = "numbers run from the first number up by one"
    /// A ref is held by one order at most, forever: placing it again, in a later call or in
    /// the same group, answers the order that holds it (already placed, or a conflict when
    /// the items differ) and saves nothing.
    case referenceHeldOnce = "a ref is held at most once, forever"
    /// `readAll` visits every order placed, oldest first, as `place` returned it.
    case history = "the history is every order, in order"
    case count = "count is the number of orders"
    /// `last(n)` is the last n of `readAll`, oldest first; none for n of 0 or less.
    case last = "last N are the newest N, oldest first"
    case byNumber = "an order is found by its number, and only by it"
    case byReference = "an order is found by its ref, and only by it"
    /// `orders(in:last:)` is `readAll` filtered by ``TimeRange/contains(_:)`` (the start in,
    /// the end out), whatever order the times are in; with `last`, the newest of those.
    case ranges = "a range is the history filtered by time"
    /// `summary(of:by:)` is ``SummaryTally`` over the orders of the range.
    case summary = "a summary sums the orders of its range"
    /// ``OrderVoids/void(_:)`` follows ``VoidOutcome/plan(_:target:holding:)``: a void is a
    /// record numbered as any, the order it names is marked, a rerun answers the same, a void
    /// of a void, of no order or under a ref held by another record saves nothing.
    case voids = "voids are records and follow the core's rule"

    public var description: String { rawValue }
  }

  /// A promise a store broke, and how.
  public struct Failure: Equatable, Sendable, CustomStringConvertible {
    public let promise: Promise
    public let detail: String

    public var description: String { "\(promise): \(detail)" }
  }

  /// Checks every promise of ``Orders`` and ``OrderHistory``.
  /// - Returns: what the store broke; empty when it kept every promise.
  public static func check<Store: Orders & OrderHistory>(
    fresh: () throws -> Store, reopened: (Store) throws -> Store = { $0 }
  ) -> [Failure] {
    var failures: [Failure] = []
    for promise in Promise.allCases where promise != .voids {
      failures += run(promise) { checker in
        let store = try fresh()
        try checker.check(promise, store, reopened: { try reopened(store) })
      }
    }
    return failures
  }

  /// Checks the promises of ``OrderVoids`` (and those of ``check(fresh:reopened:)``).
  public static func checkWithVoids<Store: Orders & OrderHistory & OrderVoids>(
    fresh: () throws -> Store, reopened: (Store) throws -> Store = { $0 }
  ) -> [Failure] {
    check(fresh: fresh, reopened: reopened)
      + run(.voids) { checker in
        let store = try fresh()
        try checker.voids(store, reopened: { try reopened(store) })
      }
  }

  private static func run(_ promise: Promise, _ body: (Checker) throws -> Void) -> [Failure] {
    let checker = Checker(promise)
    do {
      try body(checker)
    } catch {
      checker.fail("threw \(error)")
    }
    return checker.failures
  }

  /// 2026-12-01T09:26:43Z, the contract's first order time.
  static let start: Int64 = 1_796_117_203

  /// Prices every draft is made with.
  static let prices = ["pen": 30, "lamp": 190, "ink": 7]
}

/// Collects the failures of one promise.
private final class Checker {
  let promise: StoreContract.Promise
  var failures: [StoreContract.Failure] = []

  init(_ promise: StoreContract.Promise) {
    self.promise = promise
  }

  func fail(_ detail: String) {
    failures.append(StoreContract.Failure(promise: promise, detail: detail))
  }

  func expect(_ condition: Bool, _ detail: @autoclosure () -> String) {
    if !condition { fail(detail()) }
  }

  func check<Store: Orders & OrderHistory>(
    _ promise: StoreContract.Promise, _ store: Store, reopened: () throws -> Store
  ) throws {
    switch promise {
    case .empty: try empty(store)
    case .numbering: try numbering(store)
    case .referenceHeldOnce: try referenceHeldOnce(store, reopened: reopened)
    case .history, .count, .last, .byNumber, .byReference:
      let placed = try placeVaried(store)
      try reads(promise, store, placed: placed)
      try reads(promise, reopened(), placed: placed)
    case .ranges: try ranges(store)
    case .summary: try summary(store)
    case .voids: break
    }
  }

  // MARK: - Drafts

  func draft(_ items: KeyValuePairs<String, Int>, at seconds: Int64, ref: String? = nil) throws
    -> Draft
  {
    let lines = items.map { sku, quantity in
      OrderLine(sku: sku, quantity: quantity, price: StoreContract.prices[sku] ?? 1)
    }
    guard
      let draft = Draft(
        lines: lines, placedAt: Timestamp(secondsSince1970: StoreContract.start + seconds),
        reference: ref.flatMap { Reference($0) })
    else { throw ContractError("a contract draft does not fit") }
    return draft
  }

  func all(_ store: some OrderHistory) throws -> [Order] {
    var orders: [Order] = []
    try store.readAll { orders.append($0) }
    return orders
  }

  /// The orders of `placements` saved now, in order.
  func placed(_ placements: [Placement]) -> [Order] {
    placements.compactMap {
      if case .placed(let order) = $0 { return order }
      return nil
    }
  }

  /// Whether `order` is `draft` as a store saves it: its items, total and ref, at its time
  /// or raised by at most the bound.
  func saves(_ draft: Draft, as order: Order) -> Bool {
    let raised = order.placedAt.secondsSince1970 - draft.placedAt.secondsSince1970
    return order.lines == draft.lines && order.total == draft.total
      && order.reference == draft.reference && order.voids == draft.voids
      && (0...Timestamp.maximumRaise).contains(raised)
  }

  // MARK: - Promises

  func empty(_ store: some Orders & OrderHistory) throws {
    let read = try all(store)
    expect(read.isEmpty, "readAll visited \(read.map(\.number))")
    let count = try store.count()
    expect(count == 0, "count is \(count)")
    var visited = 0
    try store.last(3) { _ in visited += 1 }
    try store.orders(in: .all, last: nil) { _ in visited += 1 }
    try store.orders(in: .all, last: 2) { _ in visited += 1 }
    expect(visited == 0, "last or a range visited \(visited) orders")
    expect(try !store.order(numbered: Order.firstNumber) { _ in }, "found order 1001")
    let reference = try Reference("contract").orThrow()
    expect(try !store.order(referenced: reference) { _ in }, "found a ref")
    expect(try store.order(holding: reference) == nil, "holds a ref")
    expect(
      try store.summary(of: .all, by: .sku) == Summary(totals: Summary.Totals()),
      "the summary is not zero")
  }

  func numbering(_ store: some Orders & OrderHistory) throws {
    let groups = [
      [try draft(["pen": 1], at: 0)],
      [
        try draft(["lamp": 2], at: 1), try draft(["pen": 3, "ink": 1], at: 1),
        try draft(["ink": 9], at: 1),
      ],
      [],
      [try draft(["lamp": 1], at: 2)],
    ]
    var expected = Order.firstNumber
    var saved: [Order] = []
    for group in groups {
      let placements = try store.place(group)
      expect(placements.count == group.count, "\(group.count) drafts, \(placements.count) placed")
      for (draft, placement) in zip(group, placements) {
        guard case .placed(let order) = placement else {
          fail("a draft without a ref was not placed: \(placement)")
          continue
        }
        expect(order.number == expected, "order \(order.number) where \(expected) was next")
        expect(saves(draft, as: order), "order \(order.number) is not its draft: \(order)")
        expected = order.number + 1
        saved.append(order)
      }
    }
    let read = try all(store)
    expect(read == saved, "read back \(read.map(\.number)), placed \(saved.map(\.number))")
  }

  func referenceHeldOnce<Store: Orders & OrderHistory>(
    _ store: Store, reopened: () throws -> Store
  ) throws {
    let a = try Reference("web-a").orThrow()
    let first = try store.place([try draft(["pen": 2], at: 0, ref: "web-a")])
    guard case .placed(let held)? = first.first else {
      fail("a new ref was not placed: \(first)")
      return
    }
    // Again, alone: the same items answer the order, other items conflict.
    let again = try store.place([try draft(["pen": 1, "pen": 1], at: 5, ref: "web-a")])
    expect(again == [.alreadyPlaced(held)], "the same ref again gave \(again)")
    let other = try store.place([try draft(["lamp": 1], at: 6, ref: "web-a")])
    expect(other == [.conflict(held)], "the ref with other items gave \(other)")
    // In one group: the first of a new ref is placed, its repeats answered by it; a ref held
    // before the group is answered by its order; the other drafts are numbered on.
    let group = [
      try draft(["ink": 1], at: 7, ref: "web-b"),
      try draft(["ink": 1], at: 7, ref: "web-b"),
      try draft(["pen": 1], at: 7, ref: "web-a"),
      try draft(["lamp": 1], at: 7),
      try draft(["ink": 2], at: 7, ref: "web-b"),
      try draft(["ink": 1], at: 7, ref: "WEB-B"),
    ]
    let placements = try store.place(group)
    let new = placed(placements)
    expect(
      new.map(\.number) == [held.number + 1, held.number + 2, held.number + 3],
      "the group placed \(new.map(\.number))")
    if new.count == 3 {
      let b = new[0]
      expect(
        placements == [
          .placed(b), .alreadyPlaced(b), .conflict(held), .placed(new[1]), .conflict(b),
          .placed(new[2]),
        ],
        "the group gave \(placements)")
    }
    // Later, and from another instance of the store: still held, by the same order.
    for (name, instance) in [("this", store), ("a reopened", try reopened())] {
      let later = try instance.place([try draft(["pen": 2], at: 9, ref: "web-a")])
      expect(later == [.alreadyPlaced(held)], "\(name) store placed web-a again: \(later)")
      let holding = try instance.order(holding: a)
      expect(holding == held, "\(name) store: web-a is held by \(String(describing: holding))")
    }
    let numbers = try all(store).map(\.number)
    expect(numbers == Array(held.number...(held.number + 3)), "the store holds \(numbers)")
    let holders = try all(store).filter { $0.reference == a }
    expect(holders.count == 1, "\(holders.count) orders hold web-a")
  }

  /// Ten orders in four groups, at times that repeat and step back (by more than the bound,
  /// so a store keeps them, and by less, so a store may raise them), three with refs.
  func placeVaried(_ store: some Orders & OrderHistory) throws -> [Order] {
    let groups = [
      [try draft(["pen": 1], at: 0, ref: "r-1"), try draft(["lamp": 1], at: 0)],
      [try draft(["ink": 3], at: 3600), try draft(["pen": 7], at: 3600 - 1000, ref: "r-2")],
      [try draft(["lamp": 2], at: 3600 - 1000), try draft(["pen": 1, "ink": 1], at: 7200)],
      [
        try draft(["ink": 1], at: 7200 - 100),
        try draft(["lamp": 1, "pen": 2], at: 86400, ref: "r-3"),
        try draft(["pen": 4], at: 86400), try draft(["ink": 5], at: 86400 + 1),
      ],
    ]
    var orders: [Order] = []
    for group in groups { orders += placed(try store.place(group)) }
    guard orders.count == 10 else { throw ContractError("placed \(orders.count) of 10 orders") }
    return orders
  }

  func reads(_ promise: StoreContract.Promise, _ store: some OrderHistory, placed: [Order]) throws {
    switch promise {
    case .history:
      let read = try all(store)
      expect(read == placed, "read \(read.map(\.number)), placed \(placed.map(\.number))")
    case .count:
      let count = try store.count()
      expect(count == placed.count, "count \(count) of \(placed.count)")
    case .last:
      for count in [-1, 0, 1, 2, 9, 10, 11, Int.max] {
        var read: [Int] = []
        try store.last(count) { read.append($0.number) }
        let expected = placed.suffix(max(0, min(count, placed.count))).map(\.number)
        expect(read == expected, "last(\(count)) read \(read), not \(expected)")
      }
    case .byNumber:
      for order in placed {
        var found: [Order] = []
        let answered = try store.order(numbered: order.number) { found.append($0) }
        expect(answered && found == [order], "order \(order.number) found \(found.map(\.number))")
      }
      let last = placed.last?.number ?? Order.firstNumber
      for number in [Order.firstNumber - 1, 0, -1, last + 1, last + 1000, Int.max, Int.min] {
        var found: [Order] = []
        let answered = try store.order(numbered: number) { found.append($0) }
        expect(!answered && found.isEmpty, "order \(number) was found: \(found.map(\.number))")
      }
    case .byReference:
      for order in placed {
        guard let reference = order.reference else { continue }
        var found: [Order] = []
        let answered = try store.order(referenced: reference) { found.append($0) }
        expect(answered && found == [order], "\(reference) found \(found.map(\.number))")
      }
      for text in ["r-4", "R-1", "r-1x", "r"] {
        var found: [Order] = []
        let answered = try store.order(referenced: try Reference(text).orThrow()) {
          found.append($0)
        }
        expect(!answered && found.isEmpty, "\(text) was found: \(found.map(\.number))")
      }
    case .empty, .numbering, .referenceHeldOnce, .ranges, .summary, .voids: break
    }
  }

  /// The ends of the ranges checked: every order time, a second either side, and open.
  func bounds(_ orders: [Order]) -> [Timestamp?] {
    let times = Set(
      orders.flatMap { order in
        [-1, 0, 1].map { order.placedAt.secondsSince1970 + $0 }
      })
    return [nil] + times.sorted().map { Timestamp(secondsSince1970: $0) }
  }

  func ranges(_ store: some Orders & OrderHistory) throws {
    _ = try placeVaried(store)
    let orders = try all(store)
    let bounds = bounds(orders)
    for since in bounds {
      for until in bounds {
        let range = TimeRange(since: since, until: until)
        let expected = orders.filter { range.contains($0.placedAt) }.map(\.number)
        for last in [nil, 0, 2, 100] as [Int?] {
          var read: [Int] = []
          try store.orders(in: range, last: last) { read.append($0.number) }
          let want = last.map { Array(expected.suffix(max(0, $0))) } ?? expected
          expect(
            read == want,
            "since \(since?.secondsSince1970 ?? 0) until \(until?.secondsSince1970 ?? 0) last "
              + "\(last ?? -1): read \(read), not \(want)")
        }
      }
    }
  }

  func summary(_ store: some Orders & OrderHistory) throws {
    _ = try placeVaried(store)
    let orders = try all(store)
    let times = orders.map(\.placedAt)
    let ranges =
      [TimeRange.all]
      + times.prefix(6).map { TimeRange(since: $0, until: nil) }
      + times.suffix(4).map { TimeRange(since: nil, until: $0) }
      + [TimeRange(since: times.first, until: times.last)]
    for range in ranges {
      for grouping in [Summary.Grouping.none, .day, .sku] {
        var tally = SummaryTally(by: grouping)
        for order in orders where range.contains(order.placedAt) { try tally.add(order) }
        let summary = try store.summary(of: range, by: grouping)
        expect(
          summary == tally.summary, "\(grouping) over \(range): \(summary), not \(tally.summary)")
      }
    }
  }

  // MARK: - Voids

  func voids<Store: Orders & OrderHistory & OrderVoids>(
    _ store: Store, reopened: () throws -> Store
  ) throws {
    let orders = placed(
      try store.place([
        try draft(["pen": 2], at: 0, ref: "web-1"), try draft(["lamp": 1], at: 0),
        try draft(["pen": 1, "lamp": 2], at: 0),
      ]))
    guard orders.count == 3 else { throw ContractError("placed \(orders.count) of 3 orders") }
    let (first, second, third) = (orders[0], orders[1], orders[2])
    func void(_ number: Int, ref: String? = nil) throws -> VoidOutcome {
      try store.void(
        Draft(
          voiding: number, placedAt: Timestamp(secondsSince1970: StoreContract.start + 60),
          reference: ref.flatMap { Reference($0) }))
    }
    guard case .voided(let record) = try void(second.number) else {
      fail("a void of order \(second.number) was not saved")
      return
    }
    expect(
      record.number == third.number + 1 && record.voids == second.number && record.lines.isEmpty
        && record.total == 0,
      "the void is \(record)")
    let marked = second.voided(by: record.number)
    expect(try void(second.number) == .alreadyVoid(marked), "a second void of \(second.number)")
    expect(try void(record.number) == .notAnOrder(record), "a void of the void \(record.number)")
    for number in [Order.firstNumber - 1, record.number + 1, Int.max, Int.min] {
      expect(try void(number) == .noOrder(number), "a void of \(number), which is no order")
    }
    // A ref: the rerun answers as the run that saved it; another record's ref conflicts.
    guard case .voided(let undo) = try void(third.number, ref: "undo-1") else {
      fail("a void with a ref was not saved")
      return
    }
    let thirdMarked = third.voided(by: undo.number)
    expect(try void(third.number, ref: "undo-1") == .alreadyVoid(thirdMarked), "a rerun")
    let undoRef = try Reference("undo-1").orThrow()
    expect(try void(first.number, ref: "undo-1") == .conflict(undoRef, undo), "undo-1 again")
    let web = try Reference("web-1").orThrow()
    expect(try void(first.number, ref: "web-1") == .conflict(web, first), "an order's ref")
    // Read back, from this instance and another: records in order, the voided marked.
    let expected = [first, marked, thirdMarked, record, undo]
    for instance in [store, try reopened()] {
      let read = try all(instance)
      expect(read == expected, "read \(read), not \(expected)")
      var found: [Order] = []
      _ = try instance.order(numbered: second.number) { found.append($0) }
      expect(found == [marked], "order \(second.number) is not marked voided: \(found)")
      let count = try instance.count()
      expect(count == 5, "count \(count) of 5 records")
      // A voided order is counted as voided on its day, in no sum.
      var tally = SummaryTally(by: .day)
      for order in read { try tally.add(order) }
      let summary = try instance.summary(of: .all, by: .day)
      expect(
        summary == tally.summary && summary.totals.voided == 2,
        "the summary is \(summary), not \(tally.summary)")
    }
    // The numbering goes on after the voids.
    let next = try store.place([try draft(["ink": 1], at: 120)])
    expect(next.first?.order.number == undo.number + 1, "the next order is \(next)")
  }
}

/// The contract could not run its checks: the store broke something earlier.
struct ContractError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension Optional {
  fileprivate func orThrow() throws -> Wrapped {
    guard let self else { throw ContractError("a contract value is nil") }
    return self
  }
}
