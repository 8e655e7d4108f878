// The seam to the C library for files and memory (the process itself is in Process.swift).
// Everything else gets safe Swift types from here:
// descriptors that close themselves, typed errors with their errno, paths as bytes. Every call
// that can be interrupted is retried on EINTR, and every transfer loops over short counts.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A failed system call: which call, and the `errno` it left.
public struct SystemError: Error, Equatable, Sendable {
  public let call: String
  public let code: Int32

  init(_ call: String, code: Int32 = errno) {
    self.call = call
    self.code = code
  }

  /// A failure of `call` with `code`, as a test's stream would report it.
  public init(call: String, code: Int32) {
    self.init(call, code: code)
  }

  /// The C library's words for the code, e.g. "No such file or directory".
  public var explanation: String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  var isMissing: Bool { code == ENOENT }
  var isExisting: Bool { code == EEXIST }
  var isNotAFolder: Bool { code == ENOTDIR }
  /// The reader of a pipe or socket has gone away.
  public var isBrokenPipe: Bool { code == EPIPE }
  /// The file system can't sync a folder; the data itself is synced by then.
  var isUnsupported: Bool { code == EINVAL || code == ENOTSUP || code == EOPNOTSUPP }

  static let notAPath = SystemError("open", code: EINVAL)
  static let notAFolder = SystemError("mkdir", code: ENOTDIR)
  static let shortRead = SystemError("read", code: EIO)
  static let noProgress = SystemError("write", code: EIO)
  /// What writing to a standard descriptor that was closed when `shop` started would give.
  public static let closedDescriptor = SystemError("write", code: EBADF)
}

/// What kind of entry a path names, by `fstat` or `stat`.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
  case regular, folder, fifo, device, socket, other

  init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .folder
    case S_IFIFO: self = .fifo
    case S_IFCHR, S_IFBLK: self = .device
    case S_IFSOCK: self = .socket
    default: self = .other
    }
  }

  public var description: String {
    switch self {
    case .regular: return "a regular file"
    case .folder: return "a folder"
    case .fifo: return "a FIFO"
    case .device: return "a device"
    case .socket: return "a socket"
    case .other: return "not a regular file"
    }
  }
}

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

  func unlock() {
    _ = flock(raw, LOCK_UN)
  }

}

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

  /// Opens `path` to read and write in place (no append), creating it when missing.
  static func openInPlace(_ path: FilePath) throws(SystemError) -> Descriptor {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let raw = try retrying("open") {
      path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o644) }
    }
    return Descriptor(raw: raw, owned: true)
  }
}

/// Calls `body` until it is not interrupted; a negative result is the call's failure.
func retrying<Result: BinaryInteger>(
  _ call: String, _ body: () -> Result
) throws(SystemError) -> Result {
  while true {
    let result = body()
    if result >= 0 { return result }
    if errno != EINTR { throw SystemError(call) }
  }
}

// The C calls under names of their own: inside `Descriptor`, `open` and `read` mean its own.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

private func systemRead(_ raw: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(raw, buffer, count)
}

private func systemRename(_ old: UnsafePointer<CChar>, _ new: UnsafePointer<CChar>) -> Int32 {
  rename(old, new)
}

private func systemWrite(_ raw: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(raw, buffer, count)
}

/// The calls on paths and on the process as a whole.
public enum System {
  /// What `path` names now, following symbolic links; nil when nothing is there.
  static func kind(of path: FilePath) throws(SystemError) -> FileKind? {
    guard !path.bytes.contains(0) else { throw .notAPath }
    var info = stat()
    let result = path.withCString { stat($0, &info) }
    if result == 0 { return FileKind(mode: info.st_mode) }
    if errno == ENOENT { return nil }
    throw SystemError("stat")
  }

