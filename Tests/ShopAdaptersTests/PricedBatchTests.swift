import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The fast path of a batch against the plain one, quiet and loud: the same input, catalog,
/// clock and starting file give the same orders file byte for byte, the same reports and
/// messages and the same count of lines not placed, whichever groups the fast path takes and
/// which it leaves.
struct PricedBatchTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  struct Run: Equatable {
    let file: [UInt8]
    /// The index of refs but for what names the file and the boot it was made in: its size,
    /// count, how far it covers, and every slot (hash and offset).
    let index: [UInt8]
    let errors: String
    /// What a loud report printed; empty for a quiet one.
    let output: String
    let rejected: Int
  }

  func run(
    fast: Bool, loud: Bool = false, input: String, catalog: MemoryCatalog,
    existing: Draft? = nil, again: String? = nil, groupLines: Int = BatchInput.groupLines
  ) throws -> Run {
    let folder = try TemporaryFolder()
    let path = FilePath(folder.file("orders.jsonl"))
    let store = FileOrders(path: path)
    if let existing { _ = try store.save([existing]) }
    let errors = BufferOutput()
    let output = BufferOutput()
    let report: any PricedReport =
      loud ? TextReport(output: output) : QuietReport(errors: errors)
    let clock = FixedClock(time: time)
    let source = BatchInput(
      descriptor: BufferSource(Array(input.utf8), chunk: 4096), name: "in", groupLines: groupLines)
    var rejected = try Self.batch(
      fast: fast, source, catalog: catalog, store: store, clock: clock, report: report
    ).run()
    if let again {
      // The same file placed into again the plain way, by a new store: it finds the refs the
      // first run recorded in the file's index.
      let store = FileOrders(path: path)
      let source = BatchInput(descriptor: BufferSource(Array(again.utf8)), name: "again")
      rejected += try PlaceBatch(
        source: source,
        placeOrder: PlaceOrder(catalog: catalog, orders: store, clock: clock, report: report)
      ).run()
    }
    let file = (try? folder.read("orders.jsonl")) ?? ""
    let index = [UInt8](
      FileManager.default.contents(atPath: folder.file("orders.jsonl.refs")) ?? Data())
    // The header's first fields and the slots; not the block checksums, keyed by a salt
    // drawn for each table.
    let capacity = index.count < 16 ? 0 : index[8..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    return Run(
      file: Array(file.utf8),
      index: Array(index.prefix(48) + index.dropFirst(4096).prefix(capacity * 16)),
      errors: errors.text, output: output.text, rejected: rejected)
  }

  /// A batch into a file store, by the fast path or the plain one.
  static func batch(
    fast: Bool, _ source: BatchInput, catalog: any Catalog, store: FileOrders,
    clock: any WallClock, report: any PricedReport
  ) -> PlaceBatch {
    let placeOrder = PlaceOrder(catalog: catalog, orders: store, clock: clock, report: report)
    return fast
      ? PlaceBatch(
        groups: PricedBatch(
          input: source, catalog: catalog, store: store, clock: clock, report: report,
          placeOrder: placeOrder))
      : PlaceBatch(source: source, placeOrder: placeOrder)
  }

  let catalog = MemoryCatalog(
    entries: (0..<50).map { (sku: "sku-\($0)", price: $0 * 37) } + [
      (sku: String(repeating: "L", count: 64), price: 5), (sku: "big", price: Int.max / 3),
    ])

  /// Lines of every kind a batch meets, good ones most often.
  func randomLine(_ random: inout SplitMix, good: Bool) -> String {
    func item() -> String {
      let sku = Int.random(in: 0..<50, using: &random)
      return "sku-\(sku)=\(Int.random(in: 1...9, using: &random))"
    }
    let items = (0..<Int.random(in: 1...5, using: &random)).map { _ in item() }
    if good || Int.random(in: 0..<4, using: &random) > 0 {
      let cart = items.joined(separator: Bool.random(using: &random) ? " " : " \t ")
      guard Bool.random(using: &random) else { return cart }
      return "@r-\(UInt32.random(in: 0...UInt32.max, using: &random))\tsku-0=1 " + cart
    }
    let odd = [
      "sku-1=2 sku-1=3", "sku-1=0", "sku-1=1000000 sku-1=1", "nope=1", "sku-1", "sku-1=2=3",
      "sku-1=+1", "@web-1 sku-2=1", "@web-1 sku-2=1", "@held sku-1=1", "@held sku-2=1",
      "@bad! sku-1=1", "@web-2", "@", "sku-1=1 @web-3", "big=3", "big=2 big=2", "# comment", "",
      "  \t", "sku-3=007\r", "\(String(repeating: "L", count: 64))=1",
      "\(String(repeating: "L", count: 65))=1", "sku-1=1 sku-2", "sku-é=1", "sku-1=1 ",
      (0..<20).map { "sku-\($0)=1" }.joined(separator: " "), "sku-1=99999999999999999999999",
    ]
    return odd.randomElement(using: &random) ?? ""
  }

  /// Into an empty file, and into one whose order holds the ref `held`.
  @Test(arguments: [false, true])
  func smallBatchesOfEveryKindPlaceAlikeEitherWay(loud: Bool) throws {
    var random = SplitMix(seed: 31)
    let held = try #require(
      Draft(
        lines: [OrderLine(sku: "sku-1", quantity: 1, price: 37)], placedAt: time,
        reference: Reference("held")))
    for round in 0..<42 {
      let good = round % 3 == 0
      var lines = (0..<Int.random(in: 1...60, using: &random)).map { _ in
        randomLine(&random, good: good)
      }
      if round % 3 == 1 { lines.append("@held sku-1=1") }  // Else good: refused by the file.
      let input = lines.joined(separator: "\n") + (Bool.random(using: &random) ? "\n" : "")
      let existing = round % 2 == 0 ? held : nil
      let plain = try run(
        fast: false, loud: loud, input: input, catalog: catalog, existing: existing)
      #expect(loud == !plain.output.isEmpty)
      #expect(
        try run(fast: true, loud: loud, input: input, catalog: catalog, existing: existing)
          == plain,
        "\(input)")
    }
  }

  @Test(arguments: [false, true])
  func groupsTheFastPathTakesAndLeavesNumberOnFromEachOther(loud: Bool) throws {
    // Three groups of 200 lines (16,384 in use): the middle one has a line the fast path leaves.
    var random = SplitMix(seed: 32)
    var lines = (0..<500).map { _ in randomLine(&random, good: true) }
    lines[250] = "nope=1 sku-1=1"
    let input = lines.joined(separator: "\n") + "\n"
    let later = Timestamp(secondsSince1970: time.secondsSince1970 + 60)
    let existing = try #require(
      Draft(lines: [OrderLine(sku: "sku-1", quantity: 1, price: 37)], placedAt: later))
    let plain = try run(
      fast: false, loud: loud, input: input, catalog: catalog, existing: existing,
      groupLines: 200)
    #expect(plain.rejected == 1)
    #expect(
      try run(
        fast: true, loud: loud, input: input, catalog: catalog, existing: existing,
        groupLines: 200) == plain)
  }

  @Test(arguments: [false, true])
  func refsTheFastPathWritesAreFoundInTheIndexAfterwards(loud: Bool) throws {
    let input = (0..<300).map { "@ref-\($0) sku-\($0 % 50)=\($0 % 7 + 1)" }.joined(separator: "\n")
    let again = (250..<350).map { "@ref-\($0) sku-\($0 % 50)=\($0 % 7 + 1)" }.joined(
      separator: "\n")
    let plain = try run(fast: false, loud: loud, input: input, catalog: catalog, again: again)
    #expect(
      try run(fast: true, loud: loud, input: input, catalog: catalog, again: again) == plain)
    #expect(plain.file.split(separator: UInt8(ascii: "\n")).count == 350)
  }
}

extension PricedBatchTests {
  /// Refs drawn from a small pool, so that many are given twice in a group or again in a later
  /// group, among lines of every kind, in groups of every size up to more than the refs read
  /// ahead at once: both ways place, refuse and index the same.
  @Test(arguments: [3, 40, 700])
  func refsGivenAgainInAGroupOrALaterOnePlaceAlikeEitherWay(groupLines: Int) throws {
    var random = SplitMix(seed: UInt64(33 + groupLines))
    var lines: [String] = []
    for _ in 0..<1500 {
      let line = randomLine(&random, good: Int.random(in: 0..<5, using: &random) > 0)
      let pool = Int.random(in: 0..<2000, using: &random)
      lines.append(Bool.random(using: &random) ? "@p-\(pool) \(line)" : line)
    }
    let input = lines.joined(separator: "\n") + "\n"
    let again = lines.prefix(200).joined(separator: "\n")
    let plain = try run(
      fast: false, input: input, catalog: catalog, again: again, groupLines: groupLines)
    #expect(plain.rejected > 0)
    #expect(
      try run(fast: true, input: input, catalog: catalog, again: again, groupLines: groupLines)
        == plain)
  }
}
