import ShopConventions
import ShopCore

/// Why a file could not be used; each case names the file, so the message can say where, and
/// carries the exit status its command ends with.
public enum FileError: ShopError, Equatable, Sendable {
  /// An input file that can't be read (missing, no permission, an I/O error).
  case unreadable(FilePath, SystemError)
  /// A path that names something other than a regular file: a FIFO, a device, a folder.
  /// Reading one could wait forever or never end; an orders file must be a plain file.
  case notRegular(FilePath, FileKind, writing: Bool)
  /// A complete line that is not what the file's format says it must be.
  case badData(FilePath, line: Int, reason: String)
  /// A file that can't be created, or opened for writing.
  case cannotCreate(FilePath, SystemError)
  /// A folder on the way to an output file that can't be created (or is not a folder).
  case cannotCreateFolder(FilePath, SystemError)
  /// A write or sync that failed (a full disk, an I/O error).
  case cannotWrite(FilePath, SystemError)
  /// The orders file's last number is the largest this machine can count.
  case full(FilePath, OrdersFull)
  /// The orders file is also where a standard stream writes (`shop place >> orders.jsonl`):
  /// reports or errors would land among the orders.
  case sharedWithStream(FilePath, stream: String)
  /// The path stopped naming the orders file a writer held (moved, removed, replaced) after
  /// it had reported orders, and the file now there does not provably hold them.
  case replaced(FilePath, what: String, lastReported: Int)
  /// The memory a file needs (a map of it, a table built from it) can't be had: a memory
  /// limit (`ulimit -v`) or an exhausted machine. Never taken for a missing or damaged file.
  case noMemory(FilePath, SystemError)
  /// A read command waited its bound (`seconds`, `SHOP_TIMEOUT`) for the lock another
  /// process holds to write the orders file (who, when the system says), and read nothing.
  case busy(FilePath, seconds: Int, holder: LockHolder?)

  public var status: ExitStatus {
    switch self {
    case .unreadable: return .noInput
    case .notRegular(_, _, let writing): return writing ? .cannotCreate : .noInput
    case .sharedWithStream: return .cannotCreate
    case .badData, .full: return .dataError
    case .cannotCreate, .cannotCreateFolder: return .cannotCreate
    case .cannotWrite, .replaced: return .ioError
    case .noMemory: return .osError
    case .busy: return .temporaryFailure
    }
  }

  public var message: String {
    switch self {
    case .unreadable(let path, let error):
      return "cannot read \(path): \(error.explanation)"
    case .notRegular(let path, let kind, _):
      return "\(path) is \(kind), not a regular file"
    case .badData(let path, let line, let reason):
      return "\(TerminalText.quoted(path.bytes).dropFirst().dropLast()):\(line): \(reason)"
    case .cannotCreate(let path, let error):
      return "cannot create or open \(path) for writing: \(error.explanation)"
    case .cannotCreateFolder(let path, let error):
      return "cannot create folder \(path): \(error.explanation)"
    case .cannotWrite(let path, let error):
      return "cannot write \(path): \(error.explanation)"
    case .full(let path, let full):
      return "\(path): \(full.message)"
    case .sharedWithStream(let path, let stream):
      return "\(path) is also \(stream): what shop prints would land among the orders"
    case .replaced(let path, let what, let last):
      return "\(path) \(what); order \(last) was the last one reported, and nothing more "
        + "was placed"
    case .noMemory(let path, let error):
      return "not enough memory for \(path): \(error.explanation) (a memory limit, ulimit -v?)"
    case .busy(let path, let seconds, let holder):
      let waited = seconds == 0 ? "SHOP_TIMEOUT=0: no wait" : "waited \(seconds) s, SHOP_TIMEOUT"
      let advice =
        holder?.stopped == true
        ? LockHolder.advice(holder).dropFirst(2) + ", then run this again"
        : "run this again once it is done, or wait longer with SHOP_TIMEOUT=SECONDS"
      return "\(path) is being written: \(LockHolder.described(holder)) holds its write lock "
        + "(\(waited)); nothing was read. \(advice.prefix(1).uppercased() + advice.dropFirst())"
    }
  }
}

/// Why a standard stream failed: reading standard input, writing standard output.
public enum StreamError: ShopError, Equatable, Sendable {
  case cannotRead(name: String, SystemError)
  case cannotWrite(name: String, SystemError)
  /// The reader of a listing went away (`shop orders | head -1`): the listing has done its
  /// job for that reader, so the command ends quietly and successfully.
  case readerWentAway

  public var status: ExitStatus {
    switch self {
    case .cannotRead: return .noInput
    case .cannotWrite: return .ioError
    case .readerWentAway: return .success
    }
  }

  public var message: String {
    switch self {
    case .cannotRead(let name, let error): return "cannot read '\(name)': \(error.explanation)"
    case .cannotWrite(let name, let error): return "cannot write '\(name)': \(error.explanation)"
    case .readerWentAway: return ""
    }
  }
}
