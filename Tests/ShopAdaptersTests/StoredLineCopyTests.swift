import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The fast path of `orders --json` (FileOrders+Copy.swift) against the plain one: a line is
/// taken without building its order exactly when the fast decoder would take it, with its
/// number, and a whole file lists the same bytes, and stops with the same error, both ways.
struct StoredLineCopyTests {
  typealias Differential = OrderJSONDifferentialTests

  func fast(_ line: [UInt8]) -> Int? {
    line.withUnsafeBufferPointer { StoredLine.number(of: $0) }
  }

  /// The plain path's verdict: the number of the order the fast decoder reads, or nil.
  func plain(_ line: [UInt8]) -> Int? {
    Differential().fast(line)?.number
  }

  @Test func everyEncodedOrderIsTakenWithItsNumber() throws {
    var random = SplitMix(seed: 41)
    for _ in 0..<500 {
      let order = try Differential().randomOrder(&random)
      let line = Array(Differential().encoded(order).dropLast())
      #expect(fast(line) == order.number, "\(String(decoding: line, as: UTF8.self))")
    }
  }

  @Test func onMutatedLinesTheCheckTakesWhatTheDecoderTakes() throws {
    let noise = Array(" \"\\0-,:}{[]x.eE19".utf8) + [0x80, 0xC3, 0x0D, 0x09]
    var declined = 0
    var takenChanged = 0
    for (line, mutated) in try Differential().mutatedLines(seed: 42, noise: noise, each: 10) {
      let verdict = fast(mutated)
      #expect(verdict == plain(mutated), "\(String(decoding: mutated, as: UTF8.self))")
      if verdict == nil {
        declined += 1
      } else if mutated != line {
        takenChanged += 1
      }
    }
    // Both outcomes happen, so the comparison was made on lines of each kind.
    #expect(declined > 1000)
    #expect(takenChanged > 0)
  }

  static let time = #""placedAt":"2026-11-30T06:06:43Z"}"#

