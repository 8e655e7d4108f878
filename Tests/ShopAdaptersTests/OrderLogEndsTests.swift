import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Readers and writers read the start and the end of an orders file by one rule: whatever
/// `save` refuses, every reading form refuses at the same line, and the other way round.
struct OrderLogEndsTests {
  static let time = Timestamp(secondsSince1970: 1_796_018_803)

  static func line(_ number: Int, quantity: Int = 1) -> String {
    #"{"number":\#(number),"items":[{"sku":"pen","quantity":\#(quantity),"price":30}],"#
      + #""total":\#(30 * quantity),"payable":\#(30 * quantity),"#
      + #""placedAt":"2026-11-30T06:06:43Z"}"#
  }

  static var l1001: String { line(1001) + "\n" }
  static var l1002: String { line(1002) + "\n" }

  /// What one form made of the file: the orders it saw, or the line it refused.
  enum Verdict: Equatable, CustomStringConvertible {
    case orders([Int])
    case refused(line: Int)
    case other(String)

    var description: String {
      switch self {
      case .orders(let numbers): return "orders \(numbers)"
      case .refused(let line): return "refused at line \(line)"
      case .other(let text): return text
      }
    }
  }

  static func verdict(_ body: () throws -> [Int]) -> Verdict {
    do {
      return .orders(try body())
    } catch let error as FileError {
      guard case .badData(_, let line, _) = error else { return .other("\(error)") }
      return .refused(line: line)
    } catch {
      return .other("\(error)")
    }
  }

  /// Every reading form's verdict, by name.
  static func readers(_ path: String, lineBound: Int = FileOrders.maximumLineBytes) -> [(
    String, Verdict
  )] {
    let store = FileOrders(path: FilePath(path), lineBound: lineBound)
    func collect(_ read: ((Order) throws -> Void) throws -> Void)
      throws -> [Int]
    {
      var numbers: [Int] = []
      try read { order in numbers.append(order.number) }
      return numbers
    }
    return [
      ("all", verdict { try collect(store.readAll) }),
      ("count", verdict { Array(1001..<(1001 + (try store.count()))) }),
      ("last 1", verdict { try collect { try store.last(1, $0) } }),
      ("last 100", verdict { try collect { try store.last(100, $0) } }),
      ("1001", verdict { try collect { _ = try store.order(numbered: 1001, $0) } }),
    ]
  }

