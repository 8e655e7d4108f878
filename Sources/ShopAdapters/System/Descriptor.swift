import ShopConventions

// Descriptors that close themselves; transfers loop over short counts.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An open file descriptor. One it opened is closed when the value goes away; a standard
/// descriptor is only borrowed.
public final class Descriptor: Sendable {
  let raw: Int32
  private let owned: Bool

  init(raw: Int32, owned: Bool) {
    self.raw = raw
    self.owned = owned
  }

  deinit {
    if owned { _ = close(raw) }
  }

  /// A descriptor opened elsewhere, such as a test's pipe; never closed here.
  public static func borrowing(_ raw: Int32) -> Descriptor {
    Descriptor(raw: raw, owned: false)
  }

  public static let standardInput = Descriptor(raw: 0, owned: false)
  public static let standardOutput = Descriptor(raw: 1, owned: false)
  public static let standardError = Descriptor(raw: 2, owned: false)

  /// How to open a path.
  enum Access {
    /// Reading only; a FIFO opens at once, without waiting for a writer.
    case read
    /// Reading a stream, such as a FIFO given as batch input: waits for its writer.
    case readStream
    /// Reading and appending to an existing file.
    case append
    /// Reading and appending to a file this call creates; fails if it exists.
    case createNew
    /// Reading and appending, creating the file if it is missing: for the target of a
    /// symbolic link that points at no file yet, which `createNew` refuses.
    case createThroughLink
  }

  /// Opens `path`. Except for `.readStream`, a FIFO opens at once (O_NONBLOCK) so the caller
  /// can look at what it is and refuse it; then the descriptor blocks as usual.
  static func open(_ path: FilePath, _ access: Access) throws(SystemError) -> Descriptor {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let common = O_CLOEXEC | O_NOCTTY | O_NONBLOCK
    var flags: Int32
    switch access {
    case .read: flags = O_RDONLY | common
    case .readStream: flags = O_RDONLY | O_CLOEXEC | O_NOCTTY
    case .append: flags = O_RDWR | O_APPEND | common
    case .createNew: flags = O_RDWR | O_APPEND | O_CREAT | O_EXCL | common
    case .createThroughLink: flags = O_RDWR | O_APPEND | O_CREAT | common
    }
    let raw = try retrying("open") {
      path.withCString { name in
        flags & O_CREAT != 0 ? systemOpen(name, flags, 0o644) : systemOpen(name, flags, 0)
      }
    }
    let descriptor = Descriptor(raw: raw, owned: true)
    let status = fcntl(raw, F_GETFL)
    if status >= 0 { _ = fcntl(raw, F_SETFL, status & ~O_NONBLOCK) }
    return descriptor
  }

  /// The kind of file, its size now, and which file it is.
  func status() throws(SystemError) -> (kind: FileKind, size: Int, identity: FileIdentity) {
    var info = stat()
    guard fstat(raw, &info) == 0 else { throw SystemError("fstat") }
    let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    return (FileKind(mode: info.st_mode), Int(info.st_size), identity)
  }

  /// Which file this descriptor writes to, when it is an open regular file.
  public var regularFile: FileIdentity? {
    guard let status = try? status(), status.kind == .regular else { return nil }
    return status.identity
  }

