import ShopCore
import ShopTestSupport
import Testing

/// The store contract on the smallest stores there are: one that gives only what a store must
/// (`place` and `readAll`, every other form the port's default), the shared fake, and broken
/// ones, each of which the contract must catch by the promise it breaks.
struct StoreContractTests {
  @Test func aMinimalStoreOnThePortsDefaultsKeepsEveryPromise() {
    let failures = StoreContract.checkWithVoids(fresh: { MinimalStore() })
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func theSharedFakeKeepsEveryPromise() {
    let failures = StoreContract.checkWithVoids(fresh: { FakeOrders() })
    #expect(failures.isEmpty, "\(failures)")
  }

  /// The fake of the issue: it compiles, numbers every draft, and never looks a ref up.
  @Test func aStoreThatIgnoresReferencesFailsTheContractOnThatPromiseAlone() {
    let failures = StoreContract.check(fresh: { MinimalStore(flaw: .ignoresReferences) })
    #expect(Set(failures.map(\.promise)) == [.referenceHeldOnce], "\(failures)")
    #expect(failures.contains { $0.detail.contains("the same ref again gave") })
  }

  /// Each flaw a store could have, and the promise that catches it: a contract that could not
  /// fail would pass them all.
  @Test(arguments: [
    (MinimalStore.Flaw.numbersEachCallFromTheFirst, StoreContract.Promise.numbering),
    (.dropsTheItemsOfAGroupButTheFirst, .numbering),
    (.stampsLaterThanTheBound, .numbering),
    (.forgetsRefsOnReopening, .referenceHeldOnce),
    (.readsNewestFirst, .history),
    (.voidsWithoutTheRule, .voids),
  ])
  func eachBrokenPromiseOfWritingIsCaughtByName(
    flaw: MinimalStore.Flaw, promise: StoreContract.Promise
  ) {
    let failures = StoreContract.checkWithVoids(
      fresh: { MinimalStore(flaw: flaw) }, reopened: { $0.reopened() })
    #expect(failures.contains { $0.promise == promise }, "\(flaw): \(failures)")
  }

  /// A store's own faster form that answers otherwise than the default.
  @Test(arguments: [
    (BrokenReader.Flaw.countsOneShort, StoreContract.Promise.count),
    (.lastNewestFirst, .last),
    (.findsTheNumberBefore, .byNumber),
    (.findsRefsIgnoringCase, .byReference),
    (.rangesKeepTheirEnd, .ranges),
    (.summariesIgnoreTheRange, .summary),
  ])
  func eachBrokenPromiseOfReadingIsCaughtByName(
    flaw: BrokenReader.Flaw, promise: StoreContract.Promise
  ) {
    let failures = StoreContract.checkWithVoids(fresh: { BrokenReader(flaw) })
    #expect(Set(failures.map(\.promise)).contains(promise), "\(flaw): \(failures)")
  }
}

/// A store of what a store must give: `place`, `readAll` and `void`; every other form of
/// ``OrderHistory`` is the port's default. With a flaw, it breaks one promise.
final class MinimalStore: Orders, OrderHistory, OrderVoids {
  enum Flaw: Sendable {
    case none
    case ignoresReferences
    case numbersEachCallFromTheFirst
    case dropsTheItemsOfAGroupButTheFirst
    case stampsLaterThanTheBound
    case forgetsRefsOnReopening
    case readsNewestFirst
    case voidsWithoutTheRule
  }

  private let flaw: Flaw
  /// Shared by the instances of one store, as a file is by the processes that open it.
  private let records: Records

  final class Records {
    var saved: [Order] = []
  }

  init(flaw: Flaw = .none, records: Records = Records()) {
    self.flaw = flaw
    self.records = records
  }

  /// Another instance of the same store; with ``Flaw/forgetsRefsOnReopening``, a copy of its
  /// orders without their refs.
  func reopened() -> MinimalStore {
    guard flaw == .forgetsRefsOnReopening else {
      return MinimalStore(flaw: flaw, records: records)
    }
    let forgetful = Records()
    forgetful.saved = records.saved.map { order in
      let draft =
        order.voids.map { Draft(voiding: $0, placedAt: order.placedAt) }
        ?? Draft(lines: order.lines, placedAt: order.placedAt)
      return draft.map { Order(number: order.number, draft: $0) } ?? order
    }
    return MinimalStore(records: forgetful)
  }

