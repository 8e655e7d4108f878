import Foundation
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

#if canImport(Glibc)
  import Glibc
#endif

/// The index damaged at random (a fixed seed), then every ref placed again: each ref ends held
/// exactly once, whatever was done to the index, and the numbers run on without a gap.
struct IndexFuzzTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ ref: String?) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time,
        reference: ref.flatMap { Reference($0) }))
  }

  enum Damage: CaseIterable {
    case bits, zeroSlot, copySlot, truncate, extend, anotherIndex, anotherBlocks, groupWritable
    case hardLink, ordersTouched, deleted
  }

  @Test func anIndexDamagedAtRandomNeverLetsARefBePlacedTwice() throws {
    var random = SplitMix(seed: 30)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let folder = try TemporaryFolder()
    let other = folder.file("other.jsonl")
    _ = try FileOrders(path: other).place((0..<300).map { try draft("x-\($0)") })
    let otherIndex = [UInt8](try Data(contentsOf: URL(fileURLWithPath: other + ".refs")))
    var tried: [Damage: Int] = [:]
    for round in 0..<60 {
      let path = folder.file("o\(round).jsonl")
      let index = path + ".refs"
      let refs = (0..<(20 + below(300))).map { "r\(round)-\($0)" }
      var placed = 0
      while placed < refs.count {
        let group = min(refs.count - placed, 1 + below(60))
        var drafts = try refs[placed..<(placed + group)].map { try draft($0) }
        if below(3) == 0 { drafts.insert(try draft(nil), at: below(drafts.count)) }
        _ = try FileOrders(path: path).place(drafts)
        placed += group
      }
      for _ in 0..<(1 + below(3)) {
        guard var bytes = (try? Data(contentsOf: URL(fileURLWithPath: index))).map({ [UInt8]($0) })
        else { break }
        var damage = Damage.allCases[below(Damage.allCases.count)]
        // A table cut short has no slots left to damage: lengthen it instead.
        if bytes.count < 4096 + 33 * 16, [.zeroSlot, .copySlot, .anotherBlocks].contains(damage) {
          damage = .extend
        }
        tried[damage, default: 0] += 1
        switch damage {
        case .bits:
          for _ in 0..<(1 + below(8)) { bytes[below(bytes.count)] ^= 1 << UInt8(below(8)) }
        case .zeroSlot, .copySlot:
          let slots = (bytes.count - 4096) * 2 / 33
          let a = 4096 + below(slots) * 16
          let b = 4096 + below(slots) * 16
          bytes.replaceSubrange(
            a..<(a + 16),
            with: damage == .zeroSlot
              ? [UInt8](repeating: 0, count: 16) : Array(bytes[b..<(b + 16)]))
        case .truncate: bytes = Array(bytes.prefix(below(bytes.count)))
        case .extend:
          bytes += (0..<(1 + below(9000))).map { _ in below(2) == 0 ? 0 : UInt8(below(256)) }
        case .anotherIndex: bytes = otherIndex
        case .anotherBlocks:
          let start = 4096 + below(min(bytes.count, otherIndex.count) - 4096)
          let end = start + below(min(bytes.count, otherIndex.count) - start + 1)
          bytes.replaceSubrange(start..<end, with: otherIndex[start..<end])
        case .groupWritable, .hardLink, .ordersTouched, .deleted: break
        }
        // Written in place: the same inode, owner and mode.
        let handle = try #require(FileHandle(forUpdatingAtPath: index))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        switch damage {
        case .groupWritable: #expect(chmod(index, 0o664) == 0)
        case .hardLink: #expect(link(index, folder.file("link\(round)-\(below(1 << 30))")) == 0)
        case .ordersTouched:
          var times = [
            timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 5),
          ]
          #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        case .deleted: try FileManager.default.removeItem(atPath: index)
        default: break
        }
      }
      // Every ref again, in another order and other groups, with a few new ones.
      var again = refs + (0..<3).map { "new\(round)-\($0)" }
      for position in again.indices.reversed() {
        again.swapAt(position, below(position + 1))
      }
      var start = 0
      while start < again.count {
        let group = min(again.count - start, 1 + below(80))
        _ = try FileOrders(path: path).place(again[start..<(start + group)].map { try draft($0) })
        start += group
      }
      let wrong = try OrdersFile.refsPlacedOnce(path, refs + (0..<3).map { "new\(round)-\($0)" })
      #expect(wrong == nil, "round \(round)")
    }
    #expect(tried.count == Damage.allCases.count, "every kind of damage tried: \(tried)")
  }
}
