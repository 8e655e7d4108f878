// What a failed system call leaves: the call and its errno.
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
  /// No memory, or no address space, for an allocation or a map.
  var isOutOfMemory: Bool { code == ENOMEM }
  /// The file can be read but not written: a read-only mount, no write permission.
  var isReadOnly: Bool { code == EROFS || code == EACCES || code == EPERM }
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
  /// A file `shop` did not make is where it would replace one of its own.
  static let foreignFile = SystemError("rename", code: EEXIST)
  /// An index whose checksums do not hold: never used, rebuilt.
  static let damagedIndex = SystemError("read", code: EBADMSG)
  /// What writing to a standard descriptor that was closed when `shop` started would give.
  public static let closedDescriptor = SystemError("write", code: EBADF)
}
