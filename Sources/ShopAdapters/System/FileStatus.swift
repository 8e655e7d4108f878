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
