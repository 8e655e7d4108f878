import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The fast path's refs against the plain way's: read as bytes in one pass, a group's repeats
/// found by fingerprint, each looked up once and inserted after the sync into the slot its
/// look-up found free, blocks checked once a run. Both ways must place, refuse and index alike,
/// and a bit flipped in the index between two groups of one run must never let a ref be placed
/// twice.
extension PricedBatchTests {
  /// A ref of `length` bytes, every byte one a ref may hold, drawn from `random`.
  func randomRef(_ random: inout SplitMix, length: Int) -> String {
    let allowed = Array("abcxyzABZ0189-_.:/".utf8)
    return String(
      decoding: (0..<length).map { _ in allowed[Int.random(in: 0..<allowed.count, using: &random)]
      },
      as: UTF8.self)
  }

  /// Refs of every length up to the limit and one past it, refs alike but for one byte (at
  /// its start, middle or end), each given once, twice in a group, again in a later group and
  /// again in a later run, among lines of every kind; groups of 1 line to more than the refs
  /// read ahead at once.
  @Test(arguments: [1, 7, 64, 300])
  func refsOfEveryLengthAndAlikeButForOneBytePlaceAlikeEitherWay(groupLines: Int) throws {
    var random = SplitMix(seed: UInt64(51 + groupLines))
    var pool: [String] = []
    for length in 1...(Reference.maximumLength + 1) {
      let ref = randomRef(&random, length: length)
      pool.append(ref)
      var bytes = Array(ref.utf8)
      for position in Set([0, length / 2, length - 1]) {
        bytes[position] =
          bytes[position] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        pool.append(String(decoding: bytes, as: UTF8.self))
      }
    }
    var lines: [String] = []
    for _ in 0..<900 {
      let line = randomLine(&random, good: Int.random(in: 0..<6, using: &random) > 0)
      let ref = pool[Int.random(in: 0..<pool.count, using: &random)]
      lines.append(Int.random(in: 0..<4, using: &random) > 0 ? "@\(ref) \(line)" : line)
      // Twice in a row: most often in the same group.
      if Int.random(in: 0..<12, using: &random) == 0 { lines.append(lines[lines.count - 1]) }
    }
    let input = lines.joined(separator: "\n") + "\n"
    let again = (lines.prefix(150) + pool.suffix(40).map { "@\($0) sku-2=1" }).joined(
      separator: "\n")
    let plain = try run(
      fast: false, input: input, catalog: catalog, again: again, groupLines: groupLines)
    #expect(plain.rejected > 0)
    #expect(
      try run(fast: true, input: input, catalog: catalog, again: again, groupLines: groupLines)
        == plain)
  }

  /// Runs of the fast path into one file, one after another, each with a new store: the same
  /// orders, reports and index (slots and all) as the plain way, and every ref held once.
  @Test func fastRunsOneAfterAnotherPlaceAlikeEitherWay() throws {
    var random = SplitMix(seed: 61)
    let refs = (0..<700).map { randomRef(&random, length: 1 + $0 % Reference.maximumLength) }
    // Each run repeats some refs of the runs before it and brings new ones; the table grows
    // between runs and within them.
    let runs = (0..<4).map { run in
      (0..<400).map { line -> String in
        let ref = refs[Int.random(in: 0..<min(refs.count, 200 * (run + 1)), using: &random)]
        return "@\(ref) sku-\(line % 50)=\(line % 5 + 1)"
      }.joined(separator: "\n")
    }
    func place(fast: Bool) throws -> (file: String, held: [String], rejected: Int) {
      let folder = try TemporaryFolder()
      let path = FilePath(folder.file("orders.jsonl"))
      var rejected = 0
      for input in runs {
        let errors = BufferOutput()
        let source = BatchInput(
          descriptor: BufferSource(Array(input.utf8), chunk: 1000), name: "in", groupLines: 97)
        rejected += try Self.batch(
          fast: fast, source, catalog: catalog, store: FileOrders(path: path),
          clock: FixedClock(time: time), report: QuietReport(errors: errors)
        ).run()
      }
      let held = try OrdersFile.refs(folder.file("orders.jsonl")).compactMap(\.ref)
      return (try folder.read("orders.jsonl"), held, rejected)
    }
    let plain = try place(fast: false)
    let fast = try place(fast: true)
    #expect(fast.file == plain.file)
    #expect(fast.rejected == plain.rejected)
    #expect(Set(fast.held).count == fast.held.count, "every ref held once")
  }
}

