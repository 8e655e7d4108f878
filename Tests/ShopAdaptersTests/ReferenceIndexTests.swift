import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// References in the file store: at most once per file, through an index that is derived from
/// the orders file and rebuilt whenever it can't be trusted.
struct ReferenceIndexTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ ref: String?, _ items: KeyValuePairs<String, Int> = ["pen": 1]) throws -> Draft {
    let lines = items.map { OrderLine(sku: $0.key, quantity: $0.value, price: 30) }
    return try #require(
      Draft(lines: lines, placedAt: time, reference: ref.flatMap { Reference($0) }))
  }

  func found(_ ref: String, in path: String) throws -> Int? {
    var number: Int?
    let reference = try #require(Reference(ref))
    _ = try FileOrders(path: path).order(referenced: reference) { order in
      number = order.number
    }
    return number
  }

  func numbers(_ path: String) throws -> [Int] {
    var numbers: [Int] = []
    try FileOrders(path: path).readAll { order in numbers.append(order.number) }
    return numbers
  }

  @Test func aRefPlacedAgainIsTheSameOrderOrARefusalAndSavesNothing() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let first = try FileOrders(path: path).place([draft("web-5512", ["pen": 2, "lamp": 1])])
    let order = try #require(first.first?.order)
    #expect(first == [.placed(order)])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // Another process, another store: found through the index file.
    let again = try FileOrders(path: path).place([
      draft("web-5512", ["lamp": 1, "pen": 2]), draft("web-5512", ["pen": 2]),
      draft("web-5512", ["pen": 2, "lamp": 2]), draft("web-5512", ["pen": 2, "lamp": 1, "ink": 1]),
    ])
    #expect(again == [.alreadyPlaced(order), .conflict(order), .conflict(order), .conflict(order)])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "nothing was written")
    #expect(try found("web-5512", in: path) == 1001)
    #expect(try found("web-5513", in: path) == nil)
  }

  @Test func aRefTwiceInOneGroupIsPlacedOnce() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let placed = try FileOrders(path: path).place([
      draft("a"), draft(nil), draft("a"), draft("a", ["pen": 2]), draft("b"), draft(nil),
    ])
    #expect(placed.map(\.order.number) == [1001, 1002, 1001, 1001, 1003, 1004])
    #expect(
      placed.map { if case .placed = $0 { return true } else { return false } } == [
        true, true, false, false, true, true,
      ])
    #expect(try numbers(path) == [1001, 1002, 1003, 1004])
  }

  @Test func anOrderWithoutARefIsTheLineOfBeforeAndMakesNoIndex() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft(nil, ["pen": 2, "lamp": 1])])
    #expect(
      try folder.read("orders.jsonl")
        == #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30},{"sku":"lamp","quantity":1,"price":30}],"total":90,"payable":90,"placedAt":"2026-11-30T06:06:43Z"}"#
        + "\n")
    #expect(!FileManager.default.fileExists(atPath: path + ".refs"))
    _ = try FileOrders(path: path).place([draft("web-1")])
    #expect(
      try folder.read("orders.jsonl").hasSuffix(
        #"{"number":1002,"ref":"web-1","items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"payable":30,"placedAt":"2026-11-30T06:06:43Z"}"#
          + "\n"))
    #expect(FileManager.default.fileExists(atPath: path + ".refs"))
  }

  @Test func anOrdersFileOfTodaysFormatTakesRefsAndStaysReadable() throws {
    let folder = try TemporaryFolder()
    // Written by an older shop: no "ref" anywhere, and a layout of its own on line 2.
    let path = try folder.write(
      "orders.jsonl",
      #"{"number":1001,"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"payable":30,"placedAt":"2026-11-30T06:06:43Z"}"#
        + "\n"
        + #"{ "placedAt": "2026-11-30T06:06:43Z", "number": 1002, "total": 30, "payable": 30, "items": [{"price": 30, "quantity": 1, "sku": "pen"}] }"#
        + "\n")
    let placed = try FileOrders(path: path).place([draft("web-1"), draft("web-1")])
    #expect(placed.map(\.order.number) == [1003, 1003])
    #expect(try numbers(path) == [1001, 1002, 1003])
    #expect(try found("web-1", in: path) == 1003)
    // A ref written in another layout is read too, and is held like any other.
    try Data(
      (try folder.read("orders.jsonl")
        + #"{ "ref" : "web-2", "number": 1004, "total": 30, "payable": 30, "placedAt": "2026-11-30T06:06:43Z", "items": [{"price": 30, "quantity": 1, "sku": "pen"}] }"#
        + "\n").utf8
    ).write(to: URL(fileURLWithPath: path))
    #expect(
      try FileOrders(path: path).place([draft("web-2")]) == [
        .alreadyPlaced(try #require(Order(number: 1004, draft: draft("web-2")) as Order?))
      ])
  }

  /// Each way an index can be wrong: every ref is still found, once, and new ones placed.
  enum Damage: String, CaseIterable {
    case deleted, stale, garbage, truncated, emptied, wrongOffset, hugeOffsets, otherFile
  }

  @Test(arguments: Damage.allCases)
  func aDamagedIndexIsRebuiltFromTheOrdersFile(damage: Damage) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let index = path + ".refs"
    _ = try FileOrders(path: path).place([draft("r0"), draft(nil), draft("r1")])
    let early = try Data(contentsOf: URL(fileURLWithPath: index))
    _ = try FileOrders(path: path).place((2..<300).map { try draft("r\($0)") })
    switch damage {
    case .deleted:
      try FileManager.default.removeItem(atPath: index)
    case .stale:
      try early.write(to: URL(fileURLWithPath: index))
    case .garbage:
      var random = SplitMix(seed: 114)
      let size = try Data(contentsOf: URL(fileURLWithPath: index)).count
      var garbage: [UInt8] = []
      while garbage.count < size { withUnsafeBytes(of: random.next()) { garbage += $0 } }
      try Data(garbage.prefix(size)).write(to: URL(fileURLWithPath: index))
    case .truncated:
      let data = try Data(contentsOf: URL(fileURLWithPath: index))
      try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: index))
    case .emptied:
      try Data().write(to: URL(fileURLWithPath: index))
    case .wrongOffset:
      // Every slot points at the first line: each hit fails its check against the file.
      var data = try Data(contentsOf: URL(fileURLWithPath: index))
      for slot in stride(from: 4096, to: data.count, by: 16) {
        data.replaceSubrange((slot + 8)..<(slot + 16), with: [UInt8](repeating: 0, count: 8))
      }
      try data.write(to: URL(fileURLWithPath: index))
    case .hugeOffsets:
      // Offsets no file has, past the largest Int and negative as one: never a trap.
      var data = try Data(contentsOf: URL(fileURLWithPath: index))
      let offsets: [UInt64] = [1 << 63, .max, (1 << 63) + 4096, 1 << 62]
      for (count, slot) in stride(from: 4096, to: data.count, by: 16).enumerated() {
        withUnsafeBytes(of: offsets[count % offsets.count].littleEndian) {
          data.replaceSubrange((slot + 8)..<(slot + 16), with: $0)
        }
      }
      try data.write(to: URL(fileURLWithPath: index))
    case .otherFile:
      // The orders file replaced by a copy (another inode) that is one order longer.
      let copy = folder.file("copy.jsonl")
      try FileManager.default.copyItem(atPath: path, toPath: copy)
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.moveItem(atPath: copy, toPath: path)
      _ = try FileOrders(path: path).save([draft(nil)])
    }
    if damage != .deleted && damage != .otherFile {
      // Readers never trust it either, and never write it.
      let before = try? Data(contentsOf: URL(fileURLWithPath: index))
      #expect(try found("r150", in: path) == 1152)
      #expect(try found("r0", in: path) == 1001)
      #expect(try found("nope", in: path) == nil)
      #expect((try? Data(contentsOf: URL(fileURLWithPath: index))) == before)
    }
    let again = try FileOrders(path: path).place((0..<300).map { try draft("r\($0)") })
    #expect(again.map(\.order.number) == [1001] + (1003...1301).map { $0 })
    #expect(again.allSatisfy { if case .alreadyPlaced = $0 { return true } else { return false } })
    let new = try FileOrders(path: path).place([draft("r300")])
    let last = damage == .otherFile ? 1303 : 1302
    #expect(new.map(\.order.number) == [last])
    #expect(try found("r299", in: path) == 1301)
    #expect(try numbers(path) == Array(1001...last))
  }

  /// Another file on the orders file's inode (`rm`, then `cp` of another store, which the
  /// file system gave the same inode; here written in place), its lines as long as the ones
  /// the index saw: the refs are the new file's, whichever of its lines differ.
  @Test(arguments: ["every line", "the last line", "the first line"])
  func anIndexOfOtherLinesOnTheSameInodeIsRebuilt(differing: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).place((0..<40).map { try draft("r\($0)") })
    let lines = try folder.read("orders.jsonl").split(separator: "\n").map(String.init)
    var other = lines
    for index in lines.indices {
      let changed =
        differing == "every line" || (differing == "the last line" && index == lines.count - 1)
        || (differing == "the first line" && index == 0)
      if changed {
        other[index] = lines[index].replacingOccurrences(of: #""ref":"r"#, with: #""ref":"q"#)
      }
    }
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(other.map { $0 + "\n" }.joined().utf8))
    try handle.close()
    let moved =
      differing == "every line" ? Array(0..<40) : differing == "the last line" ? [39] : [0]
    for ref in moved {
      #expect(try found("q\(ref)", in: path) == 1001 + ref, "\(differing)")
      #expect(try found("r\(ref)", in: path) == nil, "\(differing)")
    }
    let again = try FileOrders(path: path).place([draft("r\(moved[0])")])
    #expect(again.map(\.order.number) == [1041], "\(differing): placed anew")
  }

  /// Orders files named as another one's index (`shop.refs`) and its new copy
  /// (`shop.refs.new`), and a note of the user's there: none is removed, replaced or written.
  /// The index lives in memory instead, each ref still found and placed once.
  @Test(arguments: ["orders", "a note", "links to nothing", "links to notes"])
  func aFileWhereTheIndexWouldGoIsNeverTouched(kind: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("shop")
    for name in ["shop.refs", "shop.refs.new"] {
      switch kind {
      case "orders": _ = try FileOrders(path: folder.file(name)).place([draft(nil), draft(nil)])
      case "a note": _ = try folder.write(name, String(repeating: "my notes\n", count: 1000))
      default:
        // A link is never followed to make its target, nor replaced.
        if kind == "links to notes" { _ = try folder.write(name + ".target", "my notes\n") }
        try FileManager.default.createSymbolicLink(
          atPath: folder.file(name), withDestinationPath: folder.file(name + ".target"))
      }
    }
    func state() throws -> [String] {
      try ["shop.refs", "shop.refs.new"].map { name in
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: folder.file(name))
        let text = try? folder.read(link == nil ? name : name + ".target")
        return "\(link ?? "-") \(text ?? "-")"
      }
    }
    let before = try state()
    let placed = try FileOrders(path: path).place([draft("x"), draft("y")])
    #expect(placed.map(\.order.number) == [1001, 1002])
    #expect(try FileOrders(path: path).place([draft("x")]).map(\.order.number) == [1001])
    #expect(try found("y", in: path) == 1002)
    #expect(try state() == before)
  }

  /// A line longer than the bound between orders with refs: rebuilding the index stops at it
  /// with its number, as every reader does, never reading it whole (a bound of 64 KiB here,
  /// 64 MiB in use).
  @Test func aLineLongerThanTheBoundStopsTheIndexAtItsLine() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).place([draft("r0"), draft("r1"), draft("r2")])
    let lines = try folder.read("orders.jsonl").split(separator: "\n")
    let long = String(repeating: "x", count: 300_000)
    let text = lines[..<3].joined(separator: "\n") + "\n" + long + "\n" + lines[0] + "\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    try? FileManager.default.removeItem(atPath: path + ".refs")
    let bound = 1 << 16
    let store = FileOrders(path: FilePath(path), lineBound: bound)
    let reason = "a line longer than \(bound) bytes is not an order shop writes"
    #expect(
      throws: FileError.badData(FilePath(path), line: 4, reason: reason + "; nothing was changed")
    ) {
      try store.place([draft("r9")])
    }
    #expect(throws: FileError.badData(FilePath(path), line: 4, reason: reason)) {
      try store.order(referenced: try #require(Reference("r9"))) { _ in }
    }
    #expect(try folder.read("orders.jsonl") == text)
  }

  @Test func aRefIsFoundWithoutReadingTheHistory() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    // Line 10 is longer than the bound the stores below read with: a scan would stop there
    // with its number; a current index never reads it.
    let long = try #require(
      Draft(
        lines: (0..<2000).map { OrderLine(sku: "sku-\($0)", quantity: 1, price: 30) },
        placedAt: time, reference: Reference("r9")))
    _ = try FileOrders(path: path).place((0..<50).map { $0 == 9 ? long : try draft("r\($0)") })
    func store() -> FileOrders { FileOrders(path: FilePath(path), lineBound: 1 << 16) }
    #expect(try store().place([draft("r40"), draft("r50")]).map(\.order.number) == [1041, 1051])
    // Found after line 10 (an order is read on from its line, for the voids that follow it).
    var number: Int?
    _ = try store().order(referenced: try #require(Reference("r30"))) { number = $0.number }
    #expect(number == 1031)
    // Without the index, placing a ref must read every line, and says where the file is bad.
    try FileManager.default.removeItem(atPath: path + ".refs")
    let error = try #require(throws: FileError.self) {
      try store().place([draft("r51")])
    }
    #expect(error.status == .dataError)
    #expect(error.message.contains(":10:"), "\(error.message)")
  }

  @Test func theIndexGrowsAndEveryRefStaysFound() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let store = FileOrders(path: path)
    for group in 0..<10 {
      _ = try store.place((0..<500).map { try draft("g\(group)-\($0)") })
      _ = try FileOrders(path: path).save([draft(nil)])  // Another writer, without refs.
    }
    let size = try #require(
      FileManager.default.attributesOfItem(atPath: path + ".refs")[.size] as? Int)
    #expect(size == 4096 + 16_384 * 16 + 16_384 / 16 * 8, "5,000 refs at most half full")
    #expect(try found("g0-0", in: path) == 1001)
    #expect(try found("g9-499", in: path) == 1001 + 9 * 501 + 499)
    let again = try FileOrders(path: path).place((0..<500).map { try draft("g5-\($0)") })
    #expect(again.map(\.order.number) == Array((1001 + 5 * 501)..<(1001 + 5 * 501 + 500)))
  }

  @Test func aRefAfterTheIndexedEndIsFoundByAReader() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).place([draft("a")])
    let index = try Data(contentsOf: URL(fileURLWithPath: path + ".refs"))
    _ = try FileOrders(path: path).place([draft("b")])
    try index.write(to: URL(fileURLWithPath: path + ".refs"))  // Stale: knows only "a".
    #expect(try found("b", in: path) == 1002)
    #expect(try found("a", in: path) == 1001)
  }
}

