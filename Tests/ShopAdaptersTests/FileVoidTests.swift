import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Voids in the orders file: the line a void is, every reading form marking the order a void
/// took back, the fast paths (bisection, the `--json` copy, the refs index) against the plain
/// one, and the sums against sums the test works out itself.
struct FileVoidTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(
    _ quantity: Int = 1, sku: String = "pen", price: Int = 30, at seconds: Int64 = 0,
    ref: String? = nil
  )
    throws -> Draft
  {
    try #require(
      Draft(
        lines: [OrderLine(sku: sku, quantity: quantity, price: price)],
        placedAt: Timestamp(secondsSince1970: time.secondsSince1970 + seconds),
        reference: ref.flatMap { Reference($0) }))
  }

  func void(_ number: Int, at seconds: Int64 = 0, ref: String? = nil) -> Draft {
    Draft(
      voiding: number, placedAt: Timestamp(secondsSince1970: time.secondsSince1970 + seconds),
      reference: ref.flatMap { Reference($0) })
  }

  func all(_ history: any OrderHistory) throws -> [Order] {
    var orders: [Order] = []
    try history.readAll { orders.append($0) }
    return orders
  }

  @Test func aVoidIsOneLineOfTheSequenceAndEveryFormMarksTheOrder() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let store = FileOrders(path: path)
    _ = try store.save([draft(ref: "web-1"), draft(2), draft(3)])
    let outcome = try store.void(void(1001, at: 60, ref: "undo-1"))
    guard case .voided(let record) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(record.number == 1004 && record.voids == 1001)
    let lines = try folder.read("orders.jsonl").split(separator: "\n")
    #expect(
      lines.last
        == #"{"number":1004,"ref":"undo-1","voids":1001,"placedAt":"2026-11-30T06:07:43Z"}"#)
    let reader = FileOrders(path: path)
    let read = try all(reader)
    #expect(read.map(\.voidedBy) == [1004, nil, nil, nil])
    #expect(read.last?.voids == 1001)
    #expect(try reader.count() == 4)
    var found: [Order] = []
    #expect(try reader.order(numbered: 1001) { found.append($0) })
    #expect(try reader.order(referenced: Reference("web-1")!) { found.append($0) })
    try reader.last(4) { found.append($0) }
    try reader.orders(in: TimeRange(since: time, until: nil), last: nil) { found.append($0) }
    #expect(found.filter { $0.number == 1001 }.allSatisfy { $0.voidedBy == 1004 })
    #expect(found.filter { $0.number == 1001 }.count == 4)
    // And again: a rerun, a void of a void, no such order.
    guard case .alreadyVoid(let order) = try store.void(void(1001)) else {
      Issue.record("a second void of 1001 was saved")
      return
    }
    #expect(order.voidedBy == 1004)
    guard case .notAnOrder = try store.void(void(1004)) else {
      Issue.record("a void was voided")
      return
    }
    #expect(try store.void(void(1005)) == .noOrder(1005))
    #expect(try store.void(void(999)) == .noOrder(999))
    guard case .alreadyVoid = try FileOrders(path: path).void(void(1001, ref: "undo-1")) else {
      Issue.record("the rerun with its ref was not answered")
      return
    }
    guard case .conflict = try FileOrders(path: path).void(void(1002, ref: "undo-1")) else {
      Issue.record("a ref was held twice")
      return
    }
    #expect(try folder.read("orders.jsonl").split(separator: "\n").count == 4)
  }

  /// A fixed seed's thousand places and voids, with times that step forward (and often not):
  /// every form of the file's reader, fast paths and all, against the same records kept in
  /// memory by the test itself, and the sums against sums worked out here over the orders not
  /// voided.
  @Test func aThousandRandomPlacesAndVoidsReadAsTheTestKeptThem() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let store = FileOrders(path: path)
    var random = SplitMix(seed: 34)
    var kept: [Order] = []
    var voidedBy: [Int: Int] = [:]
    var seconds: Int64 = 0
    for step in 0..<1000 {
      seconds += Int64(random.next() % 3) * 3600 * 7
      let orders = kept.filter { !$0.isVoid }
      if !orders.isEmpty, random.next() % 4 == 0 {
        let target = orders[Int(random.next() % UInt64(orders.count))].number
        let ref = random.next() % 2 == 0 ? "undo-\(step)" : nil
        let outcome = try store.void(void(target, at: seconds, ref: ref))
        if let already = voidedBy[target] {
          #expect(outcome.isAlreadyVoid(by: already))
        } else {
          guard case .voided(let record) = outcome else {
            Issue.record("\(outcome)")
            return
          }
          #expect(record.number == kept.count + 1001)
          voidedBy[target] = record.number
          kept.append(record)
        }
      } else {
        let sku = ["pen", "lamp", "ink", "desk"][Int(random.next() % 4)]
        let placed = try store.save([
          try draft(
            Int(random.next() % 9) + 1, sku: sku, price: Int(random.next() % 300), at: seconds)
        ])
        kept += placed
      }
    }
    let marked = kept.map { $0.voided(by: voidedBy[$0.number]) }
    let reader = FileOrders(path: path)
    #expect(try all(reader) == marked)
    #expect(try reader.count() == kept.count)
    // The JSON listing: the copy of stored lines against the encoder, order by order.
    let output = BufferOutput()
    let listing = OrderListing(output: output, style: .json, lines: reader)
    _ = try ListOrders(history: reader, listing: listing).run(.all)
    var encoder = OrderJSON.Encoder()
    var expected: [UInt8] = []
    for order in marked { encoder.append(order, to: &expected) }
    #expect(output.written == expected)
    // Numbers and ranges, found by bisection.
    for _ in 0..<200 {
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
      let range = TimeRange(
        since: Timestamp(secondsSince1970: time.secondsSince1970 + since),
        until: Timestamp(secondsSince1970: time.secondsSince1970 + until))
      var inRange: [Order] = []
      try reader.orders(in: range, last: nil) { inRange.append($0) }
      #expect(inRange == marked.filter { range.contains($0.placedAt) })
      for grouping in [Summary.Grouping.none, .day, .sku] {
        let summary = try reader.summary(of: range, by: grouping)
        #expect(
          summary == Self.sums(of: marked.filter { range.contains($0.placedAt) }, by: grouping))
      }
    }
    // Refs, found through the `.refs` index, against the records that hold them.
    for record in marked where record.reference != nil {
      var found: Order?
      let reference = try #require(record.reference)
      #expect(try reader.order(referenced: reference) { found = $0 })
      #expect(found == record)
    }
    #expect(marked.filter { $0.reference != nil }.count > 50)
    let whole = try reader.summary(of: .all, by: .none)
    #expect(whole == Self.sums(of: marked, by: .none))
    #expect(whole.totals.voided == voidedBy.count && whole.totals.voided > 100)
  }

  /// The sums the test works out itself: orders and voided counted, sums over the rest.
  static func sums(of records: [Order], by grouping: Summary.Grouping) -> Summary {
    let orders = records.filter { !$0.isVoid }
    let open = orders.filter { $0.voidedBy == nil }
    func totals(_ orders: [Order]) -> Summary.Totals {
      let open = orders.filter { $0.voidedBy == nil }
      return Summary.Totals(
        orders: orders.count, voided: orders.count - open.count,
        total: open.map(\.total).reduce(0, +), payable: open.map(\.payable).reduce(0, +))
    }
    var summary = Summary(totals: totals(orders))
    switch grouping {
    case .none: break
    case .day:
      let days = Dictionary(grouping: orders) { Summary.day(of: $0.placedAt).secondsSince1970 }
      summary.days = days.keys.sorted().map {
        Summary.Day(start: Timestamp(secondsSince1970: $0), totals: totals(days[$0] ?? []))
      }
    case .sku:
      let lines = open.flatMap(\.lines)
      let skus = Set(lines.map(\.sku)).sorted()
      summary.sales = skus.map { sku in
        let these = lines.filter { $0.sku == sku }
        return Summary.Sales(
          sku: sku, quantity: these.map(\.quantity).reduce(0, +),
          revenue: these.map { $0.quantity * $0.price }.reduce(0, +),
          orders: open.filter { $0.lines.contains { $0.sku == sku } }.count)
      }
    }
    return summary
  }

  @Test func aTornVoidIsCutAndAWholeOneWithoutItsNewlineIsCompleted() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft(), draft()])
    let whole = #"{"number":1003,"voids":1001,"placedAt":"2026-11-30T06:06:43Z"}"#
    let start = try folder.read("orders.jsonl")
    // Every proper prefix of the void's line is a torn write: readers skip it, the next
    // writer cuts it.
    for length in 1..<whole.utf8.count {
      _ = try folder.write("orders.jsonl", start + whole.prefix(length))
      let reader = FileOrders(path: path)
      #expect(try all(reader).map(\.number) == [1001, 1002], "\(whole.prefix(length))")
      #expect(try reader.count() == 2)
    }
    guard case .voided(let record) = try FileOrders(path: path).void(void(1002)) else {
      Issue.record("the torn void was not cut")
      return
    }
    #expect(record.number == 1003 && record.voids == 1002)
    // The whole line but its newline is a void: listed, and completed by the next writer.
    _ = try folder.write("orders.jsonl", start + whole)
    #expect(try all(FileOrders(path: path)).map(\.voidedBy) == [1003, nil, nil])
    #expect(try FileOrders(path: path).void(void(1001)).isAlreadyVoid(by: 1003))
    _ = try FileOrders(path: path).save([draft()])
    #expect(
      try folder.read("orders.jsonl") == start + whole + "\n"
        + #"{"number":1004,"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"payable":30,"placedAt":"2026-11-30T06:06:43Z"}"#
        + "\n")
    // A void that names no order before it, or that is not the next number, is foreign.
    for foreign in [
      #"{"number":1003,"voids":1003,"placedAt":"2026-11-30T06:06:43Z"}"#,
      #"{"number":1003,"voids":1000"#,
      #"{"number":1003,"voids":01"#,
      #"{"number":1003,"voids":1001,"items":[]"#,
    ] {
      _ = try folder.write("orders.jsonl", start + foreign)
      #expect(throws: FileError.self, "\(foreign)") { try FileOrders(path: path).save([draft()]) }
      #expect(throws: FileError.self, "\(foreign)") { try all(FileOrders(path: path)) }
    }
  }

  @Test func twoVoidsOfOneOrderOrAVoidOfAVoidInAFileAreRefusedWhereTheyAre() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft(), draft()])
    let start = try folder.read("orders.jsonl")
    let twice =
      #"{"number":1003,"voids":1001,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
      + #"{"number":1004,"voids":1001,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    let ofAVoid =
      #"{"number":1003,"voids":1001,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
      + #"{"number":1004,"voids":1003,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    for text in [twice, ofAVoid] {
      _ = try folder.write("orders.jsonl", start + text)
      #expect(throws: FileError.self) { try all(FileOrders(path: path)) }
      #expect(throws: FileError.self) { try FileOrders(path: path).last(2) { _ in } }
      #expect(throws: FileError.self) {
        try FileOrders(path: path).summary(of: .all, by: .none)
      }
    }
  }
}

