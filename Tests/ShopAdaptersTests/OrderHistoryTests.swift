import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The reading port, on both stores: every form, the numbering checks, and snapshots.
struct OrderHistoryTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ quantity: Int = 1) throws -> Draft {
    try #require(
      Draft(lines: [OrderLine(sku: "pen", quantity: quantity, price: 30)], placedAt: time))
  }

  /// A file store and a memory store holding the same `count` orders.
  func stores(count: Int) throws -> (
    file: FileOrders, memory: MemoryOrders, folder: TemporaryFolder
  ) {
    let folder = try TemporaryFolder()
    let file = FileOrders(path: folder.file("orders.jsonl"))
    let memory = MemoryOrders()
    var drafts: [Draft] = []
    for index in 0..<count { drafts.append(try draft(index % 9 + 1)) }
    if !drafts.isEmpty {
      _ = try file.save(drafts)
      _ = try memory.save(drafts)
    }
    return (file, memory, folder)
  }

  func all(_ history: any OrderHistory) throws -> [Int] {
    var numbers: [Int] = []
    try history.readAll { order in numbers.append(order.number) }
    return numbers
  }

  func last(_ count: Int, _ history: any OrderHistory) throws -> [Int] {
    var numbers: [Int] = []
    try history.last(count) { order in numbers.append(order.number) }
    return numbers
  }

  func find(_ number: Int, _ history: any OrderHistory) throws -> Order? {
    var found: Order?
    let present = try history.order(numbered: number) { order in found = order }
    #expect(present == (found != nil))
    return found
  }

  // 1,200 orders: over two of the file's 64 KiB chunks read from its end.
  @Test(arguments: [0, 1, 2, 7, 1200])
  func everyFormAgreesOnBothStores(count: Int) throws {
    let (file, memory, folder) = try stores(count: count)
    defer { withExtendedLifetime(folder) {} }
    for history in [file as any OrderHistory, memory] {
      #expect(try all(history) == Array(1001..<(1001 + count)))
      #expect(try history.count() == count)
      // As many as `--last` takes: up to the largest `Int`, which no count may overflow.
      for wanted in [1, 2, 5, 100, 5000, .max - 1, .max] {
        let first = 1001 + max(0, count - wanted)
        #expect(try last(wanted, history) == Array(first..<(1001 + count)))
        var ranged: [Int] = []
        let since = TimeRange(since: Timestamp(secondsSince1970: 0), until: nil)
        try history.orders(in: since, last: wanted) { ranged.append($0.number) }
        #expect(ranged == Array(first..<(1001 + count)), "the last \(wanted) of \(count)")
      }
      for number in [1000, 1001, 1002, 1000 + count / 2, 1000 + count, 1001 + count, -5, .max] {
        let found = try find(number, history)
        let exists = number >= 1001 && number <= 1000 + count
        #expect(found?.number == (exists ? number : nil), "order \(number) of \(count)")
        if let found { #expect(found.lines.first?.quantity == (number - 1001) % 9 + 1) }
      }
    }
  }

  @Test func theFileStoreHandsOutItsStoredLineAndTheMemoryStoreNone() throws {
    let (file, memory, folder) = try stores(count: 2)
    let stored = try folder.read("orders.jsonl").split(separator: "\n").map(String.init)
    var lines: [String] = []
    try file.readAll { order in
      lines.append(String(decoding: try #require(file.storedLine(of: order)), as: UTF8.self))
    }
    #expect(lines == stored)
    let history: any OrderHistory = memory
    #expect(!(history is any StoredOrderLines))
  }

  /// Every form hands out the line of the order it is visiting, and of no other order, and
  /// nothing once the visit returned: the line's memory is the reader's buffer.
  @Test func aStoredLineIsHandedOutOnlyForTheOrderBeingVisited() throws {
    let (file, _, folder) = try stores(count: 5)
    let stored = try folder.read("orders.jsonl").split(separator: "\n").map(String.init)
    func line(_ order: Order) -> String? {
      file.storedLine(of: order).map { String(decoding: $0, as: UTF8.self) }
    }
    var visited: [Order] = []
    let forms: [(String, ((Order) throws -> Void) throws -> Void)] = [
      ("all", { try file.readAll($0) }),
      ("last 2", { try file.last(2, $0) }),
      ("1003", { _ = try file.order(numbered: 1003, $0) }),
      ("range", { try file.orders(in: .all, last: 3, $0) }),
    ]
    for (name, form) in forms {
      visited = []
      try form { order in
        #expect(line(order) == stored[order.number - 1001], "\(name)")
        if let earlier = visited.last { #expect(line(earlier) == nil, "\(name)") }
        visited.append(order)
      }
      #expect(!visited.isEmpty, "\(name)")
      for order in visited { #expect(line(order) == nil, "\(name) after the visit") }
    }
  }

  @Test(arguments: [
    ([1001, 1003], 2, "order 1003 follows order 1001: numbers must go up by one"),
    ([1001, 1002, 1002], 3, "order 1002 follows order 1002: numbers must go up by one"),
    ([1002], 1, "the first order is 1002, not 1001"),
  ])
  func aGapOrARepeatStopsEveryListingAtItsLine(numbers: [Int], line: Int, reason: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    var text = ""
    for number in numbers {
      text +=
        #"{"number":\#(number),"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"#
        + #""payable":30,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let store = FileOrders(path: path)
    var seen: [Int] = []
    #expect(throws: FileError.badData(FilePath(path), line: line, reason: reason)) {
      try store.readAll { order in seen.append(order.number) }
    }
    #expect(seen == Array(numbers.prefix(line - 1)))
    if numbers.count > 1 {
      #expect(throws: FileError.self) { try last(numbers.count, store) }
    }
  }

  @Test func aLongFileIsBisectedAndAMissingNumberIsNotFound() throws {
    // 8,000 orders span many of the reader's 64 KiB chunks.
    let (file, _, folder) = try stores(count: 8000)
    defer { withExtendedLifetime(folder) {} }
    for number in [1001, 1500, 4999, 7377, 9000] {
      #expect(try find(number, file)?.number == number)
    }
    #expect(try find(9001, file) == nil)
  }

  /// Lines taken out of a long file, one or a run of them, near its start, middle and end, or
  /// two lines swapped: a number sought where the numbering breaks is that line's error, as
  /// a listing of the whole file says, never "no order"; every number still there is found.
  @Test(
    arguments: [
      ("line 2", [1002], []),
      ("the middle", [1750], []),
      ("a run", Array(1400...1419), []),
      ("two apart", [1300, 2300], []),
      ("near the end", [2490], []),
      ("swapped", [], [1500]),
    ] as [(String, [Int], [Int])])
  func aNumberWhereTheNumberingBreaksIsAnErrorAtThatLine(
    name: String, removed: [Int], swapped: [Int]
  ) throws {
    // 1,500 orders: far more than the bisection's last stretch of 4 KiB.
    let (_, _, folder) = try stores(count: 1500)
    let path = folder.file("orders.jsonl")
    var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    for number in swapped { lines.swapAt(number - 1001, number - 1000) }
    // Every line here begins `{"number":NNNN,`.
    let gone = Set(removed)
    lines.removeAll { line in gone.contains(Int(line.dropFirst(10).prefix(4)) ?? 0) }
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    let numbers = lines.map { line in Int(line.dropFirst(10).prefix(4)) ?? 0 }
    let file = FileOrders(path: path)
    for number in removed + swapped {
      // The first line at or past the number sought, and the one before it.
      let at = try #require(numbers.firstIndex { $0 >= number })
      let reason =
        "order \(numbers[at]) follows order \(numbers[at - 1]): numbers must go up by one"
      #expect(
        throws: FileError.badData(FilePath(path), line: at + 1, reason: reason), "\(name)"
      ) { _ = try find(number, file) }
    }
    for number in Set(numbers).subtracting(swapped).sorted() where number % 97 == 0 {
      #expect(try find(number, file)?.number == number, "\(name)")
    }
    #expect(try find(2501, file) == nil, "\(name)")
  }

  /// Order 2000 written again, with other items, right after it or after order 2000 + k: the
  /// lookups whose line has the stray one beside it are the file's error, never one of two
  /// orders, the others cost what they always do, reading only the lines around them (a
  /// repeat further on is for a full listing to find).
  @Test(arguments: [0, 1, 30])
  func aRepeatedNumberBesideTheOneFoundIsAnError(after k: Int) throws {
    let (_, _, folder) = try stores(count: 3000)
    let path = folder.file("orders.jsonl")
    var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(
      String.init)
    // Order 1501's items (6 pens) under number 2000, whose own are 1 pen.
    let repeated = lines[500].replacingOccurrences(
      of: #""number":1501"#, with: #""number":2000"#)
    lines.insert(repeated, at: 1000 + k)
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    let file = FileOrders(path: path)
    // The order whose next line is the stray one, and, past the first, the one after it.
    let beside = k == 0 ? [2000] : [2000 + k, 2001 + k]
    for number in beside {
      #expect(throws: FileError.self, "\(number), repeated after \(2000 + k)") {
        _ = try find(number, file)
      }
    }
    for number in [1001, 1999, 2500, 4000] + (k > 0 ? [2000] : [2001]) {
      let found = try find(number, file)
      #expect(found?.number == number, "\(number)")
      if number == 2000 { #expect(found?.lines.first?.quantity == 1, "never the stray one") }
    }
    var listed = 0
    #expect(throws: FileError.self) { try file.readAll { _ in listed += 1 } }
  }

  @Test func aReaderSeesTheFileAsItWasWhenItStartedWhateverWritersDo() throws {
    // The file ends in a torn write that the next writer cuts and replaces while a reader is
    // in the middle of the file: the reader must neither fail nor splice old bytes to new.
    let (file, _, folder) = try stores(count: 5000)
    let path = folder.file("orders.jsonl")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"number":6001,"items":[{"sku":"pe"#.utf8))
    try handle.close()
    let writer = FileOrders(path: path)
    var seen: [Int] = []
    var wrote = false
    try file.readAll { order in
      seen.append(order.number)
      if !wrote {
        wrote = true
        _ = try writer.save([try draft(), try draft()])
      }
    }
    #expect(seen == Array(1001...6000))
    var counted = 0
    var lasts: [Int] = []
    let reader = FileOrders(path: path)
    try reader.last(3) { order in
      if lasts.isEmpty { _ = try writer.save([try draft()]) }
      lasts.append(order.number)
    }
    counted = try reader.count()
    #expect(lasts == [6000, 6001, 6002])
    #expect(counted == 5003)
  }
}