extension ReferenceIndexTests {
  /// Ways the numbering breaks beside the order a ref finds (orders 1001…1010, refs on 1001,
  /// 1003 and 1006), and the line whose number is then wrong.
  enum Break: String, CaseIterable {
    case foundTwice, sameNumberBefore, lineBeforeRemoved, lineAfterRemoved, firstRepeated
    case nextToLastRemoved

    var sought: String {
      switch self {
      case .firstRepeated: "first"
      case .nextToLastRemoved: "late"
      default: "sought"
      }
    }

    var line: Int {
      switch self {
      case .foundTwice, .sameNumberBefore, .lineAfterRemoved: 4
      case .lineBeforeRemoved, .firstRepeated: 2
      case .nextToLastRemoved: 7
      }
    }

    func apply(_ lines: inout [String]) {
      let renumbered = { (line: String, number: Int) in
        "{\"number\":\(number)," + line.drop { $0 != "," }.dropFirst()
      }
      switch self {
      case .foundTwice: lines.insert(lines[2], at: 3)
      case .sameNumberBefore: lines.insert(renumbered(lines[3], 1003), at: 2)
      case .lineBeforeRemoved: lines.remove(at: 1)
      case .lineAfterRemoved: lines.remove(at: 3)
      case .firstRepeated: lines.insert(renumbered(lines[1], 1001), at: 1)
      case .nextToLastRemoved: lines.remove(at: 6)
      }
    }
  }