extension VoidOutcome {
  func isAlreadyVoid(by void: Int) -> Bool {
    guard case .alreadyVoid(let order) = self else { return false }
    return order.voidedBy == void
  }
}

/// Voids beside lines in another layout than `shop`'s, and a void where there is no file.
struct FileVoidEdgeTests {
  @Test func aVoidAndItsOrderInAnyLayoutAreReadAsOneRule() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let two =
      #"{ "placedAt": "2026-11-30T06:06:43Z", "total": 30, "payable": 30, "number": 1001, "items": [{"price": 30, "sku": "pen", "quantity": 1}] }"#
      + "\n" + #"{"placedAt":"2026-11-30T06:06:43Z","voids":1001,"number":1002,"extra":1}"# + "\r\n"
    _ = try folder.write(
      "orders.jsonl",
      two + #"{"number":1003,"voids":1002,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n")
    // The void of a void on line 3 is refused where it is, after the lines before it.
    var seen: [Order] = []
    #expect(throws: FileError.self) { try FileOrders(path: path).readAll { seen.append($0) } }
    #expect(seen.map(\.number) == [1001, 1002] && seen.first?.voidedBy == 1002)
    // Without it, the file reads whole, the foreign lines written anew in `--json`.
    _ = try folder.write("orders.jsonl", two)
    let output = BufferOutput()
    let store = FileOrders(path: path)
    _ = try ListOrders(
      history: store, listing: OrderListing(output: output, style: .json, lines: store)
    ).run(.all)
    #expect(
      output.text
        == #"{"number":1001,"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"payable":30,"placedAt":"2026-11-30T06:06:43Z","voidedBy":1002}"#
        + "\n" + #"{"number":1002,"voids":1001,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n")
    #expect(
      try FileOrders(path: path).void(
        Draft(voiding: 1001, placedAt: Timestamp(secondsSince1970: 0))
      ).isAlreadyVoid(by: 1002))
  }

  @Test func aVoidWhereThereIsNoFileMakesNone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("deep/orders.jsonl")
    let outcome = try FileOrders(path: path).void(
      Draft(voiding: 1001, placedAt: Timestamp(secondsSince1970: 0), reference: Reference("x")))
    #expect(outcome == .noOrder(1001))
    #expect(!FileManager.default.fileExists(atPath: folder.file("deep")))
  }
}
