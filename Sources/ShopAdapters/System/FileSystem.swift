import Glibc

/// The few POSIX calls the file adapters share, with EINTR and short transfers handled once.
enum FileSystem {
  /// Writes every byte or reports why not.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(
        descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if written == 0 { return EIO }
      offset += written
    }
    return nil
  }

  /// Reads up to `count` bytes at `offset`; fewer only at end of file.
  static func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Result<Int, Errno> {
    var done = 0
    while done < buffer.count {
      let got = pread(
        descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done,
        off_t(offset + done))
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(Errno(code: errno))
      }
      if got == 0 { break }
      done += got
    }
    return .success(done)
  }

  /// Reads the next chunk of a stream (a file, a pipe, a terminal); 0 means end of input.
  static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<
    Int, Errno
  > {
    while true {
      let got = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if got >= 0 { return .success(got) }
      if errno != EINTR { return .failure(Errno(code: errno)) }
    }
  }

  /// How many newlines `bytes` holds; `memchr` scans far faster than a byte loop.
  static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
    guard var cursor = bytes.baseAddress else { return 0 }
    let end = cursor + bytes.count
    var count = 0
    while let found = memchr(cursor, 0x0A, end - cursor) {
      count += 1
      cursor = UnsafeRawPointer(found) + 1
    }
    return count
  }

  /// The whole of a small file, such as a catalog.
  static func contents(of path: String) -> Result<[UInt8], Errno> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(Errno(code: errno)) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let result = chunk.withUnsafeMutableBytes { read(descriptor, into: $0) }
      switch result {
      case .failure(let error):
        return .failure(error)
      case .success(0):
        return .success(bytes)
      case .success(let count):
        bytes.append(contentsOf: chunk[..<count])
      }
    }
  }

  /// Creates the folders on the way to `path` that are missing, syncing each new folder's
  /// parent so the new entry survives a crash.
  static func makeFolders(toFile path: String) -> FileError? {
    let folder = parent(of: path)
    if folder == path || folder.isEmpty { return nil }
    var status = stat()
    if stat(folder, &status) == 0 {
      return (status.st_mode & S_IFMT) == S_IFDIR
        ? nil : .cannotCreateFolder(path: folder, errno: ENOTDIR)
    }
    guard errno == ENOENT else { return .cannotCreateFolder(path: folder, errno: errno) }
    if let failure = makeFolders(toFile: folder) { return failure }
    if mkdir(folder, 0o755) != 0, errno != EEXIST {
      return .cannotCreateFolder(path: folder, errno: errno)
    }
    syncFolder(containing: folder)
    return nil
  }

  /// Makes a new directory entry durable. Best effort: some file systems refuse to sync a
  /// folder, and the file's own data is already synced by then.
  static func syncFolder(containing path: String) {
    let descriptor = open(parent(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  static func parent(of path: String) -> String {
    var bytes = Array(path.utf8)
    while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    if slash == 0 { return "/" }
    return String(decoding: bytes[..<slash], as: UTF8.self)
  }
}

/// A failed system call's `errno`, as a value that can travel in a `Result`.
struct Errno: Error {
  let code: Int32
}