/// A clock that runs `tick` with the number of the call before it answers: a batch reads it
/// once per group, before the group is stored, so a test can change files between groups.
final class TickingClock: WallClock {
  let time: Timestamp
  let tick: (Int) -> Void
  private var calls = 0

  init(time: Timestamp, tick: @escaping (Int) -> Void) {
    self.time = time
    self.tick = tick
  }

  func now() -> Timestamp {
    tick(calls)
    calls += 1
    return time
  }
}

/// A bit of the index flipped by another program between two groups of one fast run, which
/// already checked (or wrote) every block: the next group's look-ups must not believe what
/// this run checked before, and no ref may be placed twice.
struct IndexFlippedMidRunTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)
  let catalog = MemoryCatalog(entries: (0..<10).map { (sku: "sku-\($0)", price: $0 + 1) })

  /// Byte positions of every class: each header field, the header's padding, used and empty
  /// slots (hash and offset bytes), and the checksums of blocks with and without slots used.
  func positions(_ index: [UInt8], _ random: inout SplitMix) -> [Int] {
    let capacity = index[8..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    let used = (0..<capacity).filter { slot in
      index[(4096 + slot * 16)..<(4096 + slot * 16 + 8)].contains { $0 != 0 }
    }
    let empty = (0..<capacity).filter { !used.contains($0) }
    let sums = 4096 + capacity * 16
    var picked = Array(0..<128)  // Every byte of every header field.
    picked += [128, 1000, 4095]
    for slot in [used[0], used[used.count / 2], used[used.count - 1], empty[0], empty.last ?? 0] {
      picked += (0..<16).map { 4096 + slot * 16 + $0 }
    }
    for block in Set([used[0] / 16, used[used.count - 1] / 16, empty[0] / 16]) {
      picked += (0..<8).map { sums + block * 8 + $0 }
    }
    return picked.filter { $0 < index.count }.map { $0 * 8 + Int.random(in: 0..<8, using: &random) }
  }

  @Test func aBitFlippedBetweenTwoGroupsOfOneRunNeverPlacesARefTwice() throws {
    // Group 1 places 40 refs; group 2 gives 20 of them again and 20 new; group 3 all again.
    let first = (0..<40).map { "@m-\($0) sku-\($0 % 10)=1" }
    let second = (20..<60).map { "@m-\($0) sku-\($0 % 10)=2" }
    let third = (0..<60).map { "@m-\($0) sku-1=3" }
    let input = (first + second + third).joined(separator: "\n") + "\n"
    let refs = (0..<60).map { "m-\($0)" }
    // A good index of group 1's refs, to learn where its bytes are.
    let probe = try TemporaryFolder()
    let probeStore = FileOrders(path: FilePath(probe.file("o.jsonl")))
    _ = try probeStore.save(
      (0..<40).map { number in
        try #require(
          Draft(
            lines: [OrderLine(sku: "sku-1", quantity: 1, price: 2)], placedAt: time,
            reference: Reference("m-\(number)")))
      })
    let layout = [UInt8](try Data(contentsOf: URL(fileURLWithPath: probe.file("o.jsonl.refs"))))
    var random = SplitMix(seed: 71)
    let bits = positions(layout, &random)
    #expect(bits.count > 200)
    for bit in bits {
      let folder = try TemporaryFolder()
      let path = folder.file("orders.jsonl")
      let clock = TickingClock(time: time) { call in
        // Before the second group: the first group's index is whole, its blocks all known.
        guard call == 1, let handle = FileHandle(forUpdatingAtPath: path + ".refs")
        else { return }
        defer { try? handle.close() }
        guard (try? handle.seekToEnd()) ?? 0 > UInt64(bit / 8) else { return }
        try? handle.seek(toOffset: UInt64(bit / 8))
        guard let byte = try? handle.read(upToCount: 1)?.first else { return }
        try? handle.seek(toOffset: UInt64(bit / 8))
        try? handle.write(contentsOf: Data([byte ^ UInt8(1 << (bit % 8))]))
      }
      let store = FileOrders(path: FilePath(path))
      let errors = BufferOutput()
      let source = BatchInput(
        descriptor: BufferSource(Array(input.utf8)), name: "in", groupLines: 40)
      let rejected = try PricedBatchTests.batch(
        fast: true, source, catalog: catalog, store: store, clock: clock,
        report: QuietReport(errors: errors)
      ).run()
      #expect(rejected == 80, "bit \(bit): \(errors.text)")
      #expect(try OrdersFile.refsPlacedOnce(path, refs) == nil, "bit \(bit)")
    }
  }
}
