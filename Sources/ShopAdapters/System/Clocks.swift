import ShopConventions

// The clocks, and what tells this boot of the machine from another.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension System {
  /// What tells this boot of the machine from any other (Linux's random boot id), or nil
  /// where there is none: memory written before a crash of the machine is not trusted after.
  static func bootIdentity() -> [UInt8]? {
    #if os(Linux)
      guard let file = try? Descriptor.open(FilePath("/proc/sys/kernel/random/boot_id"), .read)
      else { return nil }
      var bytes = [UInt8](repeating: 0, count: 64)
      guard let count = try? file.read(into: &bytes, 0..<64, at: 0), count >= 32 else {
        return nil
      }
      return Array(bytes[..<count])
    #else
      return nil
    #endif
  }

  /// Seconds since 1970 in UTC.
  public static func secondsSince1970() -> Int64 {
    Int64(time(nil))
  }

  /// Milliseconds on a clock that never jumps (not the wall clock): for deadlines.
  public static func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) &* 1000 &+ Int64(now.tv_nsec) / 1_000_000
  }
}
