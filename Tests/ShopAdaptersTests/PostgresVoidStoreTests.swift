import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Voids in a PostgreSQL table, through the store itself: a fixed seed's thousand places and
/// voids, every reader against the records the test kept, and the sums against the sums it
/// works out itself (``FileVoidTests/sums(of:by:)``), as the file store is tested.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresVoidStoreTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func at(_ seconds: Int64) -> Timestamp {
    Timestamp(secondsSince1970: time.secondsSince1970 + seconds)
  }

  func all(_ history: any OrderHistory) throws -> [Order] {
    var orders: [Order] = []
    try history.readAll { orders.append($0) }
    return orders
  }

  @Test func aThousandRandomPlacesAndVoidsReadAndSumAsTheTestKeptThem() throws {
    let server = try PostgresServer.shared.get()
    let uri = server.tcpURI(try server.makeDatabase())
    let store = PostgresOrders(uri: uri)
    var random = SplitMix(seed: 0x34_5eed)
    var kept: [Order] = []
    var voidedBy: [Int: Int] = [:]
    var seconds: Int64 = 0
    for step in 0..<1000 {
      seconds += Int64(random.next() % 3) * 3600 * 7
      let orders = kept.filter { !$0.isVoid }
      let roll = random.next() % 8
      if !orders.isEmpty && roll < 2 {
        // A void of an order, under a ref half the time.
        let target = orders[Int(random.next() % UInt64(orders.count))].number
        let ref = random.next() % 2 == 0 ? Reference("undo-\(step)") : nil
        let outcome = try store.void(Draft(voiding: target, placedAt: at(seconds), reference: ref))
        if let already = voidedBy[target] {
          #expect(outcome.isAlreadyVoid(by: already), "\(step): \(outcome)")
        } else {
          guard case .voided(let record) = outcome else {
            Issue.record("\(step): \(outcome)")
            return
          }
          #expect(record.number == kept.count + 1001 && record.voids == target)
          voidedBy[target] = record.number
          kept.append(record)
        }
      } else if roll == 2, let void = kept.last(where: \.isVoid) {
        // Refused or answered, never saved: a void's number, one past the end, a void rerun
        // under its own ref.
        let missing = kept.count + 1001 + Int(random.next() % 3)
        #expect(
          try store.void(Draft(voiding: void.number, placedAt: at(seconds))) == .notAnOrder(void))
        #expect(try store.void(Draft(voiding: missing, placedAt: at(seconds))) == .noOrder(missing))
        if let ref = void.reference, let target = void.voids {
          let again = try store.void(Draft(voiding: target, placedAt: at(seconds), reference: ref))
          #expect(again.isAlreadyVoid(by: void.number), "\(step): \(again)")
        }
      } else {
        let sku = ["pen", "lamp", "ink", "desk"][Int(random.next() % 4)]
        let line = OrderLine(
          sku: sku, quantity: Int(random.next() % 9) + 1, price: Int(random.next() % 300))
        let ref = random.next() % 4 == 0 ? Reference("o-\(step)") : nil
        let draft = try #require(Draft(lines: [line], placedAt: at(seconds), reference: ref))
        // One group in eight goes by COPY, the rest by the one-trip INSERT (or, with a ref, as
        // a referenced group).
        if random.next() % 8 == 0 && ref == nil {
          let big = Array(repeating: draft, count: PostgresOrders.copyFrom)
          kept += try store.save(big)
        } else {
          kept += try store.place([draft]).compactMap { placement in
            guard case .placed(let order) = placement else { return nil }
            return order
          }
        }
      }
    }
    let marked = kept.map { $0.voided(by: voidedBy[$0.number]) }
    let reader = PostgresOrders(uri: uri)
    #expect(try all(reader) == marked)
    #expect(try reader.count() == kept.count)
    #expect(voidedBy.count > 100 && kept.count > 1000, "\(voidedBy.count) of \(kept.count)")
    for _ in 0..<100 {
      let number = Int(random.next() % UInt64(kept.count + 20)) + 995
      var found: Order?
      _ = try reader.order(numbered: number) { found = $0 }
      #expect(found == marked.first { $0.number == number })
      let count = Int(random.next() % 30)
      var last: [Order] = []
      try reader.last(count) { last.append($0) }
      #expect(last == Array(marked.suffix(count)))
      let since = Int64(random.next() % UInt64(seconds + 1))
      let until = since + Int64(random.next() % 200_000)
      let range = TimeRange(since: at(since), until: at(until))
      var inRange: [Order] = []
      try reader.orders(in: range, last: nil) { inRange.append($0) }
      #expect(inRange == marked.filter { range.contains($0.placedAt) })
      for grouping in [Summary.Grouping.none, .day, .sku] {
        #expect(
          try reader.summary(of: range, by: grouping)
            == FileVoidTests.sums(of: marked.filter { range.contains($0.placedAt) }, by: grouping))
      }
    }
    for record in marked where record.reference != nil {
      var found: Order?
      #expect(try reader.order(referenced: #require(record.reference)) { found = $0 })
      #expect(found == record)
    }
    for grouping in [Summary.Grouping.none, .day, .sku] {
      #expect(
        try reader.summary(of: .all, by: grouping) == FileVoidTests.sums(of: marked, by: grouping))
    }
  }
}
