import ShopCore

/// A path as the operating system sees it: bytes, exactly as given on the command line or in
/// a variable. A `String` would repair invalid UTF-8 into U+FFFD and so name another file.
public struct FilePath: Hashable, Sendable, CustomStringConvertible {
  public let bytes: [UInt8]

  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  public init(_ text: String) {
    self.bytes = Array(text.utf8)
  }

  /// Quoted for a message, as typed where it is printable UTF-8, escaped where it is not.
  public var description: String { TerminalText.quoted(bytes) }

  /// `self/name`.
  public func appending(_ name: String) -> FilePath {
    var bytes = self.bytes
    if bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
    bytes.append(contentsOf: name.utf8)
    return FilePath(bytes)
  }

  /// The folder that holds the entry: `.` for a bare name, `/` for an entry of the root.
  public var parent: FilePath {
    var bytes = self.bytes
    while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return FilePath(".") }
    if slash == 0 { return FilePath("/") }
    var end = slash
    while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    return FilePath(Array(bytes[..<end]))
  }

  public func hasPrefix(_ text: String) -> Bool {
    bytes.starts(with: text.utf8)
  }
}