  static func draft() -> Draft? {
    Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time)
  }

  /// Files and the line every command refuses them at (0: every command takes them).
  static let files: [(String, Int)] = {
    var files: [(String, Int)] = []
    files.append(("my notes", 1))
    files.append(("my notes\n", 1))
    files.append(("\n", 1))
    files.append((line(1002) + "\n", 1))
    files.append((line(1002), 1))
    files.append((line(1002) + "\n" + line(1003) + "\n", 1))
    files.append((line(1002) + "\n" + line(1003) + "\n" + line(1004) + "\n", 1))
    files.append(("x\n" + l1002 + line(1003) + "\n", 1))
    files.append((l1001 + "my notes", 2))
    files.append((l1001 + line(1003), 2))
    files.append(
      (l1001 + line(1002).replacingOccurrences(of: #""total":30"#, with: #""total":31"#), 2))
    files.append((l1001 + line(1002) + "x", 2))
    // A quantity no cart holds is not an order `place` could have written, whole or not.
    let free = { (number: Int, quantity: Int) in
      #"{"number":\#(number),"items":[{"sku":"gift","quantity":\#(quantity),"price":0}],"#
        + #""total":0,"payable":0,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    }
    files.append((l1001 + free(1002, 1_000_001), 2))
    files.append((free(1001, 1_000_000), 0))
    // Nor is a SKU in two items, which a cart adds into one: next to each other or apart,
    // among a few items or many, summing past what a cart holds or not.
    let gifts = { (number: Int, skus: [String], quantity: Int) in
      #"{"number":\#(number),"items":["#
        + skus.map { #"{"sku":"\#($0)","quantity":\#(quantity),"price":0}"# }.joined(
          separator: ",")
        + #"],"total":0,"payable":0,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    }
    let many = (0..<20).map { "s\($0)" }
    files.append((l1001 + gifts(1002, ["pen", "pen"], 1), 2))
    files.append((gifts(1001, ["pen", "pen"], 600_000), 1))
    files.append((l1001 + gifts(1002, ["pen", "ink", "lamp", "ink"], 2) + line(1003) + "\n", 2))
    files.append((l1001 + l1002 + gifts(1003, many + ["s7"], 1), 3))
    files.append((l1001 + gifts(1002, many, 1) + gifts(1003, ["pen", "Pen", "pen-"], 1), 0))
    files.append((l1001 + line(1002) + "\n\n", 3))
    files.append((l1001 + l1002 + line(1002) + "\n", 3))
    files.append((l1001 + l1002 + line(1002), 3))
    files.append((l1001 + "{\"number\":1003", 2))
    files.append((l1001 + "{\"number\":1002,\"items\":[{\"sku\":\"pen\",\"quantity\":1,\"pri", 0))
    files.append(("{\"numb", 0))
    files.append(("", 0))
    // A torn tail is cut only if the encoder could have written it for the next order: its
    // integers without leading zeros, a quantity a cart holds, the total of its items, the
    // payable of that total, a time that exists. Each of these is not one, and stays.
    let item = #"{"number":1002,"items":[{"sku":"pen","quantity":"#
    let tens = item + #"10,"price":30}],"total":300,"payable":"#
    let time = item + #"1,"price":30}],"total":30,"payable":30,"placedAt":""#
    for foreign in [
      item + "01", item + "0,", item + "1000001", item + #"1,"price":030"#,
      item + #"1,"price":30}],"total":99"#, item + #"1,"price":30}],"total":300"#,
      item + #"1,"price":30}],"total":30,"payable":31"#, tens + "300", tens + "2701",
      time + "2026-13", time + "2026-04-31", time + "2027-02-29", time + "2026-11-30T24",
      time + "2026-11-30T23:60", time + "2026-11-30T23:59:60", time + "2026-11-30T23:59:59z",
      item + #"2,"price":4611686018427387904}],"total":"#,
      item + #"2,"price":4611686018427387904}]"#,
      // A SKU in a second item, whole: the encoder writes each SKU once.
      item + #"1,"price":30},{"sku":"pen""#,
      item + #"1,"price":30},{"sku":"lamp","quantity":1,"price":1},{"sku":"pen","quantity":1"#,
    ] {
      files.append((l1001 + foreign, 2))
    }
    // And these are starts of what it writes: cut.
    for torn in [
      tens + "27", tens + "270", time + "2028-02-29T23:5", time + "2026-04-30",
      item + #"1000000,"price":0}],"total":0,"payable":0,"placedAt":"2026-1"#,
      // Another SKU, or one not yet whole that may still become another.
      item + #"1,"price":30},{"sku":"pen2","quantity":1"#, item + #"1,"price":30},{"sku":"pen"#,
      item + #"1,"price":30},{"sku":"Pen","quantity":1,"price":30}],"total":60"#,
    ] {
      files.append((l1001 + torn, 0))
    }
    return files
  }()

  @Test(arguments: files)
  func placeAndEveryReaderAgree(text: String, refusedLine: Int) throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("orders.jsonl", text)
    let readers = Self.readers(path)
    let store = FileOrders(path: FilePath(path))
    let saved = Self.verdict { try store.save([try #require(Self.draft())]).map(\.number) }
    if refusedLine > 0 {
      #expect(saved == .refused(line: refusedLine), "place")
      #expect(try folder.read("orders.jsonl") == text, "a refused file is left as it was")
      for (name, verdict) in readers {
        #expect(verdict == .refused(line: refusedLine), "\(name)")
      }
    } else {
      for (name, verdict) in readers {
        guard case .orders = verdict else {
          Issue.record("\(name): \(verdict)")
          continue
        }
      }
      guard case .orders(let numbers) = saved else {
        Issue.record("place: \(saved)")
        return
      }
      #expect(Self.readers(path).first?.1 == .orders(Array(1001...(numbers.last ?? 0))))
    }
  }

  @Test(arguments: [
    (l1001 + line(1002), [1001, 1002]),
    (line(1001), [1001]),
    (
      l1001 + #"{ "placedAt":"2026-11-30T06:06:43Z", "payable":30, "total":30, "number":1002,"#
        + #" "items":[{"sku":"pen","quantity":1,"price":30}] }"#,
      [1001, 1002]
    ),
    (l1001.replacingOccurrences(of: "\n", with: "\r\n") + line(1002), [1001, 1002]),
  ])
  func aLastLineMissingOnlyItsNewlineIsListedAndCompleted(text: String, numbers: [Int]) throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("orders.jsonl", text)
    for (name, verdict) in Self.readers(path) {
      let expected: [Int]
      switch name {
      case "last 1": expected = [numbers.last ?? 0]
      case "1001": expected = [1001]
      default: expected = numbers
      }
      #expect(verdict == .orders(expected), "\(name)")
    }
    let next = (numbers.last ?? 0) + 1
    let saved = try FileOrders(path: FilePath(path)).save([try #require(Self.draft())])
    #expect(saved.map(\.number) == [next])
    let after = try folder.read("orders.jsonl")
    #expect(after == text + "\n" + Self.line(next) + "\n", "completed, never cut")
    #expect(Self.readers(path).first?.1 == .orders(numbers + [next]))
  }

  @Test func aFileOfAGigabyteOfZerosIsRefusedByEveryFormAtOnce() throws {
    // Sparse: the test costs no disk. Without a newline in the last 64 MiB (1 MiB here, to
    // keep the debug build fast), the tail is longer than any line shop writes, so nothing of
    // it is read into memory.
    let bound = 1 << 20
    let folder = try TemporaryFolder()
    for prefix in ["", Self.l1001] {
      let path = try folder.write("zeros.jsonl", prefix)
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.truncate(atOffset: 1 << 30)
      try handle.close()
      let line = prefix.isEmpty ? 1 : 2
      for (name, verdict) in Self.readers(path, lineBound: bound) {
        #expect(verdict == .refused(line: line), "\(name)")
      }
      let saved = Self.verdict {
        try FileOrders(path: FilePath(path), lineBound: bound).save([try #require(Self.draft())])
          .map(\.number)
      }
      #expect(saved == .refused(line: line))
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
      #expect(size == 1 << 30)
    }
  }

  @Test func newlinesAreCountedAlikeAcrossHoles() throws {
    // Data at the start, between holes, across a block's edge and just before a hole at the
    // end: the count skips the holes, never what lies between them.
    let folder = try TemporaryFolder()
    let path = try folder.write("sparse", "")
    let islands = [
      (0, "a\nb\n"), (3 << 20, "\n\nc"), ((5 << 20) + 4095, "\nd\n"), ((9 << 20) - 1, "\n"),
    ]
    let handle = try #require(FileHandle(forWritingAtPath: path))
    for (offset, text) in islands {
      try handle.seek(toOffset: UInt64(offset))
      try handle.write(contentsOf: Data(text.utf8))
    }
    try handle.truncate(atOffset: 12 << 20)
    try handle.close()
    let newlines = islands.flatMap { offset, text in
      text.utf8.enumerated().filter { $0.element == UInt8(ascii: "\n") }.map { offset + $0.offset }
    }
    let file = LineFile(
      path: FilePath(path), descriptor: try Descriptor.open(FilePath(path), .read),
      lineBound: 1 << 20)
    let ends = [0, 1, 2, 4, 3 << 20, (3 << 20) + 2, 5 << 20, (5 << 20) + 4096, (9 << 20) - 1]
    for end in ends + [9 << 20, (9 << 20) + 1, 12 << 20] {
      #expect(try file.newlines(before: end) == newlines.filter { $0 < end }.count, "\(end)")
    }
  }

  /// Counting to an end past the file's (another program cut it meanwhile) is a short read,
  /// as reading there is, never a count of fewer lines.
  @Test func countingPastTheEndOfAFileCutMeanwhileIsAShortRead() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("cut", Self.l1001 + Self.l1002)
    let file = LineFile(
      path: FilePath(path), descriptor: try Descriptor.open(FilePath(path), .read),
      lineBound: 1 << 20)
    #expect(try file.newlines(before: (Self.l1001 + Self.l1002).utf8.count) == 2)
    #expect(throws: FileError.unreadable(FilePath(path), .shortRead)) {
      try file.newlines(before: 1 << 20)
    }
  }

  @Test func aLineLongerThanTheBoundIsRefusedAtItsLineAfterTheLinesBeforeIt() throws {
    let folder = try TemporaryFolder()
    // A bound of 1 MiB here (64 MiB in use): the same code, without writing 64 MiB lines.
    let bound = 1 << 20
    let long = String(repeating: "x", count: bound + 1)
    for (text, line) in [
      (Self.l1001 + long + "\n" + Self.l1001, 2),
      (Self.l1001 + Self.l1002 + long + "\n", 3),
      (Self.l1001 + Self.l1002 + long, 3),
    ] {
      let path = try folder.write("long.jsonl", text)
      var seen: [Int] = []
      let error = #expect(throws: FileError.self) {
        try FileOrders(path: FilePath(path), lineBound: bound).readAll { order in
          seen.append(order.number)
        }
      }
      guard case .badData(_, let at, let reason)? = error else {
        Issue.record("\(String(describing: error))")
        continue
      }
      #expect(at == line)
      #expect(reason.contains("longer than 1048576 bytes"))
      for (name, verdict) in Self.readers(path, lineBound: bound) where name != "all" {
        #expect(verdict == .refused(line: line), "\(name)")
      }
      let saved = Self.verdict {
        try FileOrders(path: FilePath(path), lineBound: bound).save([try #require(Self.draft())])
          .map(\.number)
      }
      #expect(saved == .refused(line: line))
      #expect(seen == Array([1001, 1002].prefix(line - 1)), "the lines before it were listed")
    }
  }

  @Test func aHugeTornTailIsMatchedInChunksAndCut() throws {
    // 140 kB (3 chunks) of items that are all the start of order 1002's line: a write that
    // never finished, however long. It is matched a chunk at a time and cut by the next writer.
    let folder = try TemporaryFolder()
    // Each item of another SKU, as the encoder writes them.
    var torn = #"{"number":1002,"items":[{"sku":"pen","quantity":1,"price":30}"#
    var index = 0
    while torn.utf8.count < 140_000 {
      torn += #",{"sku":"pen-\#(index)","quantity":1,"price":30}"#
      index += 1
    }
    let path = try folder.write("orders.jsonl", Self.l1001 + torn)
    for (name, verdict) in Self.readers(path) {
      #expect(verdict == .orders([1001]), "\(name)")
    }
    let saved = try FileOrders(path: FilePath(path)).save([try #require(Self.draft())])
    #expect(saved.map(\.number) == [1002])
    #expect(try folder.read("orders.jsonl") == Self.l1001 + Self.line(1002) + "\n")
  }
}
