import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Ranges, counts and summaries of a file whose times go down somewhere equal a scan of every
/// line filtered by time: before any writer recorded the file's order (a scan), after one did
/// (a bisection per run), and after the record stopped matching the file.
struct UnsortedTimesTests {
  static let midnight = OrderRangeTests.midnight

  /// Each shape of times out of order, as an older `shop`, an export or a stepped clock left.
  static let shapes: [(name: String, times: [Int64])] = {
    let day: Int64 = 86400
    let steady = (0..<300).map { midnight + Int64($0) * 300 }
    var shapes: [(String, [Int64])] = []
    // The case: 300 s apart, then two days back at one order.
    shapes.append(("one reversal", Array(steady[..<200]) + steady[200...].map { $0 - 2 * day }))
    shapes.append(
      ("many", steady.enumerated().map { $0.offset % 7 == 6 ? $0.element - 900 : $0.element }))
    shapes.append(("equal times", steady.map { midnight + ($0 - midnight) / 3600 * 3600 }))
    shapes.append(
      (
        "a single future line",
        steady.enumerated().map { $0.offset == 150 ? midnight + 400 * day : $0.element }
      ))
    shapes.append(
      ("a future line, then real times", [midnight + 400 * day] + steady))
    shapes.append(("last line in the past", steady + [midnight - day]))
    shapes.append(("first line in the future", [midnight + 10 * day] + Array(steady[..<40])))
    shapes.append(("going down throughout", steady.reversed()))
    // A reversal right at the ends of ranges: two orders swapped around each hour.
    shapes.append(
      (
        "reversals near the ends",
        steady.enumerated().map { index, time in
          index % 12 == 11 ? time + 300 : index % 12 == 0 && index > 0 ? time - 300 : time
        }
      ))
    shapes.append(("all one time", Array(repeating: midnight, count: 50)))
    return shapes
  }()

