// A file mapped into memory, unmapped with its value.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A file's bytes mapped into memory and shared with the file: a store reaches the page cache
/// at once, with no copy, and other processes see it. Unmapped when the value goes away.
final class MappedFile {
  let bytes: UnsafeMutableRawBufferPointer

  /// Maps the first `length` bytes of `file`, which must already be that long (a store to a
  /// page past the end, or to a block a full disk can't supply, would kill the process).
  init(_ file: Descriptor, length: Int, writable: Bool) throws(SystemError) {
    let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
    guard length > 0,
      let base = mmap(nil, length, protection, MAP_SHARED, file.raw, 0), base != MAP_FAILED
    else { throw SystemError("mmap", code: length > 0 ? errno : EINVAL) }
    bytes = UnsafeMutableRawBufferPointer(start: base, count: length)
  }

  /// `length` bytes of zeros that belong to no file: memory whose lack is an error to report,
  /// where an allocation that fails stops the process.
  init(anonymous length: Int) throws(SystemError) {
    guard length > 0,
      let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      base != MAP_FAILED
    else { throw SystemError("mmap", code: length > 0 ? errno : EINVAL) }
    bytes = UnsafeMutableRawBufferPointer(start: base, count: length)
  }

  deinit {
    _ = munmap(bytes.baseAddress, bytes.count)
  }

  /// Drops the pages of `range` (rounded in to whole pages) from this process's memory; the
  /// file keeps their bytes, and touching them again reads them back.
  func release(_ range: Range<Int>) {
    let page = 4096
    let start = (range.lowerBound + page - 1) / page * page
    let end = range.upperBound / page * page
    guard let base = bytes.baseAddress, start < end else { return }
    _ = madvise(base + start, end - start, MADV_DONTNEED)
  }

  /// Maps the pages of `range` (rounded out to whole pages) writable now, in one call, where
  /// touching them one by one would take a fault each: for bytes about to be written. Best
  /// effort: a system without `MADV_POPULATE_WRITE` (Linux before 5.14, or not Linux) takes
  /// the faults as before.
  func populate(_ range: Range<Int>) {
    #if os(Linux)
      let page = 4096
      let start = max(0, range.lowerBound / page * page)
      let end = min(bytes.count, (range.upperBound + page - 1) / page * page)
      guard let base = bytes.baseAddress, start < end else { return }
      _ = madvise(base + start, end - start, 23)  // MADV_POPULATE_WRITE
    #endif
  }
}
