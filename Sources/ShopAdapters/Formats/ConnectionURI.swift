/// A `postgres://` or `postgresql://` connection URI, as text a person may read: the password
/// field (`user:PASSWORD@` and `password=PASSWORD` in the query) replaced by `***`. Only that
/// field is replaced, so a short password can't blank out its letters elsewhere in a message.
public struct ConnectionURI: Sendable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  /// Whether `bytes` (a flag's or a variable's value) names a PostgreSQL database.
  public static func isURI(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: "postgres://".utf8) || bytes.starts(with: "postgresql://".utf8)
  }

  /// The scheme as typed: `postgresql` or `postgres`.
  public var scheme: String {
    String(text.prefix { $0 != ":" })
  }

  /// The URI with its password replaced by `***`.
  public var description: String {
    var bytes = Array(text.utf8)
    guard let schemeEnd = bytes.firstIndex(of: UInt8(ascii: ":")) else { return text }
    let authorityStart = schemeEnd + 3
    guard authorityStart <= bytes.count else { return text }
    let authorityEnd =
      bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
      ?? bytes.count
    // The userinfo ends at the authority's last '@'; its password follows the first ':'.
    if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
      let colon = bytes[authorityStart..<at].firstIndex(of: UInt8(ascii: ":"))
    {
      bytes.replaceSubrange((colon + 1)..<at, with: "***".utf8)
    }
    if let query = bytes.firstIndex(of: UInt8(ascii: "?")) {
      var start = query + 1
      while start < bytes.count {
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
        let key = Array("password=".utf8)
        if bytes[start..<end].starts(with: key) {
          bytes.replaceSubrange((start + key.count)..<end, with: "***".utf8)
        }
        start = (bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count) + 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