  /// Every range whose ends are the orders' own times, a second either side, or open (a
  /// sample of them, by a fixed seed), checked in every form against a filtered scan.
  static func checkEveryRange(
    _ store: FileOrders, _ times: [Int64], _ label: String, pairs: Int = 50
  ) throws {
    var bounds: [Int64?] = [nil]
    for time in Set(times).sorted() { bounds += [time - 1, time, time + 1] }
    var state: UInt64 = 11
    func pick() -> Int64? {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return bounds[Int((state >> 33) % UInt64(bounds.count))]
    }
    var all: [Order] = []
    try store.readAll { all.append($0) }
    #expect(all.map(\.placedAt.secondsSince1970) == times, "\(label)")
    for _ in 0..<pairs {
      let range = TimeRange(
        since: pick().map(Timestamp.init(secondsSince1970:)),
        until: pick().map(Timestamp.init(secondsSince1970:)))
      let kept = all.filter { range.contains($0.placedAt) }
      let expected = kept.map(\.number)
      #expect(try OrderRangeTests.listed(store, range) == expected, "\(label) \(range)")
      for last in [1, 2, 5, 1000] {
        #expect(
          try OrderRangeTests.listed(store, range, last: last) == Array(expected.suffix(last)),
          "\(label) \(range) last \(last)")
      }
      for grouping in [Summary.Grouping.none, .day, .sku] {
        var tally = SummaryTally(by: grouping)
        for order in kept { try tally.add(order) }
        #expect(try store.summary(of: range, by: grouping) == tally.summary, "\(label) \(range)")
      }
    }
  }

  /// Whether ranges of `store` bisect (a record matches the file) or scan.
  static func bisects(_ store: FileOrders) throws -> Bool {
    let snapshot = try #require(try store.openSnapshot(strict: true))
    return store.timeRuns(of: snapshot) != nil
  }

  @Test(arguments: shapes.indices)
  func aRangeOfTimesOutOfOrderIsWhatAScanFinds(shape: Int) throws {
    let (name, times) = UnsortedTimesTests.shapes[shape]
    let folder = try TemporaryFolder(on: .disk)
    let entries = times.enumerated().map { (number: 1001 + $0.offset, time: $0.element) }
    // As another program wrote it: no record, so every range scans.
    let store = try OrderRangeTests.handWritten(entries, in: folder)
    #expect(try !UnsortedTimesTests.bisects(store))
    try UnsortedTimesTests.checkEveryRange(store, times, name + ", scanned", pairs: 15)
    // A writer reads the file once and records its runs; then ranges bisect each run (when
    // there are no more than a record holds).
    let later = (times.max() ?? UnsortedTimesTests.midnight) + 60
    _ = try store.save([try OrderRangeTests.draft(at: later)])
    let steps = zip(times, times.dropFirst()).filter { $1 < $0 }.count
    #expect(try UnsortedTimesTests.bisects(store) == (steps < TimeRuns.maximumRuns), "\(name)")
    try UnsortedTimesTests.checkEveryRange(store, times + [later], name + ", bisected")
  }

  /// A fixed seed, random times (runs of rising times broken by steps back of any size, equal
  /// times, far futures), written by hand and recorded by a writer: every range, count and
  /// summary against a filtered scan.
  @Test(arguments: [1, 2, 3, 4])
  func randomTimesGiveWhatAScanGives(seed: UInt64) throws {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int64) -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int64((state >> 33) % UInt64(bound))
    }
    var time = UnsortedTimesTests.midnight
    var times: [Int64] = []
    for _ in 0..<(400 + Int(next(400))) {
      switch next(40) {
      case 0: time -= next(3 * 86400)  // A clock stepped back.
      case 1: times.append(time + 86400 * (1 + next(900)))  // One line from the future.
      case 2...8: break  // The same second again.
      default: time += next(600)
      }
      times.append(time)
    }
    let folder = try TemporaryFolder(on: .disk)
    let entries = times.enumerated().map { (number: 1001 + $0.offset, time: $0.element) }
    let store = try OrderRangeTests.handWritten(entries, in: folder)
    try UnsortedTimesTests.checkEveryRange(store, times, "seed \(seed), scanned", pairs: 15)
    let later = time + 1
    _ = try store.save([try OrderRangeTests.draft(at: later)])
    #expect(try UnsortedTimesTests.bisects(store))
    try UnsortedTimesTests.checkEveryRange(store, times + [later], "seed \(seed)", pairs: 100)
  }

  /// The record is believed only for the bytes it describes: an edit in place (same size),
  /// a record copied from another file, a damaged record, and a record for more runs than
  /// it may hold each leave the range a scan, and the answer right.
  @Test func aRecordThatDoesNotMatchTheFileIsIgnored() throws {
    let folder = try TemporaryFolder(on: .disk)
    let times = (0..<100).map { UnsortedTimesTests.midnight + Int64($0) * 60 }
    let store = try OrderRangeTests.file(times, in: folder)
    let path = folder.file("orders.jsonl")
    #expect(try UnsortedTimesTests.bisects(store))
    // Order 1051's time set a day back, in place, keeping the file's size and inode.
    let text = try folder.read("orders.jsonl")
    func stamp(_ seconds: Int64) -> String {
      var bytes: [UInt8] = []
      UTCTime.append(Timestamp(secondsSince1970: seconds), to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    let old = stamp(times[50])
    let new = stamp(times[50] - 86400)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let edited = lines.enumerated().map {
      $0.offset == 50 ? $0.element.replacing(old, with: new) : $0.element
    }
    .joined(separator: "\n")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data(edited.utf8))
    try handle.close()
    #expect(try !UnsortedTimesTests.bisects(store))
    var changed = times
    changed[50] -= 86400
    try UnsortedTimesTests.checkEveryRange(store, changed, "edited in place", pairs: 15)

    // The record of another file, copied onto this one (as `cp -a` copies attributes).
    let other = try TemporaryFolder(on: .disk)
    let otherStore = try OrderRangeTests.file(times, in: other)
    #expect(try UnsortedTimesTests.bisects(otherStore))
    let otherFile = try #require(
      try LineFile.openToRead(FilePath(other.file("orders.jsonl")), lineBound: 1 << 20))
    let record = try #require(
      otherFile.descriptor.attribute(named: FileOrders.timeOrderAttribute, limit: 4096))
    let file = try #require(try LineFile.openToRead(FilePath(path), lineBound: 1 << 20))
    try file.descriptor.setAttribute(named: FileOrders.timeOrderAttribute, to: record)
    #expect(try !UnsortedTimesTests.bisects(store))

    // A writer records the edited file anew; then each bit of its record flipped in turn.
    _ = try store.save([try OrderRangeTests.draft(at: times[99] + 60)])
    #expect(try UnsortedTimesTests.bisects(store))
    let good = try #require(
      file.descriptor.attribute(named: FileOrders.timeOrderAttribute, limit: 4096))
    #expect(TimeRuns(decoding: good) != nil)
    for bit in 0..<(good.count * 8) {
      var bad = good
      bad[bit / 8] ^= 1 << (bit % 8)
      #expect(TimeRuns(decoding: bad) == nil, "bit \(bit)")
    }
    for length in [0, 8, good.count - 8, good.count - 1] {
      #expect(TimeRuns(decoding: Array(good[..<length])) == nil)
    }
  }

  /// More steps back than a record holds: the file is recorded as unordered and every range
  /// scans, rightly; a record can't claim runs out of order or past the file's end.
  @Test func moreRunsThanARecordHoldsMakeEveryRangeAScan() throws {
    let folder = try TemporaryFolder(on: .disk)
    let times = (0..<(2 * TimeRuns.maximumRuns + 10)).map {
      UnsortedTimesTests.midnight + Int64($0 % 2 == 0 ? $0 : -$0) * 60
    }
    let entries = times.enumerated().map { (number: 1001 + $0.offset, time: $0.element) }
    let store = try OrderRangeTests.handWritten(entries, in: folder)
    let later = (times.max() ?? 0) + 1
    _ = try store.save([try OrderRangeTests.draft(at: later)])
    #expect(try !UnsortedTimesTests.bisects(store))
    try UnsortedTimesTests.checkEveryRange(store, times + [later], "unordered", pairs: 10)

    var runs = TimeRuns(
      version: FileVersion(
        identity: FileIdentity(device: 1, inode: 2), size: 1000, modifiedSeconds: 3,
        modifiedNanoseconds: 4))
    for (offset, time) in [(0, 50), (100, 40), (200, 30)] {
      runs.append(time: Int64(time), at: offset)
    }
    #expect(runs.runs(upTo: 1000) == [0..<100, 100..<200, 200..<1000])
    #expect(runs.runs(upTo: 150) == [0..<100, 100..<150])
    #expect(TimeRuns(decoding: runs.encoded) == runs)
    // Runs past the size it describes: not a record shop wrote.
    var past = runs
    past.version = FileVersion(
      identity: runs.version.identity, size: 150, modifiedSeconds: 3, modifiedNanoseconds: 4)
    #expect(TimeRuns(decoding: past.encoded) == nil)
  }

  /// A file that can't be recorded (no attribute can be written there) still gives every
  /// range right, by a scan; and a range near the end of a recorded file reads no line near
  /// its start, even one that is not an order.
  @Test func aRangeNearTheEndOfARecordedFileReadsNothingBeforeIt() throws {
    let folder = try TemporaryFolder(on: .disk)
    let times = OrderRangeTests.times(20_000, seed: 1)
    let store = try OrderRangeTests.file(times, in: folder)
    let path = folder.file("orders.jsonl")
    #expect(try UnsortedTimesTests.bisects(store))
    let file = try #require(try LineFile.openToRead(FilePath(path), lineBound: 1 << 20))
    let version = try file.descriptor.version()
    // Spoil a line a tenth of the way in, keeping its length, then put the modification time
    // back (as only someone who may write the file can): the record still matches.
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let tenth = try #require(bytes[(bytes.count / 10)...].firstIndex(of: UInt8(ascii: "\n")))
    for index in (tenth - 30)..<tenth { bytes[index] = UInt8(ascii: "x") }
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
    let stamps = [
      timespec(
        tv_sec: Int(version.modifiedSeconds), tv_nsec: Int(version.modifiedNanoseconds)),
      timespec(
        tv_sec: Int(version.modifiedSeconds), tv_nsec: Int(version.modifiedNanoseconds)),
    ]
    #expect(futimens(file.descriptor.raw, stamps) == 0)
    #expect(try UnsortedTimesTests.bisects(store))
    let since = TimeRange(since: Timestamp(secondsSince1970: times[19_900]), until: nil)
    #expect(try OrderRangeTests.listed(store, since) == OrderRangeTests.expected(times, since))
    // Without the time put back, the record no longer matches: the scan meets the line.
    let again = try #require(FileHandle(forWritingAtPath: path))
    try again.write(contentsOf: Data(bytes))
    try again.close()
    #expect(try !UnsortedTimesTests.bisects(store))
    #expect(throws: FileError.self) { try OrderRangeTests.listed(store, since) }
  }
}

