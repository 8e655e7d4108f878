import Foundation
import Testing

/// The edges a serious Unix tool must hold: closed standard descriptors, files `shop` did not
/// write, symbolic links, FIFOs, paths that are not UTF-8.
struct EdgeTests {
  /// Every line of an orders file, each checked to be an order numbered in sequence.
  func orderNumbers(_ path: String) throws -> [Int] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.isEmpty || text.hasSuffix("\n"), "the file ends mid-line")
    return try text.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?["number"] as? Int, "not an order: \(line)")
    }
  }

  func bytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }

  // MARK: - Standard descriptors

  @Test(arguments: [
    #""$SHOP" place --orders o.jsonl pen=1 >&-"#,
    #"printf 'pen=1\n' | "$SHOP" batch --orders o.jsonl >&-"#,
    #""$SHOP" batch --orders o.jsonl in.txt >&-"#,
    #""$SHOP" place --json --orders o.jsonl pen=1 >&-"#,
    #""$SHOP" orders --orders o.jsonl >&-"#,
  ])
  func aClosedStandardOutputIs74AndTheFileStaysAsItWas(script: String) throws {
    let shop = try Shop()
    try shop.run("place", "--orders", shop.folder.file("o.jsonl"), "lamp=1")
    _ = try shop.folder.write("in.txt", "pen=1\n")
    let before = bytes(shop.folder.file("o.jsonl"))
    let run = try shop.shell(script)
    #expect(run.status == 74, "\(run)")
    #expect(run.stderr == "Error: cannot write 'standard output': Bad file descriptor\n")
    #expect(bytes(shop.folder.file("o.jsonl")) == before)
  }

  @Test(arguments: [
    #""$SHOP" place -q --orders o.jsonl pen=1 >&-"#,
    #""$SHOP" place -q --orders o.jsonl pen=1 <&- >&- 2>&-"#,
    #""$SHOP" batch -q --orders o.jsonl in.txt >&-"#,
    #""$SHOP" batch -q --orders o.jsonl in.txt <&- >&- 2>&-"#,
    #"printf 'pen=1\nlamp=2\n' | "$SHOP" batch -q --orders o.jsonl >&- 2>&-"#,
  ])
  func quietCommandsPlaceWithClosedDescriptorsAndWriteOnlyOrders(script: String) throws {
    let shop = try Shop()
    _ = try shop.folder.write("in.txt", "pen=1\nlamp=2\n")
    let run = try shop.shell(script)
    #expect(run.status == 0, "\(run)")
    let numbers = try orderNumbers(shop.folder.file("o.jsonl"))
    #expect(numbers == Array(1001..<(1001 + numbers.count)) && !numbers.isEmpty)
  }

  @Test func aBadBatchLineWithStandardErrorClosedNeverReachesTheFile() throws {
    let shop = try Shop()
    let run = try shop.shell(
      #"printf 'pen=1\nbogus\nlamp=1\n' | "$SHOP" batch -q --orders o.jsonl 2>&-"#)
    #expect(run.status == 1)
    #expect(try orderNumbers(shop.folder.file("o.jsonl")) == [1001, 1002])
  }

  @Test func aUsageErrorWithStandardErrorClosedIs64() throws {
    let shop = try Shop()
    #expect(try shop.shell(#""$SHOP" place --orders o.jsonl 2>&-"#).status == 64)
    #expect(try shop.shell(#""$SHOP" plcae pen=1 2>&-"#).status == 64)
    #expect(!FileManager.default.fileExists(atPath: shop.folder.file("o.jsonl")))
  }

  @Test func aBatchFromAClosedStandardInputIs66() throws {
    let shop = try Shop()
    let run = try shop.shell(#""$SHOP" batch -q --orders o.jsonl <&-"#)
    #expect(run.status == 66)
    #expect(run.stderr == "Error: cannot read 'standard input': Bad file descriptor\n")
    #expect(!FileManager.default.fileExists(atPath: shop.folder.file("o.jsonl")))
  }

  @Test func anOrdersFileThatIsAlsoAStandardStreamIsRefused() throws {
    let shop = try Shop()
    try shop.run("place", "--orders", shop.folder.file("o.jsonl"), "lamp=1")
    let before = bytes(shop.folder.file("o.jsonl"))
    let placed = try shop.shell(#""$SHOP" place --orders o.jsonl pen=1 >> o.jsonl"#)
    #expect(placed.status == 73)
    #expect(placed.stderr.contains("'o.jsonl' is also standard output"))
    let listed = try shop.shell(#""$SHOP" orders --orders o.jsonl >> o.jsonl"#)
    #expect(listed.status == 73)
    let quiet = try shop.shell(#"printf 'x\n' | "$SHOP" batch -q --orders o.jsonl 2>> o.jsonl"#)
    #expect(quiet.status == 73)
    // The refusal itself went where standard error was sent; no order and no report did.
    let text = String(decoding: try #require(bytes(shop.folder.file("o.jsonl"))), as: UTF8.self)
    #expect(text.hasPrefix(String(decoding: try #require(before), as: UTF8.self)))
    #expect(!text.contains("order 100") && text.components(separatedBy: "\"number\"").count == 2)
  }

  // MARK: - Files shop did not write

  @Test(arguments: ["notes.txt", "link.jsonl"])
  func aFileWithoutANewlineThatShopDidNotWriteIsRefusedAndKept(name: String) throws {
    let shop = try RootHarness()
    let notes = try shop.folder.write("notes.txt", "my notes")
    try FileManager.default.createSymbolicLink(
      atPath: shop.folder.file("link.jsonl"), withDestinationPath: "notes.txt")
    let run = try shop.run("place", "--orders", shop.folder.file(name), "pen=1")
    #expect(run.status == 65, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr.contains(":1: the file ends in 8 bytes without a newline"))
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes")
    let batch = try shop.run(["batch", "--orders", shop.folder.file(name)], input: "pen=1\n")
    #expect(batch.status == 65)
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes")
  }

  @Test func aSymbolicLinkToAFileNotYetMadeIsFollowed() throws {
    let shop = try RootHarness()
    try FileManager.default.createDirectory(
      atPath: shop.folder.file("data"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: shop.folder.file("o.jsonl"), withDestinationPath: "data/orders.jsonl")
    let run = try shop.run("place", "--orders", shop.folder.file("o.jsonl"), "pen=1")
    #expect(run.status == 0, "\(run)")
    #expect(try orderNumbers(shop.folder.file("data/orders.jsonl")) == [1001])
    let count = try shop.run("orders", "--orders", shop.folder.file("o.jsonl"), "--count")
    #expect(count.stdout == "1\n")
  }

  @Test func aTornTailForAnotherNumberIsNotCut() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("o.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    let handle = try #require(FileHandle(forWritingAtPath: orders))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"number":1005,"items":[{"sku":"pen"#.utf8))
    try handle.close()
    let before = bytes(orders)
    #expect(try shop.run("place", "--orders", orders, "pen=1").status == 65)
    #expect(bytes(orders) == before)
    // The start of the line shop would write next is a torn write of its own: cut, replaced.
    try Data(try #require(before).prefix { $0 != UInt8(ascii: "\n") } + [0x0A])
      .write(to: URL(fileURLWithPath: orders))
    let handle2 = try #require(FileHandle(forWritingAtPath: orders))
    try handle2.seekToEnd()
    try handle2.write(contentsOf: Data(#"{"number":1002,"items":[{"sku":"la"#.utf8))
    try handle2.close()
    #expect(try shop.run("place", "--orders", orders, "pen=1").stdout == "order 1002 for 30\n")
    #expect(try orderNumbers(orders) == [1001, 1002])
  }

  @Test func aWholeLineWithoutItsNewlineIsCompletedNeverCut() throws {
    // `truncate -s -1`, a script's '\n'.join(lines), an editor that saves without a final
    // newline: the last order was saved, and may have been reported.
    let shop = try RootHarness()
    let orders = shop.folder.file("o.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    try shop.run("place", "--orders", orders, "lamp=1")
    let saved = try #require(bytes(orders))
    try saved.dropLast().write(to: URL(fileURLWithPath: orders))
    #expect(try shop.run("orders", "--orders", orders, "--count").stdout == "2\n")
    #expect(try shop.run("orders", "--orders", orders, "--last", "1").stdout.hasPrefix("1002 "))
    #expect(try shop.run("orders", "--orders", orders, "1002").stdout.hasPrefix("1002 "))
    let json = try shop.run("orders", "--json", "--orders", orders)
    #expect(json.stdout == String(decoding: saved, as: UTF8.self))
    #expect(try shop.run("place", "--orders", orders, "pen=2").stdout == "order 1003 for 60\n")
    let after = try #require(bytes(orders))
    #expect(after.prefix(saved.count) == saved, "order 1002 kept byte for byte, completed")
    #expect(try orderNumbers(orders) == [1001, 1002, 1003])
    // One byte more than the line is not a line of shop's: every command refuses it.
    try (saved.dropLast() + Data("x".utf8)).write(to: URL(fileURLWithPath: orders))
    for command in [["place", "lamp=1"], ["orders"], ["orders", "--count"], ["orders", "1001"]] {
      let run = try shop.run(command + ["--orders", orders])
      #expect(run.status == 65, "\(command): \(run)")
      #expect(run.stderr.contains("o.jsonl:2: the file ends in "), "\(command): \(run)")
    }
  }

  @Test func theLargestNumberIsBadDataInEveryFormNeverACrash() throws {
    let shop = try RootHarness()
    let orders = shop.folder.file("o.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    let line = try #require(shop.lines(of: orders).first)
    let huge = line.replacingOccurrences(of: "1001", with: "\(Int.max)")
    try (line + "\n" + huge + "\n" + line + "\n").write(
      toFile: orders, atomically: false, encoding: .utf8)
    for form in [[], ["--json"], ["--count"], ["--last", "2"], ["--last", "1"], ["1001"]] {
      let run = try shop.run(["orders", "--orders", orders] + form)
      // Every form checks the ends as `place` does: the last order follows the one before.
      #expect(run.status == 65, "\(form): \(run)")
    }
    #expect(try shop.run("place", "--orders", orders, "pen=1").status == 65)
    try (line + "\n" + huge + "\n").write(toFile: orders, atomically: false, encoding: .utf8)
    #expect(try shop.run("place", "--orders", orders, "pen=1").status == 65)
  }

  @Test func aFIFOAsBatchInputIsReadAsAPipe() throws {
    let shop = try Shop()
    let fifo = shop.folder.file("in.fifo")
    guard mkfifo(fifo, 0o644) == 0 else {
      Issue.record("mkfifo failed")
      return
    }
    // The writer opens the FIFO only after shop has started reading it.
    let run = try shop.shell(
      #"(sleep 0.3; printf 'pen=1\nlamp=1\n' > in.fifo) & "$SHOP" batch --orders o.jsonl in.fifo; wait"#
    )
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "order 1001 for 30\norder 1002 for 190\n")
  }

  // MARK: - Only regular files

  static let notRegular: [([String], Int32)] = [
    (["orders", "--orders", "fifo"], 66),
    (["orders", "--count", "--orders", "fifo"], 66),
    (["catalog", "--catalog", "fifo"], 66),
    (["place", "--catalog", "fifo", "pen=1"], 66),
    (["place", "--orders", "fifo", "pen=1"], 73),
    (["place", "--orders", "/dev/null", "pen=1"], 73),
    (["orders", "--orders", "/dev/zero"], 66),
    (["orders", "--orders", "."], 66),
  ]

  @Test(arguments: notRegular)
  func somethingElseThanARegularFileIsRefusedAtOnce(arguments: [String], status: Int32) throws {
    let shop = try Shop()
    guard mkfifo(shop.folder.file("fifo"), 0o644) == 0 else {
      Issue.record("mkfifo failed")
      return
    }
    let started = try shop.start(arguments, input: nil)
    let deadline = Date().addingTimeInterval(20)
    while started.process.isRunning, Date() < deadline { usleep(10_000) }
    if started.process.isRunning {
      started.process.terminate()
      Issue.record("shop \(arguments) hangs")
      return
    }
    let run = started.finish()
    #expect(run.status == status, "\(run)")
    #expect(run.stderr.contains("not a regular file"), "\(run)")
  }

  // MARK: - Paths are bytes

  @Test func aPathThatIsNotUTF8NamesExactlyThatFile() throws {
    let shop = try Shop()
    let name: [UInt8] = Array("o".utf8) + [0xFF] + Array(".jsonl".utf8)
    let (run, _) = try shop.runBytes(
      [Array("place".utf8), Array("--orders".utf8), name, Array("pen=1".utf8)], input: [])
    #expect(run.status == 0, "\(run)")
    let entries = try rawNames(in: shop.folder.path)
    #expect(entries.contains(name))
    #expect(!entries.contains(Array("o\u{FFFD}.jsonl".utf8)))

    let catalog: [UInt8] = Array("c".utf8) + [0xFE] + Array(".csv".utf8)
    let catalogPath = Array(shop.folder.path.utf8) + [UInt8(ascii: "/")] + catalog
    let file = fopen(catalogPath.map { CChar(bitPattern: $0) } + [0], "w")
    fputs("sku,price\nink,7\n", file)
    fclose(file)
    let (listed, _) = try shop.runBytes(
      [Array("catalog".utf8), Array("--catalog".utf8), catalog], input: [])
    #expect(listed.status == 0, "\(listed)")
    #expect(listed.stdout == "ink 7\n")

    let (missing, _) = try shop.runBytes(
      [Array("catalog".utf8), Array("--catalog".utf8), Array("x".utf8) + [0xFE]], input: [])
    #expect(missing.status == 66)
    #expect(missing.stderr == "Error: cannot read 'x\\xFE': No such file or directory\n")
  }

  /// The names in a folder as the bytes the file system holds.
  func rawNames(in folder: String) throws -> [[UInt8]] {
    guard let directory = opendir(folder) else { throw CocoaError(.fileReadUnknown) }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
      var name = entry.pointee.d_name
      let bytes = withUnsafeBytes(of: &name) { Array($0.prefix { $0 != 0 }) }
      names.append(bytes)
    }
    return names
  }
}
