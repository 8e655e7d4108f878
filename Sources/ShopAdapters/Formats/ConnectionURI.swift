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
  /// letter case, its letters typed or percent-encoded. Only the field: a short password's
  /// letters elsewhere stay as they are.
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
    func lower(_ byte: UInt8) -> UInt8 {
      byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
    func starts(_ word: String, at index: Int) -> Bool {
      let word = Array(word.utf8)
      guard index + word.count <= bytes.count else { return false }
      for (offset, byte) in word.enumerated() where lower(bytes[index + offset]) != byte {
        return false
      }
      return true
    }
    func hex(_ byte: UInt8) -> UInt8? {
      switch lower(byte) {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return lower(byte) - UInt8(ascii: "a") + 10
      default: return nil
      }
    }
    // Where `password=` ends if it starts at `index`, its letters typed or percent-encoded
    // (`pass%77ord=`): libpq decodes a URI's query keys before it reads them.
    func passwordKey(at index: Int) -> Int? {
      var at = index
      for letter in "password".utf8 {
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "%"), at + 2 < bytes.count, let high = hex(bytes[at + 1]),
          let low = hex(bytes[at + 2]), lower(high << 4 | low) == letter
        {
          at += 3
        } else if lower(bytes[at]) == letter {
          at += 1
        } else {
          return nil
        }
      }
      return at < bytes.count && bytes[at] == UInt8(ascii: "=") ? at + 1 : nil
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
      } else if let valueStart = passwordKey(at: index) {
        output += bytes[index..<valueStart]
        index = valueStart
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
