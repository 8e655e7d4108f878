import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The fast path of `shop summary` over a file (FileOrders+Summary.swift) against the plain
/// one (every order read and added up by the core's ``SummaryTally``): on random files of
/// orders with and without refs, SKUs given twice, voids, other layouts, damaged lines, gaps
/// in the numbering and sums past `Int`, over random ranges and every grouping, both give the
/// same summary or stop with the same error.
struct StoredSummaryTests {
  static let start: Int64 = 1_796_018_803

  func time(_ seconds: Int64) -> String {
    var bytes: [UInt8] = []
    UTCTime.append(Timestamp(secondsSince1970: Self.start + seconds), to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A file of `count` records from 1001, with every kind of line a summary meets.
  /// `clean`: no other layout, damage or gap, only what a summary sums.
  func randomFile(_ random: inout SplitMix, count: Int, clean: Bool = false) -> String {
    // Short SKUs, and long ones of 8, 16, 24 and more bytes that differ only at one end or
    // in their middle (past the 16th byte, before the last 8), where the table's keys of
    // words (``SKUSums/Key``) are alike and only the bytes tell them apart.
    let long = String(repeating: "k", count: 20)
    let pool = [
      "a", "b", "ab", "ba", "pen", "lamp", "x.y", "L-1", "sku-0001", "sku-0002",
      "sku-00000000001", "sku-000000000001", "sku-0000000000001", "abcdefgh12345678",
      "abcdefgh12345679", long + "1" + long, long + "2" + long, long + "12345",
      String(repeating: "z", count: 64),
    ]
    var lines: [String] = []
    var orders: [Int] = []
    var voided: Set<Int> = []
    var number = 1001
    // Prices so large that two orders' sums pass `Int`, in one file of four.
    let huge = Int.random(in: 0..<4, using: &random) == 0
    for index in 0..<count {
      let at = time(Int64(index) * 7 + Int64.random(in: -20...20, using: &random))
      var kind = Int.random(in: 0..<40, using: &random)
      if clean, (2...4).contains(kind) { kind = 5 }
      if kind == 0, let target = orders.randomElement(using: &random), !voided.contains(target) {
        voided.insert(target)
        lines.append(#"{"number":\#(number),"voids":\#(target),"placedAt":"\#(at)"}"#)
        number += 1
        continue
      }
      var skus = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        pool[Int(random.next() % UInt64(pool.count))]
      }
      // A SKU given twice is no order: a damaged line, as the core reads it.
      if kind != 5 || clean { skus = Array(Set(skus)).sorted() }
      let big = kind == 1 && huge
      let items = skus.map { sku in
        (
          sku, Int.random(in: 1...9, using: &random),
          big ? Int.max / 4 : Int.random(in: 0...500, using: &random)
        )
      }
      var (total, overflow) = (0, false)
      for (_, quantity, price) in items {
        let (amount, productOverflow) = price.multipliedReportingOverflow(by: quantity)
        let (sum, sumOverflow) = total.addingReportingOverflow(amount)
        overflow = overflow || productOverflow || sumOverflow
        total = sum
      }
      if overflow { continue }
      let ref = Bool.random(using: &random) ? #""ref":"r-\#(index)","# : ""
      let itemText = items.map { #"{"sku":"\#($0.0)","quantity":\#($0.1),"price":\#($0.2)}"# }
      var line =
        #"{"number":\#(number),\#(ref)"items":[\#(itemText.joined(separator: ","))],"#
        + #""total":\#(total),"payable":\#(Order.payable(total: total)),"placedAt":"\#(at)"}"#
      switch kind {
      case 2: line = line.replacingOccurrences(of: ",", with: ", ")  // Another layout.
      case 3:  // Damaged.
        var bytes = Array(line.utf8)
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8(ascii: "#")
        line = String(decoding: bytes, as: UTF8.self)
      case 4: number += 1  // A gap.
      default: break
      }
      lines.append(line)
      orders.append(number)
      number += 1
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// What each path says of `text` over `range`: the summary, or the error it stops with.
  func both(_ text: String, _ range: TimeRange, by grouping: Summary.Grouping) throws -> (
    fast: String, plain: String
  ) {
    let folder = try TemporaryFolder()
    let path = try folder.write("orders.jsonl", text)
    func outcome(_ body: () throws -> Summary) -> String {
      do { return "\(try body())" } catch { return "error: \(error)" }
    }
    let fast = outcome { try FileOrders(path: FilePath(path)).summary(of: range, by: grouping) }
    let plain = outcome {
      var tally = SummaryTally(by: grouping)
      try FileOrders(path: FilePath(path)).orders(in: range, last: nil) { try tally.add($0) }
      return tally.summary
    }
    return (fast, plain)
  }

  @Test(arguments: [Summary.Grouping.none, .day, .sku])
  func randomFilesSumAlikeEitherWay(grouping: Summary.Grouping) throws {
    var random = SplitMix(seed: 51)
    var (summed, stopped) = (0, 0)
    for round in 0..<60 {
      let count = Int.random(in: 1...400, using: &random)
      // Clean files too, so that most rounds sum rather than stop at a damaged line.
      let text = randomFile(&random, count: count, clean: round % 2 == 0)
      let since = Bool.random(using: &random) ? Int64.random(in: 0...2000, using: &random) : nil
      let until = Bool.random(using: &random) ? Int64.random(in: 0...3000, using: &random) : nil
      let range = TimeRange(
        since: since.map { Timestamp(secondsSince1970: Self.start + $0) },
        until: until.map { Timestamp(secondsSince1970: Self.start + $0) })
      let (fast, plain) = try both(text, range, by: grouping)
      #expect(fast == plain, "\(text)")
      if plain.hasPrefix("error") { stopped += 1 } else { summed += 1 }
    }
    #expect(summed > 20 && stopped > 5, "\(summed) summed, \(stopped) stopped")
  }

  /// The summary of every order reads each buffer's lines in one loop of its own: held to the
  /// plain path on random files of several buffers, clean and damaged, by every grouping.
  @Test(arguments: [Summary.Grouping.none, .day, .sku])
  func randomLongFilesSumAlikeOverAllTime(grouping: Summary.Grouping) throws {
    var random = SplitMix(seed: 52)
    var (summed, stopped) = (0, 0)
    for round in 0..<12 {
      let count = Int.random(in: 400...2500, using: &random)
      let text = randomFile(&random, count: count, clean: round % 2 == 0)
      let (fast, plain) = try both(text, TimeRange(since: nil, until: nil), by: grouping)
      #expect(fast == plain, "round \(round)")
      if plain.hasPrefix("error") { stopped += 1 } else { summed += 1 }
    }
    #expect(summed >= 3 && stopped >= 3, "\(summed) summed, \(stopped) stopped")
  }

  /// Each SKU of a line is tallied as the check reads it: a SKU met only on lines taken back
  /// afterwards (a voided order, one outside the range, a total that is wrong, a SKU given
  /// twice, a sum past `Int`) is in neither path's sales, and every other sum is the same.
  @Test(arguments: [Summary.Grouping.sku, .day, .none])
  func aSKUOnlyOnLinesTakenBackIsSoldByNeitherPath(grouping: Summary.Grouping) throws {
    func order(_ number: Int, _ items: [(String, Int, Int)], at seconds: Int64, total: Int? = nil)
      -> String
    {
      let sum = total ?? items.reduce(0) { $0 &+ $1.1 &* $1.2 }  // Wraps for a sum past `Int`.
      let text = items.map { #"{"sku":"\#($0.0)","quantity":\#($0.1),"price":\#($0.2)}"# }
      return #"{"number":\#(number),"items":[\#(text.joined(separator: ","))],"total":\#(sum),"#
        + #""payable":\#(Order.payable(total: sum)),"placedAt":"\#(time(seconds))"}"# + "\n"
    }
    let kept = order(1001, [("pen", 2, 30)], at: 0)
    let voided = order(1002, [("pen", 1, 30), ("only-voided", 4, 5)], at: 10)
    let late = order(1003, [("only-late", 1, 7), ("pen", 1, 30)], at: 5000)
    let void = #"{"number":1004,"voids":1002,"placedAt":"\#(time(20))"}"# + "\n"
    let range = TimeRange(since: nil, until: Timestamp(secondsSince1970: Self.start + 100))
    let text = kept + voided + late + void
    let (fast, plain) = try both(text, range, by: grouping)
    #expect(fast == plain)
    #expect(!fast.contains("only-"), "\(fast)")
    #expect(fast.contains("pen") == (grouping == .sku), "\(fast)")
    // A line refused after its items were read stops both alike, at its line.
    for refused in [
      order(1002, [("only-wrong", 1, 5)], at: 10, total: 6),
      order(1002, [("only-twice", 1, 5), ("pen", 1, 30), ("only-twice", 1, 5)], at: 10),
      order(1002, [("pen", 1, Int.max / 2), ("only-huge", 1, Int.max / 2 + 2)], at: 10),
      order(1002, [("pen", 1, Int.max / 2)], at: 10)
        + order(1003, [("pen", 3, Int.max / 2)], at: 11),
    ] {
      let (fast, plain) = try both(kept + refused, TimeRange(since: nil, until: nil), by: grouping)
      #expect(fast == plain, "\(refused)")
      #expect(fast.hasPrefix("error") || !fast.contains("only-"), "\(fast)")
    }
  }

  /// Lines of 1 to 20 items of a few SKUs alike at their ends and in length: repeats, and
  /// distinct SKUs the listing's bits take for one, both happen often, on lines the word
  /// reader takes (its exact compare, no bits) and on longer ones it leaves to the plain
  /// reader (the bits, then the exact check). Each summed by SKU after a kept line: both paths
  /// say the same.
  @Test func manyItemsOfFewSKUsSumAlikeEitherWay() throws {
    var random = SplitMix(seed: 53)
    let pool = [
      "a", "b", "ab", "ba", "aa", "bb", "aba", "abba", "sku-0001", "sku-1001", "skb-0001",
    ]
    let first =
      #"{"number":1001,"items":[{"sku":"a","quantity":3,"price":5}],"total":15,"payable":15,"#
      + #""placedAt":"\#(time(0))"}"# + "\n"
    var (summed, stopped) = (0, 0)
    for _ in 0..<200 {
      let count = Int(random.next() % 20) + 1
      let items = (0..<count).map { _ in
        (
          pool[Int(random.next() % UInt64(pool.count))], Int(random.next() % 9) + 1,
          Int(random.next() % 50)
        )
      }
      let total = items.reduce(0) { $0 + $1.1 * $1.2 }
      let text = items.map { #"{"sku":"\#($0.0)","quantity":\#($0.1),"price":\#($0.2)}"# }
      let line =
        #"{"number":1002,"items":[\#(text.joined(separator: ","))],"total":\#(total),"#
        + #""payable":\#(Order.payable(total: total)),"placedAt":"\#(time(1))"}"# + "\n"
      let (fast, plain) = try both(first + line, TimeRange(since: nil, until: nil), by: .sku)
      #expect(fast == plain, "\(line)")
      if plain.hasPrefix("error") { stopped += 1 } else { summed += 1 }
    }
    #expect(summed > 20 && stopped > 30, "\(summed) summed, \(stopped) stopped")
  }

  @Test func aVoidTakesTheOrderOutOfTheSumsAndASKUGivenTwiceStopsBothAlike() throws {
    let first =
      #"{"number":1001,"items":[{"sku":"a","quantity":3,"price":5}],"total":15,"payable":15,"#
      + #""placedAt":"\#(time(0))"}"# + "\n"
    let text =
      first
      + #"{"number":1002,"items":[{"sku":"a","quantity":1,"price":5},{"sku":"b","quantity":1,"#
      + #""price":7}],"total":12,"payable":12,"placedAt":"\#(time(1))"}"# + "\n"
      + #"{"number":1003,"items":[{"sku":"b","quantity":1,"price":7}],"total":7,"payable":7,"#
      + #""placedAt":"\#(time(2))"}"# + "\n"
      + #"{"number":1004,"voids":1003,"placedAt":"\#(time(3))"}"# + "\n"
    let all = TimeRange(since: nil, until: nil)
    let (fast, plain) = try both(text, all, by: .sku)
    #expect(fast == plain)
    let folder = try TemporaryFolder()
    let summary = try FileOrders(path: FilePath(folder.write("o.jsonl", text)))
      .summary(of: all, by: .sku)
    #expect(summary.totals == Summary.Totals(orders: 3, voided: 1, total: 27, payable: 27))
    #expect(
      summary.sales == [
        Summary.Sales(sku: "a", quantity: 4, revenue: 20, orders: 2),
        Summary.Sales(sku: "b", quantity: 1, revenue: 7, orders: 1),
      ])
    let twice = first.replacingOccurrences(
      of: #"{"sku":"a","quantity":3,"price":5}"#,
      with: #"{"sku":"a","quantity":1,"price":5},{"sku":"a","quantity":2,"price":5}"#)
    let repeated = try both(
      twice + text.split(separator: "\n").dropFirst().joined(separator: "\n"), all, by: .sku)
    #expect(repeated.fast == repeated.plain)
    #expect(repeated.plain.contains("twice"))
  }
}
