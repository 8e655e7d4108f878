// Extended attributes of an open file, and the state of its bytes that one may describe.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import CProcess
  import Glibc
#elseif canImport(Musl)
  import CProcess
  import Musl
#endif

/// Which bytes a file holds, as far as `fstat` tells without reading them: the file, its size
/// and when its bytes last changed. Any write changes the size or the time (`touch -d` can set
/// the time back, and only someone who may write the file anyway).
struct FileVersion: Equatable {
  let identity: FileIdentity
  let size: Int
  let modifiedSeconds: Int64
  let modifiedNanoseconds: Int64
}

extension Descriptor {
  func version() throws(SystemError) -> FileVersion {
    var info = stat()
    guard fstat(raw, &info) == 0 else { throw SystemError("fstat") }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return FileVersion(
      identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
      size: Int(info.st_size), modifiedSeconds: Int64(modified.tv_sec),
      modifiedNanoseconds: Int64(modified.tv_nsec))
  }

  /// The extended attribute `name` (at most `limit` bytes), or nil when the file has none of
  /// that name, the file system keeps none, or it is longer than `limit`: each means there
  /// is no record to use, never a failure of the command.
  func attribute(named name: String, limit: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: limit)
    let got = bytes.withUnsafeMutableBytes { buffer in
      #if canImport(Darwin)
        fgetxattr(raw, name, buffer.baseAddress, buffer.count, 0, 0)
      #else
        fgetxattr(raw, name, buffer.baseAddress, buffer.count)
      #endif
    }
    guard got >= 0 else { return nil }
    return Array(bytes[..<got])
  }

  /// Sets the extended attribute `name` to `value`. It fails where the file system keeps no
  /// attributes, on a read-only mount, an append-only or immutable file, or a full disk.
  func setAttribute(named name: String, to value: [UInt8]) throws(SystemError) {
    let result = value.withUnsafeBytes { buffer in
      #if canImport(Darwin)
        fsetxattr(raw, name, buffer.baseAddress, buffer.count, 0, 0)
      #else
        fsetxattr(raw, name, buffer.baseAddress, buffer.count, 0)
      #endif
    }
    guard result == 0 else { throw SystemError("fsetxattr") }
  }
}