  /// Reads into `buffer` from `offset` until it is full or the file ends; returns the count.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
    var done = 0
    while done < buffer.count {
      let got = try retrying("pread") {
        pread(raw, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + done))
      }
      if got == 0 { break }
      done += got
    }
    return done
  }

  /// Reads what one `read` gives (a stream: a pipe, a terminal, a file); 0 at the end.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try retrying("read") { systemRead(raw, buffer.baseAddress, buffer.count) }
  }

  /// True when a read would not wait: more input has already arrived.
  public func hasInputWaiting() -> Bool {
    var request = pollfd(fd: raw, events: Int16(POLLIN), revents: 0)
    return poll(&request, 1, 0) > 0 && request.revents & Int16(POLLIN) != 0
  }

  /// Writes every byte, looping over short writes.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let written = try retrying("write") {
        systemWrite(raw, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      if written == 0 { throw .noProgress }
      offset += written
    }
  }

  /// Reads into `bytes[range]` from `offset` until it is full or the file ends.
  func read(into bytes: inout [UInt8], _ range: Range<Int>, at offset: Int) throws(SystemError)
    -> Int
  {
    let result = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(SystemError) in
        try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[range]), at: offset)
      }
    }
    return try result.get()
  }

  /// Reads what one `read` gives into `bytes[range]`; 0 at the end.
  func read(into bytes: inout [UInt8], _ range: Range<Int>) throws(SystemError) -> Int {
    let result = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(SystemError) in
        try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[range]))
      }
    }
    return try result.get()
  }

  func writeAll(_ bytes: [UInt8]) throws(SystemError) {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(SystemError) in try writeAll(buffer) }
    }
    try result.get()
  }

  /// Writes every byte of `bytes` at `offset`, leaving the file position alone.
  func writeAll(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
    var done = 0
    while done < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        Result { () throws(SystemError) in
          try retrying("pwrite") {
            pwrite(
              raw, buffer.baseAddress.map { $0 + done }, buffer.count - done,
              off_t(offset + done))
          }
        }
      }
      let written = try result.get()
      if written == 0 { throw .noProgress }
      done += written
    }
  }

  func truncate(to size: Int) throws(SystemError) {
    _ = try retrying("ftruncate") { ftruncate(raw, off_t(size)) }
  }

  /// Makes what was written survive a power cut. Darwin's `fsync` only reaches the drive's
  /// cache; `F_FULLFSYNC` reaches the medium, and where a file system refuses it, `fsync` is
  /// the best there is.
  func sync() throws(SystemError) {
    #if canImport(Darwin)
      if fcntl(raw, F_FULLFSYNC) == 0 { return }
    #endif
    _ = try retrying("fsync") { fsync(raw) }
  }

  /// Waits for the exclusive lock: a busy store is a reason to wait, never to fail.
  func lockExclusive() throws(SystemError) {
    _ = try retrying("flock") { flock(raw, LOCK_EX) }
  }

  /// Waits for a shared lock: readers take it only to see no write half done.
  func lockShared() throws(SystemError) {
    _ = try retrying("flock") { flock(raw, LOCK_SH) }
  }

  /// Takes a shared lock if no one holds the exclusive one; false, at once, if someone does.
  func tryLockShared() throws(SystemError) -> Bool {
    while true {
      if flock(raw, LOCK_SH | LOCK_NB) == 0 { return true }
      if errno == EWOULDBLOCK { return false }
      if errno != EINTR { throw SystemError("flock") }
    }
  }

  func unlock() {
    _ = flock(raw, LOCK_UN)
  }

}

extension Descriptor {
  /// Gives the file `size` bytes of zeros, with every block reserved now where the system can
  /// (a full disk fails here, not later when a mapped page is first stored to).
  func allocate(size: Int) throws(SystemError) {
    _ = try retrying("ftruncate") { ftruncate(raw, off_t(size)) }
    #if os(Linux)
      let code = posix_fallocate(raw, 0, off_t(size))
      if code != 0 && code != EOPNOTSUPP && code != EINVAL {
        throw SystemError("fallocate", code: code)
      }
    #endif
  }

  /// Opens `path` to read and write in place (no append), creating it when missing; never
  /// through a symbolic link, which would write or create a file elsewhere.
  static func openInPlace(_ path: FilePath) throws(SystemError) -> Descriptor {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let raw = try retrying("open") {
      path.withCString {
        systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0o644)
      }
    }
    return Descriptor(raw: raw, owned: true)
  }

  /// Creates `path`, which must not exist, readable and writable by its owner only (O_EXCL:
  /// never a file or link someone put there first, whatever its permissions).
  static func createPrivate(_ path: FilePath) throws(SystemError) -> Descriptor {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW
    let raw = try retrying("open") { path.withCString { systemOpen($0, flags, 0o600) } }
    return Descriptor(raw: raw, owned: true)
  }

  /// Opens an existing `path` to read, or to read and write, never through a symbolic link
  /// and never waiting on a FIFO (the caller looks at what it opened).
  static func openExisting(_ path: FilePath, writable: Bool) throws(SystemError) -> Descriptor {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let flags =
      (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK
    let raw = try retrying("open") { path.withCString { systemOpen($0, flags, 0) } }
    return Descriptor(raw: raw, owned: true)
  }
}

#if os(Linux)
  // Linux's values; its C library declares them only for GNU C.
  private let seekData: Int32 = 3
  private let seekHole: Int32 = 4
#else
  private let seekData = SEEK_DATA
  private let seekHole = SEEK_HOLE
#endif

extension Descriptor {
  /// The first run of data at or after `offset` and before `end`, skipping holes: they read as
  /// zeros, so a count of newlines need not read them (a file a crash left a gigabyte of zeros
  /// long is counted at once). nil when only holes are left. Where the system can't tell holes,
  /// the rest is all data.
  func data(from offset: Int, before end: Int) -> Range<Int>? {
    guard offset < end else { return nil }
    let start = lseek(raw, off_t(offset), seekData)
    if start < 0 { return errno == ENXIO ? nil : offset..<end }
    guard Int(start) < end else { return nil }
    let hole = lseek(raw, start, seekHole)
    return Int(start)..<(hole < 0 ? end : min(Int(hole), end))
  }
}