  /// Which file `path` names now, following symbolic links; nil when nothing is there.
  public static func identity(of path: FilePath) throws(SystemError) -> FileIdentity? {
    guard !path.bytes.contains(0) else { throw .notAPath }
    var info = stat()
    let result = path.withCString { stat($0, &info) }
    if result == 0 { return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
    if errno == ENOENT { return nil }
    throw SystemError("stat")
  }

  // MARK: Where a path leads (for FileOrders: the folder a new file's entry is in)

  /// The absolute path `path` names with every symbolic link followed (`realpath`); nil when
  /// nothing is there.
  static func resolvedPath(_ path: FilePath) throws(SystemError) -> FilePath? {
    guard !path.bytes.contains(0) else { throw .notAPath }
    guard let resolved = path.withCString({ realpath($0, nil) }) else {
      if errno == ENOENT { return nil }
      throw SystemError("realpath")
    }
    defer { free(resolved) }
    let raw = UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self)
    return FilePath(Array(UnsafeBufferPointer(start: raw, count: strlen(resolved))))
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

  static func makeFolder(_ path: FilePath) throws(SystemError) {
    guard !path.bytes.contains(0) else { throw .notAPath }
    _ = try retrying("mkdir") { path.withCString { mkdir($0, 0o755) } }
  }

  /// Makes a folder's entries durable: a new file, or a new folder, survives a power cut
  /// only once its folder is synced.
  static func syncFolder(_ path: FilePath) throws(SystemError) {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let raw = try retrying("open") {
      path.withCString { systemOpen($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
    }
    let folder = Descriptor(raw: raw, owned: true)
    try folder.sync()
  }

  /// Moves `from` over `to` in one step: a reader finds either file whole.
  static func rename(_ from: FilePath, to: FilePath) throws(SystemError) {
    guard !from.bytes.contains(0), !to.bytes.contains(0) else { throw .notAPath }
    let result = from.withCString { old in to.withCString { new in systemRename(old, new) } }
    guard result == 0 else { throw SystemError("rename") }
  }

  /// Removes the file at `path`; nothing there is no error.
  static func remove(_ path: FilePath) throws(SystemError) {
    guard !path.bytes.contains(0) else { throw .notAPath }
    guard path.withCString({ unlink($0) }) == 0 || errno == ENOENT else {
      throw SystemError("unlink")
    }
  }

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

  /// What a socket became ready for while ``waitFor(_:reading:writing:until:)`` waited.
  public struct Readiness: Equatable, Sendable {
    public var readable = false
    public var writable = false
    /// The deadline passed first.
    public var timedOut = false
  }

  /// Waits until `socket` is readable (or writable, as asked), or until `deadline`
  /// (``monotonicMilliseconds()``) passes. An error or hang-up counts as ready: the caller's
  /// next read or write says what it was.
  public static func waitFor(
    _ socket: Int32, reading: Bool, writing: Bool, until deadline: Int64
  ) -> Readiness {
    var events: Int16 = 0
    if reading { events |= Int16(POLLIN) }
    if writing { events |= Int16(POLLOUT) }
    while true {
      let left = deadline - monotonicMilliseconds()
      guard left > 0 else { return Readiness(timedOut: true) }
      var request = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&request, 1, Int32(clamping: left))
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 { continue }  // The deadline is checked again above.
      let failed = ready < 0 || request.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
      return Readiness(
        readable: failed || request.revents & Int16(POLLIN) != 0,
        writable: failed || request.revents & Int16(POLLOUT) != 0)
    }
  }

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

  /// Whether `count` bytes at `first` and `second` are the same, by `memcmp`.
  static func equalBytes(
    _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int
  ) -> Bool {
    memcmp(first, second, count) == 0
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
}

/// One file, whatever path or descriptor reaches it: its device and inode.
public struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64
}

extension FilePath {
  /// Calls `body` with the path as a C string; the caller has checked it holds no NUL.
  fileprivate func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    var bytes = self.bytes.map { CChar(bitPattern: $0) }
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return body("") }
      return body(base)
    }
  }
}
