import Foundation
import ShopTestSupport
import Testing

/// A batch stopped (Ctrl-Z, `kill -STOP`) while it holds the orders file's write lock: every
/// read command gives up after `SHOP_TIMEOUT` with 75 and says who holds the lock and how to
/// resume it; a writer keeps waiting; resumed, the batch finishes and every line is placed
/// exactly once. Linux only: the test finds the lock in /proc/locks.
@Suite(.serialized)
struct StoppedWriterTests {
  /// The pids holding an exclusive `flock` on the file of `inode`, from /proc/locks.
  static func writeLockHolders(inode: UInt64) -> [Int32] {
    let table = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
    return table.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE",
        fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == inode
      else { return nil }
      return Int32(fields[4])
    }
  }

  /// The state letter of process `pid` (`T` when stopped), from /proc/PID/stat.
  static func state(of pid: Int32) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].drop { $0 == " " }.first
  }

  /// Stops `pid` at a moment it holds the write lock on the file of `inode`: stopped, then
  /// looked at; let go on and stopped again a little later until it is caught holding it.
  static func stopHoldingTheLock(_ pid: Int32, inode: UInt64) -> Bool {
    var random = SplitMix(seed: 7)
    for _ in 0..<20_000 {
      kill(pid, SIGSTOP)
      var waits = 0
      while state(of: pid) != "T", waits < 10_000 {
        usleep(50)
        waits += 1
      }
      if writeLockHolders(inode: inode).contains(pid) { return true }
      kill(pid, SIGCONT)
      usleep(useconds_t(random.next() % 300))
    }
    return false
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/locks")))
  func readersGiveUpOnAStoppedBatchAndSaySoAWriterWaitsAndTheBatchFinishesExactlyOnce()
    throws
  {
    let shop = try Shop()
    let orders = shop.folder.file("o.jsonl")
    #expect(try shop.run(["batch", "-q", "--orders", orders], input: "@s-0 pen=1\n").status == 0)
    let inode = try #require(
      (try FileManager.default.attributesOfItem(atPath: orders)[.systemFileNumber] as? NSNumber)?
        .uint64Value)
    let (batch, input) = try shop.startFed(["batch", "-q", "--orders", orders])
    let pid = batch.process.processIdentifier
    // Fed until the batch is caught holding the lock: small groups, each its own lock, write
    // and sync.
    let caught = Flag()
    let fed = Counter()
    let feeding = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var line = 1
      while !caught.isSet {
        let chunk = (line..<(line + 10)).map { "@s-\($0) pen=\($0 % 7 + 1)\n" }.joined()
        guard (try? input.write(contentsOf: Data(chunk.utf8))) != nil else { break }
        line += 10
        fed.value = line - 1
      }
      try? input.close()
      feeding.signal()
    }
    defer {
      caught.set()
      kill(pid, SIGCONT)
    }
    let stopped = StoppedWriterTests.stopHoldingTheLock(pid, inode: inode)
    try #require(stopped, "never caught the batch holding its lock")

    let quick = ["SHOP_TIMEOUT": "0"]
    let holder = "another process (pid \(pid), shop, stopped) holds its write lock"
    // A writer started now waits as long as it takes, and a reader with a bound far longer
    // than this test stops the batch for.
    let place = try shop.start(
      ["place", "-q", "--orders", orders, "--ref", "late", "lamp=1"], input: nil)
    let patient = try shop.start(
      ["orders", "--count", "--orders", orders], input: nil, environment: ["SHOP_TIMEOUT": "600"])
    for form in [
      ["orders", "--count"], ["orders", "--last", "1"], ["summary"], ["orders", "--ref", "s-1"],
      ["orders", "1001"], ["orders", "--since", "2020-01-01", "--json"], ["orders", "--csv"],
    ] {
      let run = try shop.run(form + ["--orders", orders], environment: quick)
      #expect(run.status == 75, "\(form): \(run)")
      #expect(run.stdout.split(separator: "\n").count <= 1 && !run.stdout.contains("1001"))
      #expect(
        run.stderr
          == "Error: '\(orders)' is being written: \(holder) (SHOP_TIMEOUT=0: no wait); "
          + "nothing was read. It is stopped: resume it (fg, or kill -CONT \(pid)), then run "
          + "this again\n", "\(form): \(run)")
    }
    // With a bound: told after a second, then given up.
    let waited = try shop.run(
      ["orders", "--count", "--orders", orders],
      environment: [
        "SHOP_TIMEOUT": "2"
      ])
    #expect(waited.status == 75 && waited.stdout.isEmpty, "\(waited)")
    #expect(
      waited.stderr.hasPrefix(
        "Note: waiting for '\(orders)': \(holder); giving up after 2 s (SHOP_TIMEOUT); "
          + "it is stopped: resume it (fg, or kill -CONT \(pid))\nError: "), "\(waited)")
    #expect(place.process.isRunning && patient.process.isRunning, "they wait")

    caught.set()
    kill(pid, SIGCONT)
    feeding.wait()
    let finished = batch.finish()
    #expect(finished.status == 0, "\(finished)")
    let placed = place.finish()
    #expect(placed.status == 0, "\(placed)")
    let counted = patient.finish()
    #expect(counted.status == 0, "\(counted)")
    #expect(counted.stderr.hasPrefix("Note: waiting for '\(orders)': \(holder)"), "\(counted)")
    #expect(Int(counted.stdout.dropLast()).map { $0 >= 1 } == true, "\(counted)")

    // Every line once, numbered without a gap: the seed, each fed line, the late place.
    let lines = try shop.lines(of: orders)
    let references = lines.compactMap { line -> String? in
      guard let range = line.range(of: #""ref":"[^"]*""#, options: .regularExpression) else {
        return nil
      }
      return String(line[range].dropFirst(7).dropLast())
    }
    #expect(
      Set(references) == Set((0...fed.value).map { "s-\($0)" } + ["late"])
        && references.count == fed.value + 2, "\(references.count) refs, \(fed.value) fed")
    let count = try shop.run("orders", "--count", "--orders", orders)
    #expect(count.stdout == "\(fed.value + 2)\n", "\(count)")
    let last = try shop.run("orders", "--last", "1", "--json", "--orders", orders)
    #expect(last.stdout.contains(#""number":\#(1001 + fed.value + 1)"#), "\(last)")
  }
}

