import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The byte searches of the seam (`System/ByteSearch.swift`) against the plain loops they
/// stand for: equal bytes compared a word from each end, up to 16, and the search for a word.
struct ByteSearchTests {
  /// Every length to 40 (words that overlap, that don't, and `memcmp` past 16), equal runs and
  /// runs that differ in one byte at every place, by any bit.
  @Test func equalBytesIsWhatComparingEachByteSays() {
    var random = SplitMix(seed: 7)
    for count in 0...40 {
      let first = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      for place in -1..<count {
        var second = first
        if place >= 0 { second[place] ^= 1 << (random.next() % 8) }
        // Bytes past the run are unlike, so a compare that reads past it is caught.
        let a = first + [0xAA, 0xAA]
        let b = second + [0x55, 0x55]
        let equal = a.withUnsafeBufferPointer { a in
          b.withUnsafeBufferPointer { b in
            guard let a = a.baseAddress, let b = b.baseAddress else { return false }
            return System.equalBytes(a, b, count: count)
          }
        }
        #expect(equal == (first == second), "\(count) bytes, differing at \(place)")
      }
    }
  }

  @Test func aWordIsFoundWhereItFirstStands() {
    for (text, word, offset) in [
      ("a voids b", "voids", 2), ("voidvoids", "voids", 4), ("void", "voids", nil),
      ("", "voids", nil), ("voids", "voids", 0), ("xvoid\ns", "voids", nil),
    ] as [(String, StaticString, Int?)] {
      let found = Array(text.utf8).withUnsafeBytes { System.firstIndex(of: word, in: $0) }
      #expect(found == offset, "\(text)")
    }
  }
}
