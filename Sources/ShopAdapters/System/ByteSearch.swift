// Byte search in memory by memchr and memcmp, which scan far faster than a loop.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension System {
  /// How many `byte`s the memory holds; `memchr` scans far faster than a loop over bytes.
  static func count(_ byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int {
    guard var cursor = bytes.baseAddress else { return 0 }
    let end = cursor + bytes.count
    var count = 0
    while let found = memchr(cursor, Int32(byte), end - cursor) {
      count += 1
      cursor = UnsafeRawPointer(found) + 1
    }
    return count
  }

  /// The offset of the first `needle` in the memory: its first byte found by `memchr`, the
  /// rest compared by `memcmp` (glibc's `memmem` needs `_GNU_SOURCE`, which the module lacks).
  static func firstIndex(of needle: StaticString, in bytes: UnsafeRawBufferPointer) -> Int? {
    let count = needle.utf8CodeUnitCount
    guard count > 0, let base = bytes.baseAddress, bytes.count >= count else { return nil }
    let first = Int32(needle.utf8Start.pointee)
    var cursor = base
    let last = base + (bytes.count - count)  // The last place the needle can start.
    while cursor <= last, let found = memchr(cursor, first, last - cursor + 1) {
      let position = UnsafeRawPointer(found)
      if memcmp(position, needle.utf8Start, count) == 0 { return position - base }
      cursor = position + 1
    }
    return nil
  }

  /// Whether `count` bytes at `first` and `second` are the same: up to 16 by two loads of a
  /// word from each end (that overlap when fewer), which a call to `memcmp` costs more than
  /// for a key or a SKU; more by `memcmp`.
  @inline(__always)
  static func equalBytes(
    _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int
  ) -> Bool {
    let a = UnsafeRawPointer(first)
    let b = UnsafeRawPointer(second)
    switch count {
    case 8...16:
      return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
        && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    case 4..<8:
      return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
        && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    case ..<4:
      for index in 0..<max(count, 0) where first[index] != second[index] { return false }
      return true
    default:
      return memcmp(first, second, count) == 0
    }
  }

  /// The offset of the first `byte` in the memory, by `memchr`.
  static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else {
      return nil
    }
    return UnsafeRawPointer(found) - base
  }

  /// The offset of the last `byte` in the memory (backward scans read small blocks).
  static func lastIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    bytes.lastIndex(of: byte)
  }

  /// The last `byte` in `bytes`, found by `memchr` forwards (portable, unlike `memrchr`):
  /// FileOrders scans up to 64 MiB backwards for the end of a line, mostly bytes without one.
  static func lastIndexFromEnd(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var cursor = base
    let end = base + bytes.count
    var last: Int?
    while cursor < end, let found = memchr(cursor, Int32(byte), end - cursor) {
      let position = UnsafeRawPointer(found)
      last = position - base
      cursor = position + 1
    }
    return last
  }
}
