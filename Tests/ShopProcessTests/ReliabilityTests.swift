import Foundation
import ShopTestSupport
import Testing

/// The suite that tries hard to break the guarantees: many processes at once, kill -9, a full
/// disk, bad files, fuzzed input. Seeds are fixed and printed; set SHOP_FUZZ_SEED to replay.
@Suite(.serialized)
struct ReliabilityTests {
  /// Every complete line of an orders file, parsed; a torn last line is left out.
  func savedNumbers(_ path: String) throws -> [Int] {
    let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()  // After the last newline: empty, or a torn line.
    return try lines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?["number"] as? Int, "not an order: \(line)")
    }
  }

  @Test func eightProcessesPlacingAndABatchBesideThemShareOneFile() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let batchInput = try shop.folder.write(
      "batch.txt", (1...2000).map { "pen=\($0 % 5 + 1) lamp=1" }.joined(separator: "\n") + "\n")
    var processes = Shop.placingLoops(8, count: 100, into: orders)
    let batch = Process()
    batch.executableURL = URL(fileURLWithPath: Shop.binary)
    batch.arguments = ["batch", "-q", "--orders", orders, batchInput]
    processes.append(batch)
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "a command failed")
    #expect(try savedNumbers(orders) == Array(1001...3800))
    #expect(try shop.run("orders", "--orders", orders, "--count").stdout == "2800\n")
  }

  @Test func killNineLosesNothingThatWasReported() throws {
    // The batch reads a pipe fed in small chunks, so it commits many small groups and each
    // kill lands somewhere among writes, syncs and reports.
    signal(SIGPIPE, SIG_IGN)  // Writing to the killed batch must fail, not kill the tests.
    let shop = try Shop()
    let chunks = (0..<300).map { chunk in
      Data((0..<200).map { "pen=\(($0 + chunk) % 9 + 1) lamp=\($0 % 3 + 1)\n" }.joined().utf8)
    }
    var random = SplitMix(seed: seed(default: 9))
    var partial = 0
    var moment = 0
    // Until six kills have landed mid-batch after a report (at most twenty tries): on a
    // loaded machine a kill may land before the first report, which proves less.
    while partial < 6 && moment < 20 {
      defer { moment += 1 }
      // Each moment starts from a file with one order and a torn line, to be cut first.
      let orders = try shop.folder.write("orders.\(moment).jsonl", "")
      try shop.run("place", "--orders", orders, "lamp=1")
      let handle = try #require(FileHandle(forWritingAtPath: orders))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(#"{"number":1002,"it"#.utf8))
      try handle.close()
      let before = try savedNumbers(orders)
      let reported = try shop.batchKilled(
        ["--orders", orders], feeding: chunks,
        after: useconds_t(30_000 + random.next() % 500_000))
      let saved = try savedNumbers(orders)
      if !reported.isEmpty && saved.count - before.count < 60_000 { partial += 1 }
      #expect(
        Set(reported).isSubset(of: Set(saved)), "moment \(moment): a reported order is missing")
      #expect(saved == Array(1001..<(1001 + saved.count)), "moment \(moment): a gap or duplicate")
      #expect(saved.starts(with: before))
      // The next command goes on from the last complete order.
      let next = try shop.run("place", "--orders", orders, "pen=1")
      #expect(next.stdout == "order \(1001 + saved.count) for 30\n", "moment \(moment)")
      #expect(try shop.run("orders", "--orders", orders, "--count").status == 0)
    }
    #expect(partial >= 6, "only \(partial) kills landed mid-batch after a report")
  }

  @Test(.enabled(if: TinyDisk.canMount, "mounting a tmpfs needs root on Linux"))
  func aFullDiskStopsWith74AndKeepsEveryReportedOrder() throws {
    let shop = try Shop()
    let disk = try TinyDisk(kilobytes: 16)
    let orders = disk.path + "/orders.jsonl"
    var reported: [Int] = []
    var last = Run(status: 0, stdout: "", stderr: "")
    for _ in 0..<1000 where last.status == 0 {
      last = try shop.run("place", "--orders", orders, "pen=1", "lamp=2", "ink-\(reported.count)=1")
      reported += Shop.reportedNumbers(last.stdout)
    }
    // ink-N is unknown to the built-in catalog: place pens and lamps until the disk is full.
    #expect(reported.isEmpty)
    last = Run(status: 0, stdout: "", stderr: "")
    for _ in 0..<1000 where last.status == 0 {
      last = try shop.run("place", "--orders", orders, "pen=1", "lamp=2")
      reported += Shop.reportedNumbers(last.stdout)
    }
    #expect(last.status == 74)
    #expect(last.stderr == "Error: cannot write '\(orders)': No space left on device\n")
    #expect(try savedNumbers(orders) == reported)
    #expect(FileManager.default.contents(atPath: orders)?.last == UInt8(ascii: "\n"))

    let batch = try shop.run(
      ["batch", "--orders", orders], input: String(repeating: "pen=1\n", count: 500))
    #expect(batch.status == 74)
    #expect(batch.stderr.split(separator: "\n").count == 1)
    reported += Shop.reportedNumbers(batch.stdout)
    #expect(try savedNumbers(orders) == reported)
    #expect(try shop.run("orders", "--orders", orders).status == 0)
  }

  @Test func badFilesGiveTheirCodeAndChangeNothingSaved() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    try shop.run("place", "--orders", orders, "lamp=1")
    let good = try shop.folder.read("orders.jsonl")
    let lines = good.split(separator: "\n")

    // A corrupt line in the middle: listing stops at it; placing, which reads the last two
    // lines, goes on; a corrupt line just before the last one stops placing too.
    let third = lines[1].replacingOccurrences(of: "1002", with: "1003")
    try (lines[0] + "\n{\"number\":\n" + lines[1] + "\n" + third + "\n").write(
      toFile: orders, atomically: false, encoding: .utf8)
    let listing = try shop.run("orders", "--orders", orders)
    #expect(listing.status == 65)
    #expect(listing.stderr.hasPrefix("Error: \(orders):2: not an order"))
    let before = try shop.folder.read("orders.jsonl")
    #expect(try shop.run("place", "--orders", orders, "pen=1").stdout == "order 1004 for 30\n")
    #expect(try shop.folder.read("orders.jsonl").hasPrefix(before))
    try (lines[0] + "\n{\"number\":\n" + lines[1] + "\n").write(
      toFile: orders, atomically: false, encoding: .utf8)
    let beforeLast = try shop.run("place", "--orders", orders, "pen=1")
    #expect(beforeLast.status == 65)
    #expect(beforeLast.stderr.hasPrefix("Error: \(orders):2: not an order"))

    // A torn last line: cut off by the next writer, invisible to readers.
    try (good + #"{"number":1003,"it"#).write(toFile: orders, atomically: false, encoding: .utf8)
    #expect(try shop.run("orders", "--orders", orders, "--count").stdout == "2\n")
    #expect(try shop.run("place", "--orders", orders, "pen=1").stdout == "order 1003 for 30\n")
    #expect(try savedNumbers(orders) == [1001, 1002, 1003])

    // A corrupt last line: placing refuses and changes nothing.
    try (good + "{}\n").write(toFile: orders, atomically: false, encoding: .utf8)
    let refused = try shop.run("place", "--orders", orders, "pen=1")
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("Error: \(orders):3: the last order is unreadable"))
    #expect(try shop.folder.read("orders.jsonl") == good + "{}\n")

    // Each kind of bad catalog line.
    for (text, line) in [
      ("pen\n", 1), ("pen,1,2\n", 1), ("pen,x\n", 1), ("pen,-1\n", 1), ("p n,1\n", 1),
      ("pen,1\npen,2\n", 2), ("sku,price\n\n#\npen,1.0\n", 4),
    ] {
      let catalog = try shop.folder.write("bad.csv", text)
      let run = try shop.run("place", "--orders", orders, "--catalog", catalog, "pen=1")
      #expect(run.status == 65, "\(text)")
      #expect(run.stderr.hasPrefix("Error: \(catalog):\(line): "), "\(text)")
    }
    #expect(try shop.folder.read("orders.jsonl") == good + "{}\n")

    // A path whose folder is a file.
    let file = try shop.folder.write("plain", "x")
    #expect(try shop.run("place", "--orders", file + "/orders.jsonl", "pen=1").status == 73)
  }

  @Test(.enabled(if: TinyDisk.canMount, "mounting a read-only tmpfs needs root on Linux"))
  func aFolderThatCanNotBeWrittenIs73() throws {
    let shop = try Shop()
    let disk = try TinyDisk(kilobytes: 16, readOnly: true)
    let run = try shop.run("place", "--orders", disk.path + "/orders.jsonl", "pen=1")
    #expect(run.status == 73)
    #expect(
      run.stderr
        == "Error: cannot create or open '\(disk.path)/orders.jsonl' for writing: Read-only file system\n"
    )
    let deeper = try shop.run(
      ["batch", "--orders", disk.path + "/sub/orders.jsonl"], input: "pen=1\n")
    #expect(deeper.status == 73)
    #expect(
      deeper.stderr == "Error: cannot create folder '\(disk.path)/sub': Read-only file system\n")
  }

  static let tokens: [[UInt8]] =
    [
      "place", "batch", "orders", "catalog", "help", "-q", "--quiet", "--json", "--memory",
      "--count", "--orders", "--orders=", "--catalog", "--catalog=", "--", "-", "-h", "--help",
      "--version", "pen", "lamp", "chair", "=", "pen=1", "lamp=2", "pen=0", "1", "1000000",
      "1000001", "99999999999999999999", "'", "\"", "\u{1}", "\u{1B}[2J", "\n", "\t", " ", "é",
      "orders.jsonl", "catalog.csv", "bad.csv", "/nonexistent/x", ",", "{", "}", "\\",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3, 0x28], [0x80]]

  @Test func fuzzedCommandLinesNeverCrashAndNeverCorruptTheFile() throws {
    let seed = seed(default: 20_261_130)
    print("fuzz seed: \(seed) (replay with SHOP_FUZZ_SEED=\(seed))")
    // Two lanes side by side, each with its own sandbox, store and inputs (from the seed and
    // the lane's number): each is as deterministic as one run alone, and together they keep
    // both cores busy while each waits for its own `shop`.
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: Self.lanes) { lane in
      do {
        failures.add(try Self.fuzz(lane: lane, seed: seed))
      } catch {
        failures.add(["lane \(lane) of seed \(seed) could not run: \(error)"])
      }
    }
    let found = failures.all
    for failure in found.prefix(20) { Issue.record("\(failure)") }
    if found.count > 20 { Issue.record("and \(found.count - 20) more") }
  }

  static let lanes = 2

  /// One lane's share of the rounds: 1,500 command lines, then 300 batches of fuzzed input.
  /// - Returns: what went wrong, each with the round to replay.
  static func fuzz(lane: Int, seed: UInt64) throws -> [String] {
    let shop = try Shop()
    var random = SplitMix(seed: seed &+ UInt64(lane))
    _ = try shop.folder.write(
      "catalog.csv", "sku,price\npen,30\nlamp,190\ngold,9223372036854775807\n")
    _ = try shop.folder.write("bad.csv", "pen,30\npen,31\n")
    let environment = ["SHOP_ORDERS": shop.folder.file("orders.jsonl")]
    var failures: [String] = []
    let replay = "of lane \(lane), seed \(seed)"
    for round in stride(from: lane, to: 1500, by: lanes) {
      var arguments: [[UInt8]] = []
      for _ in 0..<(random.next() % 7) {
        var argument: [UInt8] = []
        for _ in 0...(random.next() % 3) {
          argument += tokens[Int(random.next() % UInt64(tokens.count))]
        }
        arguments.append(argument)
      }
      failures += try check(shop, arguments, input: [], environment, "round \(round) \(replay)")
    }
    for round in stride(from: lane, to: 300, by: lanes) {
      var input: [UInt8] = []
      for _ in 0..<(random.next() % 60) {
        switch random.next() % 4 {
        case 0: input += Array("pen=1 lamp=2\n".utf8)
        case 1: input.append(UInt8(truncatingIfNeeded: random.next()))
        default: input += tokens[Int(random.next() % UInt64(tokens.count))]
        }
      }
      let options: [[UInt8]] = random.next() % 2 == 0 ? [] : [Array("--json".utf8)]
      failures += try check(
        shop, [Array("batch".utf8)] + options, input: input, environment,
        "batch round \(round) \(replay)")
    }
    let listing = try shop.run(["orders"], environment: environment)
    if listing.status != 0 {
      failures.append("the orders file of lane \(lane) no longer parses: \(listing.stderr)")
    }
    return failures
  }

  private static func check(
    _ shop: Shop, _ arguments: [[UInt8]], input: [UInt8], _ environment: [String: String],
    _ replay: String
  ) throws -> [String] {
    let (run, signal) = try shop.runBytes(arguments, input: input, environment: environment)
    var failures: [String] = []
    func shown() -> String { arguments.map { CartSyntaxDisplay.quoted($0) }.joined(separator: " ") }
    if let signal { failures.append("died by signal \(signal): \(shown()) (\(replay))") }
    if ![0, 1, 64, 65, 66, 73, 74].contains(run.status) {
      failures.append("exit \(run.status): \(shown()) (\(replay))")
    }
    if run.status > 1, run.stderr.isEmpty {
      failures.append("exit \(run.status) without a message: \(shown()) (\(replay))")
    }
    return failures
  }

  /// What the lanes found, gathered from their threads.
  final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [String] = []

    func add(_ failures: [String]) { lock.withLock { found += failures } }
    var all: [String] { lock.withLock { found } }
  }

  @Test func jsonSpecialCharactersCanNotAddAFieldOrALine() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let catalog = try shop.folder.write(
      "c.csv", "pen,30\n")
    let evil = [
      #"pen=1","total":1"#, #"pen","x":"y=1"#, "pen\u{2028}=1", #"pen\"=1"#, "pen}=1",
      #"{"number":1}=1"#,
    ]
    for item in evil {
      let run = try shop.run("place", "--orders", orders, "--catalog", catalog, item)
      #expect(run.status == 64, "\(item)")
    }
    // A NUL can't be in an argument, but it can be in a batch line.
    let batch = try shop.run(
      ["batch", "--orders", orders, "--catalog", catalog],
      input: (evil + ["pen=1\u{0}", "pen\u{0}=1"]).joined(separator: "\n"))
    #expect(batch.status == 1)
    #expect(batch.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("line ") })
    for text in ["\"pe\"\"n\",1\n", "pe\"n,1\n", "pen\\,1\n", "{\"a\":1},1\n"] {
      let bad = try shop.folder.write("evil.csv", text)
      #expect(try shop.run("catalog", "--catalog", bad).status == 65, "\(text)")
    }
    try shop.run("place", "--orders", orders, "--catalog", catalog, "pen=1")
    let lines = try shop.lines(of: orders)
    #expect(lines.count == 1)
    let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    #expect(
      Set(object?.keys.map { $0 } ?? []) == ["number", "items", "total", "payable", "placedAt"])
  }

  func seed(default value: UInt64) -> UInt64 {
    ProcessInfo.processInfo.environment["SHOP_FUZZ_SEED"].flatMap { UInt64($0) } ?? value
  }

  @Test func readersBesideWritersNeverFailAndNeverSeeAHalfWrittenLine() throws {
    // The file starts with a torn write of the next order, which the first writer cuts and
    // replaces while readers run: every listing, count and look-up must still succeed.
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let seed = (0..<3000).map { "pen=\($0 % 9 + 1) lamp=1" }.joined(separator: "\n") + "\n"
    #expect(try shop.run(["batch", "-q", "--orders", orders], input: seed).status == 0)
    let handle = try #require(FileHandle(forWritingAtPath: orders))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"number":4001,"items":[{"sku":"pen","quan"#.utf8))
    try handle.close()
    var processes = Shop.placingLoops(3, count: 80, into: orders)
    let failures = shop.folder.file("failures")
    let readers = Process()
    readers.executableURL = URL(fileURLWithPath: "/bin/sh")
    readers.arguments = [
      "-c",
      #"""
      for i in $(seq 40); do
        n=$("$0" orders --count --orders "$1") || echo "count failed: $n" >> "$2"
        "$0" orders --orders "$1" > "$2.list" || echo "listing failed" >> "$2"
        last=$(tail -n 1 "$2.list" | cut -d ' ' -f 1)
        [ "$(wc -l < "$2.list")" -eq $((last - 1000)) ] || echo "listing not whole" >> "$2"
        "$0" orders --json --last 5 --orders "$1" > /dev/null || echo "last failed" >> "$2"
        "$0" orders --orders "$1" 3500 > /dev/null || echo "by number failed" >> "$2"
      done
      """#,
      Shop.binary, orders, failures,
    ]
    processes.append(readers)
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "a command failed")
    let failed = (try? String(contentsOfFile: failures, encoding: .utf8)) ?? ""
    #expect(failed == "", "readers failed beside writers")
    #expect(try savedNumbers(orders) == Array(1001...4240))
  }

  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
      "needs strace to see the syncs"))
  func theFirstWriterIntoAnEmptyFileSyncsItsFolder() throws {
    // Another process created the file and died before writing: the first writer must make
    // the folder entry durable, not only the process that created it.
    let shop = try Shop()
    try FileManager.default.createDirectory(
      atPath: shop.folder.file("data"), withIntermediateDirectories: false)
    let orders = try shop.folder.write("data/orders.jsonl", "")
    let trace = shop.folder.file("trace")
    let run = try shop.shell(
      #"strace -f -e trace=openat,open,fsync,fdatasync,fcntl -o '\#(trace)' "$SHOP" place --orders '\#(orders)' pen=1"#
    )
    #expect(run.status == 0, "\(run)")
    let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    func descriptor(opening path: String, _ flag: String) -> String? {
      calls.last { $0.contains("\"\(path)\"") && $0.contains(flag) }?
        .split(separator: "=").last?.trimmingCharacters(in: .whitespaces)
    }
    let file = try #require(descriptor(opening: orders, "O_APPEND"), "\(calls)")
    let folder = try #require(descriptor(opening: shop.folder.file("data"), "O_DIRECTORY"))
    let fileSync = try #require(calls.firstIndex { $0.contains("fsync(\(file))") })
    let folderSync = try #require(calls.firstIndex { $0.contains("fsync(\(folder))") })
    #expect(fileSync < folderSync)
    // A second order into the same file has a folder entry that is already durable.
    let again = try shop.shell(
      #"strace -f -e trace=openat,fsync -o '\#(trace)' "$SHOP" place --orders '\#(orders)' pen=1"#)
    #expect(again.status == 0)
    let second = try String(contentsOfFile: trace, encoding: .utf8)
    #expect(!second.contains("O_DIRECTORY"))
  }
}

/// Arguments made printable for failure messages.
enum CartSyntaxDisplay {
  static func quoted(_ bytes: [UInt8]) -> String {
    "'"
      + bytes.map {
        $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16)
      }.joined() + "'"
  }
}

extension ReliabilityTests {
  /// The issue's tenth reproduction, second half: on a read-only mount, a ref already placed
  /// is answered "already placed" from what can be read, by `place` and `batch`, with the
  /// index current, damaged or missing; a new ref is still 73, and nothing is written.
  @Test(
    .enabled(if: TinyDisk.canMount, "mounting a tmpfs needs root on Linux"),
    arguments: ["current", "damaged", "missing"])
  func aRefAlreadyPlacedIsAnsweredOnAReadOnlyMount(index: String) throws {
    let shop = try Shop()
    let disk = try TinyDisk(kilobytes: 256)
    let orders = disk.path + "/o.jsonl"
    #expect(
      try shop.run(["batch", "-q", "--orders", orders], input: "@a pen=1\n@b pen=1\n").status == 0)
    switch index {
    case "damaged":
      let handle = try #require(FileHandle(forUpdatingAtPath: orders + ".refs"))
      try handle.seek(toOffset: 4096)
      try handle.write(contentsOf: Data(repeating: 0x5A, count: 256 * 16))
      try handle.close()
    case "missing": try FileManager.default.removeItem(atPath: orders + ".refs")
    default: break
    }
    let remount = Process()
    remount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    remount.arguments = ["mount", "-o", "remount,ro", disk.path]
    try remount.run()
    remount.waitUntilExit()
    #expect(remount.terminationStatus == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: orders))
    let again = try shop.run("place", "--orders", orders, "--ref", "b", "pen=1")
    #expect(again.status == 0, "\(again)")
    #expect(again.stdout == "order 1002 for 30 (already placed)\n", "\(again)")
    let other = try shop.run("place", "--orders", orders, "--ref", "b", "pen=2")
    #expect(other.status == 1, "\(other)")
    let batch = try shop.run(["batch", "--orders", orders], input: "@a pen=1\n@b pen=1\n")
    #expect(batch.status == 0, "\(batch)")
    #expect(batch.stdout.hasSuffix("order 1002 for 30 (already placed)\n"), "\(batch)")
    let new = try shop.run("place", "--orders", orders, "--ref", "c", "pen=1")
    #expect(new.status == 73, "\(new)")
    #expect(new.stderr.contains("Read-only file system"), "\(new)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: orders)) == before)
  }
}
