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
  public var description: String { ConnectionURI.redacting(text) }

  /// `text` (a URI, a message quoting one, a conninfo string) with every password field cut
  /// out: the userinfo's `user:password@` after a `://`, and the value of a `password=` in any
  /// letter case. Only the field: a short password's letters elsewhere stay as they are.
  public static func redacting(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    let stars = Array("***".utf8)
    // Where a field's value ends: a separator of the URI, or of the text around it.
    func endsField(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\"")
        || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "#")
    }
    func starts(_ word: String, at index: Int) -> Bool {
      let word = Array(word.utf8)
      guard index + word.count <= bytes.count else { return false }
      for (offset, byte) in word.enumerated() {
        let here = bytes[index + offset]
        let lower = here >= UInt8(ascii: "A") && here <= UInt8(ascii: "Z") ? here + 32 : here
        guard lower == byte else { return false }
      }
      return true
    }
    var index = 0
    while index < bytes.count {
      if starts("://", at: index) {
        output += bytes[index..<index + 3]
        index += 3
        // The authority: up to the path, the query, or the end of the URI in the text.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
          !endsField(bytes[end])
        {
          end += 1
        }
        let authority = bytes[index..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")),
          let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":"))
        {
          output += bytes[index...colon] + stars + bytes[at..<end]
        } else {
          output += authority
        }
        index = end
      } else if starts("password=", at: index) {
        output += bytes[index..<index + 9]
        index += 9
        if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
          // A quoted conninfo value, `password='a b'`, up to its closing quote.
          var end = index + 1
          while end < bytes.count, bytes[end] != UInt8(ascii: "'") { end += 1 }
          output += stars
          index = min(end + 1, bytes.count)
        } else {
          var end = index
          while end < bytes.count, !endsField(bytes[end]) { end += 1 }
          if end > index { output += stars }
          index = end
        }
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