  /// Random orders of 2 to 20 items whose SKUs come from a small pool of short names, so
  /// that repeats, and distinct SKUs the check's bits take for one, both happen often: the
  /// check declines exactly the lines the decoder refuses.
  @Test func onManyItemsOfFewSKUsTheCheckTakesWhatTheDecoderTakes() {
    var random = SplitMix(seed: 43)
    let pool = ["a", "b", "ab", "ba", "aa", "bb", "aba", "bab", "a-b", "b.a", "abba", "baab"]
    var (taken, declined) = (0, 0)
    for _ in 0..<600 {
      let count = Int(random.next() % 19) + 2
      let skus = (0..<count).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
      let line = Array(
        (#"{"number":1001,"items":["#
          + skus.map { #"{"sku":"\#($0)","quantity":1,"price":0}"# }.joined(separator: ",")
          + #"],"total":0,"payable":0,"# + Self.time).utf8)
      let verdict = fast(line)
      #expect(verdict == plain(line), "\(skus)")
      #expect((verdict != nil) == (Set(skus).count == skus.count), "\(skus)")
      if verdict == nil { declined += 1 } else { taken += 1 }
    }
    #expect(taken > 50 && declined > 50, "\(taken) taken, \(declined) declined")
  }

  /// Items whose SKUs repeat (side by side, apart, past the first three) and ones that only
  /// look alike: the check refuses the first as the core does, and takes the others.
  static let skuLines = [
    ["pen", "pen"], ["pen", "lamp", "pen"], ["a", "b", "c", "a"], ["a", "b", "c", "d", "d"],
    ["a", "b", "c", "d", "e", "c"], ["pen", "Pen", "pen2", "pe", "pen.", "lamp"],
  ].map { skus in
    #"{"number":1001,"items":["#
      + skus.map { #"{"sku":"\#($0)","quantity":1,"price":0}"# }.joined(separator: ",")
      + #"],"total":0,"payable":0,"# + time
  }

  @Test(
    arguments: [
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"#
        + time,
      #"{"number":1001,"ref":"web-1:a/b","items":[{"sku":"pen","quantity":2,"price":30}],"#
        + #""total":60,"payable":60,"# + time,
      #"{"number":1001,"ref":"","items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"#
        + #""payable":60,"# + time,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":-0}],"total":-0,"payable":0,"#
        + time,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":060,"payable":60,"#
        + time,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":54,"#
        + time,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":300}],"total":600,"payable":540,"#
        + time,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":4611686018427387904}],"#
        + #""total":-9223372036854775808,"payable":-9223372036854775808,"# + time,
      #"{"number":1001,"items":[{"sku":"a","quantity":1,"price":9223372036854775807},"#
        + #"{"sku":"b","quantity":1,"price":1}],"total":0,"payable":0,"# + time,
      #"{"number":1001,"items":[],"total":0,"payable":0,"# + time,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"#
        + #""placedAt":"2026-02-30T06:06:43Z"}"#,
      #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"#
        + #""placedAt":"2026-11-30T06:06:43Z"#,
      #"{"number":1000,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"#
        + time,
      #"{"number":1001,"items":[{"sku":"\#(String(repeating: "s", count: 65))","quantity":2,"#
        + #""price":30}],"total":60,"payable":60,"# + time,
      #"{"number":1001,"items":[{"sku":"pen","price":30,"quantity":2}],"total":60,"payable":60,"#
        + time,
    ] + StoredLineCopyTests.skuLines)
  func onOddLinesTheCheckTakesWhatTheDecoderTakes(line: String) {
    #expect(fast(Array(line.utf8)) == plain(Array(line.utf8)))
  }

  /// What `--json` of every order prints from `text`, and the error it stops with, by the
  /// fast path (the use case, whose listing copies the lines as they are checked) and by the
  /// plain one (each order visited, its stored line copied).
  func listings(of text: String) throws -> (fast: (String, String?), plain: (String, String?)) {
    let folder = try TemporaryFolder()
    let path = try folder.write("orders.jsonl", text)
    func run(_ body: (FileOrders, OrderListing) throws -> Void) -> (String, String?) {
      let store = FileOrders(path: FilePath(path))
      let output = BufferOutput()
      let listing = OrderListing(output: output, style: .json, lines: store)
      do {
        try body(store, listing)
        return (output.text, nil)
      } catch {
        return (output.text, "\(error)")
      }
    }
    return (
      run { store, listing in _ = try ListOrders(history: store, listing: listing).run(.all) },
      run { store, listing in
        do { try store.readAll(listing.list) } catch {
          try? listing.deliver(complete: false)
          throw error
        }
        try listing.deliver(complete: true)
      }
    )
  }

  static func line(_ number: Int, total: Int = 60, spaced: Bool = false) -> String {
    let items = #""items":[{"sku":"pen","quantity":2,"price":30}]"#
    return spaced
      ? #"{ "number": \#(number), \#(items), "total": \#(total), "payable": \#(total), "#
        + #""placedAt": "2026-11-30T06:06:43Z" }"#
      : #"{"number":\#(number),\#(items),"total":\#(total),"payable":\#(total),"# + time
  }

  @Test(arguments: [
    "",
    line(1001) + "\n" + line(1002) + "\n",
    line(1001) + "\n" + line(1002, spaced: true) + "\n" + line(1003) + "\n",
    line(1001) + "\r\n" + line(1002) + "\n",
    line(1001) + "\n" + line(1003) + "\n" + line(1004) + "\n",
    line(1001) + "\n" + line(1002) + "\n" + line(1002) + "\n" + line(1003) + "\n",
    line(1001) + "\n" + line(1002, total: 61) + "\n" + line(1003) + "\n",
    line(1001) + "\n" + "my notes\n" + line(1003) + "\n",
    line(1002) + "\n" + line(1003) + "\n",
    line(1001) + "\n" + line(1002) + "\n" + String(line(1003).prefix(40)),
    line(1001) + "\n" + line(1002) + "\n" + line(1003),
    line(1001) + "\n" + line(1002) + "\n" + "trailing words",
  ])
  func aWholeFileListsTheSameBothWays(text: String) throws {
    let (fast, plain) = try listings(of: text)
    #expect(fast.0 == plain.0)
    #expect(fast.1 == plain.1)
  }

  /// `-0` is JSON but not the encoder's form: the order is written anew, by either path, and
  /// no stored line with it is copied.
  @Test func aMinusZeroIsWrittenAnewNeverCopied() throws {
    let items = #""items":[{"sku":"pen","quantity":1,"price":"#
    let stored = #"{"number":1001,"# + items + #"-0}],"total":-0,"payable":-0,"# + Self.time
    let anew = #"{"number":1001,"# + items + #"0}],"total":0,"payable":0,"# + Self.time
    let (fast, plain) = try listings(of: stored + "\n")
    #expect(fast.0 == anew + "\n")
    #expect(plain.0 == anew + "\n")
    #expect(self.fast(Array(stored.utf8)) == nil)
  }

  /// Random files of several reading buffers (fixed seeds): orders as `shop` writes them and
  /// in other layouts, voids, a SKU twice, and lines damaged anywhere (a bit flipped, a byte
  /// taken out, a line repeated or left out, a line cut at the end): the fast path hands on
  /// runs of lines where the plain one copies each, and both list the same bytes and stop with
  /// the same error at the same line.
  @Test func randomDamagedFilesListTheSameBothWays() throws {
    var random = SplitMix(seed: 3505)
    var (stopped, whole) = (0, 0)
    for round in 0..<20 {
      var lines: [String] = []
      var number = 1001
      var orders: [Int] = []  // Not voided yet.
      let count = Int(random.next() % 1500) + 200
      while lines.count < count {
        let kind = random.next() % 100
        let twice = kind == 0 && round % 4 == 1
        let skus = twice ? ["pen", "ink", "pen"] : ["sku-\(random.next() % 50)", "lamp"]
        let items = skus.prefix(Int(random.next() % 3) + 1).map {
          #"{"sku":"\#($0)","quantity":2,"price":30}"#
        }
        let total = 60 * items.count
        let ref = kind % 7 == 0 ? #","ref":"web-\#(number)""# : ""
        var line =
          #"{"number":\#(number)\#(ref),"items":[\#(items.joined(separator: ","))],"#
          + #""total":\#(total),"payable":\#(Order.payable(total: total)),"# + Self.time
        if kind == 3, !orders.isEmpty {
          let target = orders.remove(at: Int(random.next() % UInt64(orders.count)))
          line = #"{"number":\#(number),"voids":\#(target),"placedAt":"2026-11-30T06:06:43Z"}"#
        } else {
          if kind == 4 { line = line.replacingOccurrences(of: ",", with: ", ") }
          orders.append(number)
        }
        lines.append(line)
        number += 1
      }
      // Damage in most files: anywhere, of any kind, or none.
      for _ in 0..<(round % 5 == 0 ? 0 : Int(random.next() % 3) + 1) {
        let at = Int(random.next() % UInt64(lines.count))
        var bytes = Array(lines[at].utf8)
        let place = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 5 {
        case 0: bytes[place] ^= 1 << UInt8(random.next() % 7)
        case 1: bytes.remove(at: place)
        case 2: lines.insert(lines[at], at: at)
        case 3: lines.remove(at: at)
        default: bytes[place] = UInt8(ascii: "0") + UInt8(random.next() % 10)
        }
        if random.next() % 5 < 2 { lines[at] = String(decoding: bytes, as: UTF8.self) }
      }
      var text = lines.joined(separator: "\n")
      switch random.next() % 4 {
      case 0: text += "\n"
      case 1: text += "\n" + String(lines[0].prefix(30))
      default: text += "\n"
      }
      let (fast, plain) = try listings(of: text)
      #expect(fast.0 == plain.0, "round \(round)")
      #expect(fast.1 == plain.1, "round \(round)")
      if fast.1 == nil { whole += 1 } else { stopped += 1 }
    }
    #expect(stopped > 5 && whole > 3, "\(stopped) stopped, \(whole) whole")
  }

  /// A file much larger than the listing's buffer, in either layout: the same bytes.
  @Test func aLongFileListsTheSameBothWays() throws {
    var text = ""
    for number in 1001...4000 { text += Self.line(number, spaced: number % 7 == 0) + "\n" }
    let (fast, plain) = try listings(of: text)
    #expect(fast.1 == nil && plain.1 == nil)
    #expect(fast.0 == plain.0)
    #expect(fast.0.utf8.count > 3 * (1 << 16))
  }
}