extension StoppedWriterTests {
  /// Any process may name itself: a holder whose name holds an escape sequence is shown with
  /// it escaped, in the message and the notice, and the command still ends with 75.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/proc/locks")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
  func aHolderThatNamesItselfWithControlCharactersIsShownEscaped() throws {
    let shop = try Shop()
    let orders = shop.folder.file("o.jsonl")
    #expect(try shop.run(["place", "-q", "--orders", orders, "pen=1"]).status == 0)
    let inode = try #require(
      (try FileManager.default.attributesOfItem(atPath: orders)[.systemFileNumber] as? NSNumber)?
        .uint64Value)
    let named = shop.folder.file("lock\u{1B}[31m")
    try FileManager.default.createSymbolicLink(atPath: named, withDestinationPath: "/usr/bin/flock")
    // -o: `sleep` does not inherit the lock, so ending `flock` lets it go.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: named)
    holder.arguments = ["-o", "-x", orders, "sleep", "20"]
    try holder.run()
    defer { kill(holder.processIdentifier, SIGKILL) }
    var waits = 0
    while !StoppedWriterTests.writeLockHolders(inode: inode).contains(holder.processIdentifier),
      waits < 20_000
    {
      usleep(500)
      waits += 1
    }
    let run = try shop.run(
      ["orders", "--count", "--orders", orders],
      environment: [
        "SHOP_TIMEOUT": "2"
      ])
    #expect(run.status == 75 && run.stdout.isEmpty, "\(run)")
    let shown = "another process (pid \(holder.processIdentifier), lock\\x1B[31m) holds"
    #expect(run.stderr.hasPrefix("Note: waiting for '\(orders)': \(shown)"), "\(run)")
    #expect(run.stderr.contains("\nError: '\(orders)' is being written: \(shown)"), "\(run)")
    #expect(!run.stderr.contains("\u{1B}"), "\(run)")
  }
}

/// A flag set once by one thread and read by another.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// A count written by one thread and read by another once it ended.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = 0
  var value: Int {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
