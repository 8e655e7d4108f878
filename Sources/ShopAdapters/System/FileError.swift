import Glibc

/// Why a file could not be used; each case names the file so the message can say where.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An input file that can't be read (missing, a folder, no permission, I/O error).
  case unreadable(path: String, errno: Int32)
  /// A complete line that is not what the file's format says it must be.
  case badData(path: String, line: Int, reason: String)
  /// A file or folder that can't be created, or a file that can't be opened for writing.
  case cannotCreate(path: String, errno: Int32)
  /// A folder on the way to an output file that can't be created (or is not a folder).
  case cannotCreateFolder(path: String, errno: Int32)
  /// A write or sync that failed (full disk, I/O error, closed pipe).
  case cannotWrite(path: String, errno: Int32)

  public var description: String {
    switch self {
    case .unreadable(let path, let code):
      return "cannot read '\(path)': \(FileError.explain(code))"
    case .badData(let path, let line, let reason):
      return "\(path):\(line): \(reason)"
    case .cannotCreate(let path, let code):
      return "cannot create or open '\(path)' for writing: \(FileError.explain(code))"
    case .cannotCreateFolder(let path, let code):
      return "cannot create folder '\(path)': \(FileError.explain(code))"
    case .cannotWrite(let path, let code):
      return "cannot write '\(path)': \(FileError.explain(code))"
    }
  }

  static func explain(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
