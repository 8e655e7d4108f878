import ShopConventions

// What a path or descriptor names: the kind of entry and which file it is.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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

/// One file, whatever path or descriptor reaches it: its device and inode.
public struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64
}

extension System {
  /// What `path` names now, following symbolic links; nil when nothing is there.
  static func kind(of path: FilePath) throws(SystemError) -> FileKind? {
    guard !path.bytes.contains(0) else { throw .notAPath }
    var info = stat()
    let result = path.withCString { stat($0, &info) }
    if result == 0 { return FileKind(mode: info.st_mode) }
    if errno == ENOENT { return nil }
    throw SystemError("stat")
  }

  /// Whether `path` itself is a symbolic link, whether or not what it points at exists.
  static func isLink(_ path: FilePath) throws(SystemError) -> Bool {
    guard !path.bytes.contains(0) else { throw .notAPath }
    var info = stat()
    let result = path.withCString { lstat($0, &info) }
    if result == 0 { return info.st_mode & S_IFMT == S_IFLNK }
    if errno == ENOENT { return false }
    throw SystemError("lstat")
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
}

/// What `fstat` says of an open file beyond its kind and size: who owns it, who may read or
/// write it, how many names it has, and the times a write or any change last set.
struct FileDetails: Equatable {
  let kind: FileKind
  let size: Int
  let identity: FileIdentity
  let owner: UInt32
  let group: UInt32
  /// The permission bits (`0o777`) and the set-id and sticky bits.
  let permissions: UInt32
  let links: UInt64
  /// Seconds and nanoseconds of the last write (`st_mtim`) and last change (`st_ctim`),
  /// packed as `seconds * 1_000_000_000 + nanoseconds` (wrapping: compared, never read).
  let modified: UInt64
  let changed: UInt64
}

extension Descriptor {
  /// Everything ``FileDetails`` holds, from one `fstat`.
  func details() throws(SystemError) -> FileDetails {
    var info = stat()
    guard fstat(raw, &info) == 0 else { throw SystemError("fstat") }
    func packed(_ time: timespec) -> UInt64 {
      UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000
        &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
    #if canImport(Darwin)
      let modified = packed(info.st_mtimespec)
      let changed = packed(info.st_ctimespec)
    #else
      let modified = packed(info.st_mtim)
      let changed = packed(info.st_ctim)
    #endif
    return FileDetails(
      kind: FileKind(mode: info.st_mode), size: Int(info.st_size),
      identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
      owner: UInt32(info.st_uid), group: UInt32(info.st_gid),
      permissions: UInt32(info.st_mode) & 0o7777, links: UInt64(info.st_nlink),
      modified: modified, changed: changed)
  }

  /// Sets the permission bits; the umask plays no part.
  func setPermissions(_ permissions: UInt32) throws(SystemError) {
    _ = try retrying("fchmod") { fchmod(raw, mode_t(permissions)) }
  }

  /// Gives the file to `group`, keeping its owner: allowed when the caller owns the file and
  /// is a member of the group.
  func setGroup(_ group: UInt32) throws(SystemError) {
    _ = try retrying("fchown") { fchown(raw, uid_t.max, gid_t(group)) }
  }
}

extension System {
  /// The user whose permissions this process has.
  static func effectiveUser() -> UInt32 {
    UInt32(geteuid())
  }
}