  /// Where the numbering breaks beside the order a ref finds, the look-up is that line's
  /// error, never one of two orders of a number, for `orders --ref` and for placing the ref
  /// again, with the index current and with none; a ref whose neighbours follow each other
  /// is still found.
  @Test(arguments: Break.allCases, [true, false])
  func aRefWhoseNeighboursBreakTheNumberingIsAnErrorAtThatLine(
    change: Break, indexed: Bool
  ) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).place(
      (0..<10).map { try draft([0: "first", 2: "sought", 5: "late"][$0]) })
    var lines = try folder.read("orders.jsonl").split(separator: "\n").map(String.init)
    change.apply(&lines)
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    if !indexed { try FileManager.default.removeItem(atPath: path + ".refs") }
    var line: Int?
    do {
      let number = try found(change.sought, in: path)
      Issue.record("\(change): found \(number.map(String.init) ?? "none")")
    } catch let FileError.badData(_, at, _) {
      line = at
    }
    #expect(line == change.line, "\(change)")
    // Placing the ref again meets the same line, not "already placed" as one of two.
    let before = try folder.read("orders.jsonl")
    do {
      let placed = try FileOrders(path: path).place([draft(change.sought)])
      Issue.record("\(change): placed again as \(placed)")
    } catch let FileError.badData(_, at, _) {
      #expect(at == change.line, "\(change): place")
    }
    #expect(try folder.read("orders.jsonl") == before, "\(change): nothing written")
    let other = change.sought == "late" ? "first" : "late"
    guard change != .foundTwice else {
      // A store that holds a ref twice is refused at the second line, whatever ref is sought.
      #expect(throws: FileError.self, "\(change): \(other)") { try found(other, in: path) }
      return
    }
    #expect(try found(other, in: path) != nil, "\(change): \(other)")
  }
}
