import ShopCore
import Testing

/// ``VoidOutcome/plan(_:target:holding:)``, the core's rule for a void, on every case a store
/// can give it: the record named, and the record that already holds the void's ref.
struct VoidRuleTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func order(_ number: Int, ref: String? = nil) throws -> Order {
    Order(
      number: number,
      draft: try #require(
        Draft(
          lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time,
          reference: ref.flatMap { Reference($0) })))
  }

  func void(_ number: Int, as record: Int, ref: String? = nil) -> Order {
    Order(
      number: record,
      draft: Draft(voiding: number, placedAt: time, reference: ref.flatMap { Reference($0) }))
  }

  func draft(_ number: Int, ref: String? = nil) -> Draft {
    Draft(voiding: number, placedAt: time, reference: ref.flatMap { Reference($0) })
  }

  @Test func anOrderNotVoidedIsToBeSaved() throws {
    #expect(VoidOutcome.plan(draft(1001), target: try order(1001), holding: nil) == nil)
    #expect(
      VoidOutcome.plan(draft(1001, ref: "undo"), target: try order(1001), holding: nil) == nil)
  }

  /// An order draft is no void: the rule has nothing to say of it.
  @Test func anOrderDraftIsNotAVoid() throws {
    let draft = try #require(
      Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time))
    #expect(VoidOutcome.plan(draft, target: try order(1001), holding: try order(1002)) == nil)
  }

  @Test(arguments: [Int.min, -1, 0, 1000, 1001, 1005, Int.max])
  func noRecordIsNoOrder(number: Int) {
    #expect(VoidOutcome.plan(draft(number), target: nil, holding: nil) == .noOrder(number))
  }

  @Test func aVoidOfAVoidIsRefused() {
    let record = void(1001, as: 1003)
    #expect(VoidOutcome.plan(draft(1003), target: record, holding: nil) == .notAnOrder(record))
    // Even when a void of the void were marked on it: a void is never taken back.
    #expect(
      VoidOutcome.plan(draft(1003), target: record.voided(by: 1004), holding: nil)
        == .notAnOrder(record))
  }

  @Test func anOrderAlreadyVoidedIsAnsweredAsSuchWhateverTheRef() throws {
    let voided = try order(1002).voided(by: 1004)
    #expect(VoidOutcome.plan(draft(1002), target: voided, holding: nil) == .alreadyVoid(voided))
    #expect(
      VoidOutcome.plan(draft(1002, ref: "new"), target: voided, holding: nil)
        == .alreadyVoid(voided))
  }

  /// The ref first: the rerun of a void is answered as the run that saved it, even after the
  /// order's record changed nothing else.
  @Test func aRerunUnderItsRefIsAlreadyVoid() throws {
    let voided = try order(1002).voided(by: 1004)
    let record = void(1002, as: 1004, ref: "undo")
    #expect(
      VoidOutcome.plan(draft(1002, ref: "undo"), target: voided, holding: record)
        == .alreadyVoid(voided))
  }

  /// A ref held by any other record is a conflict, and nothing is saved: an order's ref, a
  /// void of another order, or a void of this number whose order is gone.
  @Test func aRefHeldByAnotherRecordConflicts() throws {
    let undo = try #require(Reference("undo"))
    let target = try order(1002)
    let anOrder = try order(1001, ref: "undo")
    #expect(
      VoidOutcome.plan(draft(1002, ref: "undo"), target: target, holding: anOrder)
        == .conflict(undo, anOrder))
    let otherVoid = void(1001, as: 1004, ref: "undo")
    #expect(
      VoidOutcome.plan(draft(1002, ref: "undo"), target: target, holding: otherVoid)
        == .conflict(undo, otherVoid))
    let sameNumber = void(1002, as: 1004, ref: "undo")
    #expect(
      VoidOutcome.plan(draft(1002, ref: "undo"), target: nil, holding: sameNumber)
        == .conflict(undo, sameNumber))
    // Checked before the target: a void of a void under a held ref is that conflict.
    let aVoid = void(1001, as: 1003)
    #expect(
      VoidOutcome.plan(draft(1003, ref: "undo"), target: aVoid, holding: anOrder)
        == .conflict(undo, anOrder))
  }

  /// A record found holding the ref counts only when the draft has a ref to hold.
  @Test func withoutARefTheHoldingRecordIsIgnored() throws {
    let target = try order(1002)
    #expect(VoidOutcome.plan(draft(1002), target: target, holding: try order(1001)) == nil)
  }

  /// The mark of a void belongs to the order read, never to a void, and never to the record.
  @Test func onlyAnOrderIsMarkedVoided() throws {
    let placed = try order(1001)
    #expect(placed.voided(by: 1003).voidedBy == 1003)
    #expect(placed.voided(by: 1003).unmarked == placed)
    #expect(placed.voided(by: nil).voidedBy == nil)
    let record = void(1001, as: 1003)
    #expect(record.isVoid && !placed.isVoid)
    #expect(record.voided(by: 1004).voidedBy == nil)
    #expect(record.lines.isEmpty && record.total == 0 && record.payable == 0)
  }

  /// A void and an order are never the same items, whatever they hold: a retry of an order
  /// can't be answered by a void, nor a void by an order.
  @Test func aVoidIsNeverTheSameItemsAsAnOrder() throws {
    let record = void(1001, as: 1003)
    let placed = try order(1001)
    let orderDraft = try #require(
      Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time))
    #expect(!orderDraft.hasSameItems(as: record))
    #expect(!draft(1001).hasSameItems(as: placed))
    #expect(draft(1001).hasSameItems(as: record))
    #expect(!draft(1002).hasSameItems(as: record))
    #expect(!(try Cart(["pen": 1])).hasSameItems(as: record))
    #expect(try Cart(["pen": 1]).hasSameItems(as: placed))
  }
}
