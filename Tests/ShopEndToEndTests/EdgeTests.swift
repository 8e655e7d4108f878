import Foundation
import ShopTestSupport
import Testing

/// The edges a serious Unix tool must hold, through the root in-process: files `shop` did not
/// write, symbolic links, FIFOs, paths that are not UTF-8.
struct EdgeTests {
  func orderNumbers(_ path: String) throws -> [Int] {
    try OrdersFile.numbers(path)
  }

  func bytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }

  // MARK: - Files shop did not write

  /// Orders that would be numbered past the largest integer: nothing of them is saved, and
  /// the message is true whether the last order is the largest number or just below it.
  @Test func ordersPastTheLargestNumberSaveNothingAndSaySo() throws {
    let shop = try RootHarness()
    let line = { (number: Int) in
      #"{"number":\#(number),"items":[{"sku":"pen","quantity":1,"price":30}],"total":30,"#
        + #""payable":30,"placedAt":"2026-11-30T06:06:43Z"}"# + "\n"
    }
    let orders = try shop.folder.write(
      "orders.jsonl", line(1001) + line(Int.max - 2) + line(Int.max - 1))
    let before = try shop.folder.read("orders.jsonl")
    let past =
      "the last order is \(Int.max - 1), and these orders would be numbered past \(Int.max), "
      + "the last number this machine can count; nothing was saved"
    for arguments in [["batch"], ["batch", "-q"]] {
      let run = try shop.run(arguments + ["--orders", orders], input: "pen=1\npen=2\n")
      #expect(run.status == 65, "\(arguments): \(run)")
      #expect(run.stderr.contains(past), "\(arguments): \(run)")
      #expect(try shop.folder.read("orders.jsonl") == before)
    }
    #expect(
      try shop.run("place", "--orders", orders, "pen=1").stdout == "order \(Int.max) for 30\n")
    let full = try shop.run("place", "--orders", orders, "pen=1")
    #expect(full.status == 65, "\(full)")
    #expect(
      full.stderr.contains(
        "order number \(Int.max) is the last one this machine can count; nothing was saved"),
      "\(full)")
  }

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
    let space = try shop.folder.write("space.jsonl", " ")
    let one = try shop.run("orders", "--orders", space)
    #expect(one.status == 65, "\(one)")
    #expect(one.stderr.contains(":1: the file ends in 1 byte without a newline that is neither"))
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
    let shop = try RootHarness()
    let fifo = shop.folder.file("in.fifo")
    guard mkfifo(fifo, 0o644) == 0 else {
      Issue.record("mkfifo failed")
      return
    }
    // The writer's open waits for shop to open the FIFO for reading.
    Thread.detachNewThread {
      let descriptor = open(fifo, O_WRONLY)
      guard descriptor >= 0 else { return }
      _ = "pen=1\nlamp=1\n".withCString { write(descriptor, $0, strlen($0)) }
      close(descriptor)
    }
    let run = try shop.run("batch", "--orders", shop.folder.file("o.jsonl"), fifo)
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
    let shop = try RootHarness()
    let fifo = shop.folder.file("fifo")
    guard mkfifo(fifo, 0o644) == 0 else {
      Issue.record("mkfifo failed")
      return
    }
    // A command that opened the FIFO would wait for a writer: after 20 s one comes and goes,
    // so a hang fails the test instead of stopping the run.
    let finished = DispatchSemaphore(value: 0)
    let rescued = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      guard finished.wait(timeout: .now() + 20) == .timedOut else { return }
      rescued.signal()
      let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 { close(descriptor) }
    }
    let run = try shop.run(
      arguments.map { $0 == "fifo" ? fifo : $0 == "." ? shop.folder.path + "/." : $0 })
    finished.signal()
    if rescued.wait(timeout: .now()) == .success {
      Issue.record("shop \(arguments) hangs")
      return
    }
    #expect(run.status == status, "\(run)")
    #expect(run.stderr.contains("not a regular file"), "\(run)")
  }

  // MARK: - Paths are bytes

  @Test func aPathThatIsNotUTF8NamesExactlyThatFile() throws {
    let shop = try RootHarness()
    let folder = Array(shop.folder.path.utf8) + [UInt8(ascii: "/")]
    let name: [UInt8] = Array("o".utf8) + [0xFF] + Array(".jsonl".utf8)
    let run = try shop.runBytes(
      [Array("place".utf8), Array("--orders".utf8), folder + name, Array("pen=1".utf8)])
    #expect(run.status == 0, "\(run)")
    let entries = try rawNames(in: shop.folder.path)
    #expect(entries.contains(name))
    #expect(!entries.contains(Array("o\u{FFFD}.jsonl".utf8)))

    let catalog: [UInt8] = Array("c".utf8) + [0xFE] + Array(".csv".utf8)
    let catalogPath = folder + catalog
    let file = fopen(catalogPath.map { CChar(bitPattern: $0) } + [0], "w")
    fputs("sku,price\nink,7\n", file)
    fclose(file)
    let listed = try shop.runBytes([Array("catalog".utf8), Array("--catalog".utf8), catalogPath])
    #expect(listed.status == 0, "\(listed)")
    #expect(listed.stdout == "ink 7\n")

    let missing = try shop.runBytes(
      [Array("catalog".utf8), Array("--catalog".utf8), folder + Array("x".utf8) + [0xFE]])
    #expect(missing.status == 66)
    #expect(
      missing.stderr
        == "Error: cannot read '\(shop.folder.path)/x\\xFE': No such file or directory\n")
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