/// The same rows, times out of order, in a file and in PostgreSQL: every range, count and
/// summary the same from both.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresUnsortedTimesTests {
  @Test func aFileAndPostgreSQLAnswerEveryRangeAlike() throws {
    let server = try PostgresServer.shared.get()
    let shapes = UnsortedTimesTests.shapes.filter {
      ["one reversal", "a future line, then real times", "reversals near the ends"].contains(
        $0.name)
    }
    for (name, shapeTimes) in shapes {
      let later = (shapeTimes.max() ?? 0) + 60
      let times = shapeTimes + [later]
      let folder = try TemporaryFolder(on: .disk)
      let entries = shapeTimes.enumerated().map { (number: 1001 + $0.offset, time: $0.element) }
      let file = try OrderRangeTests.handWritten(entries, in: folder)
      _ = try file.save([try OrderRangeTests.draft(at: later)])
      #expect(try UnsortedTimesTests.bisects(file), "\(name)")
      let database = PostgresOrders(uri: server.tcpURI(try server.makeDatabase()))
      // PostgreSQL stores each time as it comes: the same rows as the file's.
      var fileOrders: [Order] = []
      try file.readAll { fileOrders.append($0) }
      _ = try database.save(
        try fileOrders.map { order in
          try #require(Draft(lines: order.lines, placedAt: order.placedAt))
        })
      var databaseOrders: [Order] = []
      try database.readAll { databaseOrders.append($0) }
      #expect(databaseOrders == fileOrders, "\(name)")
      var bounds: [Int64?] = [nil]
      for time in Set(times).sorted() { bounds += [time - 1, time, time + 1] }
      var state: UInt64 = 7
      func pick() -> Int64? {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return bounds[Int((state >> 33) % UInt64(bounds.count))]
      }
      for _ in 0..<40 {
        let (since, until) = (pick(), pick())
        do {
          let range = TimeRange(
            since: since.map(Timestamp.init(secondsSince1970:)),
            until: until.map(Timestamp.init(secondsSince1970:)))
          #expect(
            try OrderRangeTests.listed(file, range)
              == OrderRangeTests.listed(database, range), "\(name) \(range)")
          #expect(
            try OrderRangeTests.listed(file, range, last: 3)
              == OrderRangeTests.listed(database, range, last: 3), "\(name) \(range)")
          for grouping in [Summary.Grouping.none, .day] {
            #expect(
              try file.summary(of: range, by: grouping)
                == database.summary(of: range, by: grouping), "\(name) \(range)")
          }
        }
      }
    }
  }
}