  func place(_ drafts: [Draft]) throws -> [Placement] {
    let last = flaw == .numbersEachCallFromTheFirst ? nil : records.saved.last?.number
    var drafts = drafts
    if flaw == .stampsLaterThanTheBound {
      drafts = drafts.map { draft in
        let late = Timestamp(
          secondsSince1970: draft.placedAt.secondsSince1970 + Timestamp.maximumRaise + 1)
        return Draft(lines: draft.lines, placedAt: late, reference: draft.reference) ?? draft
      }
    }
    if flaw == .dropsTheItemsOfAGroupButTheFirst, drafts.count > 1 {
      drafts =
        [drafts[0]]
        + drafts.dropFirst().map { draft in
          Draft(
            lines: Array(draft.lines.prefix(1)), placedAt: draft.placedAt,
            reference: draft.reference)
            ?? draft
        }
    }
    let plan = Placement.plan(drafts, after: last, placedAt: records.saved.last?.placedAt) {
      reference in
      flaw == .ignoresReferences ? nil : records.saved.first { $0.reference == reference }
    }
    guard let plan else { throw FakeStoreFull() }
    records.saved += plan.new
    return plan.placements
  }

  func readAll(_ visit: (Order) throws -> Void) throws {
    var voidedBy: [Int: Int] = [:]
    for record in records.saved {
      if let voided = record.voids { voidedBy[voided] = record.number }
    }
    let saved = flaw == .readsNewestFirst ? records.saved.reversed() : records.saved
    for record in saved { try visit(record.voided(by: voidedBy[record.number])) }
  }

  func void(_ draft: Draft) throws -> VoidOutcome {
    var target: Order?
    if let number = draft.voids { _ = try order(numbered: number) { target = $0 } }
    var holding: Order?
    if let reference = draft.reference {
      _ = try order(referenced: reference) { holding = $0 }
    }
    if flaw != .voidsWithoutTheRule,
      let decided = VoidOutcome.plan(draft, target: target, holding: holding)
    {
      return decided
    }
    guard case .placed(let void) = try place([draft]).first else { throw FakeStoreFull() }
    return .voided(void)
  }
}

/// A store whose faster forms of reading are its own, each the default of a
/// ``MinimalStore`` but the one its flaw breaks.
final class BrokenReader: Orders, OrderHistory, OrderVoids {
  enum Flaw: Sendable {
    case countsOneShort
    case lastNewestFirst
    case findsTheNumberBefore
    case findsRefsIgnoringCase
    case rangesKeepTheirEnd
    case summariesIgnoreTheRange
  }

  private let flaw: Flaw
  private let store = MinimalStore()

  init(_ flaw: Flaw) {
    self.flaw = flaw
  }

  func place(_ drafts: [Draft]) throws -> [Placement] { try store.place(drafts) }
  func void(_ draft: Draft) throws -> VoidOutcome { try store.void(draft) }
  func readAll(_ visit: (Order) throws -> Void) throws { try store.readAll(visit) }

  func count() throws -> Int {
    let count = try store.count()
    return flaw == .countsOneShort && count > 0 ? count - 1 : count
  }

  func last(_ count: Int, _ visit: (Order) throws -> Void) throws {
    guard flaw == .lastNewestFirst else { return try store.last(count, visit) }
    var newest: [Order] = []
    try store.last(count) { newest.append($0) }
    for order in newest.reversed() { try visit(order) }
  }

  func order(numbered number: Int, _ visit: (Order) throws -> Void) throws -> Bool {
    let wanted = flaw == .findsTheNumberBefore && number > Int.min ? number - 1 : number
    return try store.order(numbered: wanted, visit)
  }

  func order(referenced reference: Reference, _ visit: (Order) throws -> Void) throws -> Bool {
    guard flaw == .findsRefsIgnoringCase else {
      return try store.order(referenced: reference, visit)
    }
    var found: Order?
    try store.readAll { order in
      if found == nil, order.reference?.text.lowercased() == reference.text.lowercased() {
        found = order
      }
    }
    guard let found else { return false }
    try visit(found)
    return true
  }

  func orders(in range: TimeRange, last: Int?, _ visit: (Order) throws -> Void) throws {
    guard flaw == .rangesKeepTheirEnd, let until = range.until else {
      return try store.orders(in: range, last: last, visit)
    }
    let closed = TimeRange(
      since: range.since,
      until: until.secondsSince1970 < .max
        ? Timestamp(secondsSince1970: until.secondsSince1970 + 1) : nil)
    try store.orders(in: closed, last: last, visit)
  }

  func summary(of range: TimeRange, by grouping: Summary.Grouping) throws -> Summary {
    try store.summary(of: flaw == .summariesIgnoreTheRange ? .all : range, by: grouping)
  }
}
