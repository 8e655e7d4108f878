/// A `postgres://` or `postgresql://` connection URI, as text a person may read: the password
/// field (`user:PASSWORD@` and `password=PASSWORD` in the query) replaced by `***`. Only that
/// field is replaced, so a short password can't blank out its letters elsewhere in a message.
public struct ConnectionURI: Sendable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  /// The URI as typed, with each byte that is not UTF-8 written `%XX`: libpq decodes every
  /// part of a URI, so it reads the same bytes, and the text shows them rather than a `�`.
  public init(bytes: [UInt8]) {
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count)
    let digits = Array("0123456789ABCDEF".utf8)
    var index = 0
    while index < bytes.count {
      let length = TerminalText.scalarLength(bytes[index...])
      if length > 0 {
        text += bytes[index..<index + length]
        index += length
      } else {
        let byte = bytes[index]
        text += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        index += 1
      }
    }
    self.text = String(decoding: text, as: UTF8.self)
  }

  /// Whether `bytes` (a flag's or a variable's value) names a PostgreSQL database.
  public static func isURI(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: "postgres://".utf8) || bytes.starts(with: "postgresql://".utf8)
  }

  /// Why `bytes`, which ``isURI(_:)`` does not take, reads as a URI all the same, or nil
  /// when it reads as a path: a scheme `postgres` or `postgresql` in any letter case before a
  /// `:` (`postgresql:/db`, `POSTGRESQL:///db`, `postgres:`), or any scheme followed by `://`
  /// (`postgressql://db`, `mysql://db`), after any leading spaces or tabs. A path that must
  /// start so is written with `./` before it.
  public static func lookAlike(_ bytes: [UInt8]) -> String? {
    guard !isURI(bytes) else { return nil }
    let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t")]
    let start = bytes.firstIndex { !blank.contains($0) } ?? bytes.count
    let rest = bytes[start...]
    func isLetter(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
    // A URI's scheme: a letter, then letters, digits, `+`, `-` or `.` (RFC 3986).
    guard let first = rest.first, isLetter(first),
      let colon = rest.firstIndex(where: {
        !(isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "."))
      }), bytes[colon] == UInt8(ascii: ":")
    else { return nil }
    let scheme = String(decoding: rest[..<colon].map { $0 | 0x20 }, as: UTF8.self)
    let slashes = bytes[(colon + 1)...].prefix { $0 == UInt8(ascii: "/") }.count
    let postgres = scheme == "postgres" || scheme == "postgresql"
    guard postgres || slashes >= 2 else { return nil }
    if start > 0 { return "it starts with a blank" }
    if !postgres { return "shop opens no \(scheme): URI" }
    if bytes[..<colon].contains(where: { $0 < UInt8(ascii: "a") }) {
      return "its scheme is not in lower case"
    }
    return slashes == 0 ? "its scheme is not followed by //" : "its scheme is followed by one /"
  }

  /// The scheme as typed: `postgresql` or `postgres`.
  public var scheme: String {
    String(text.prefix { $0 != ":" })
  }

  /// The URI with its password replaced by `***`.
  public var description: String { ConnectionURI.redacting(text, wholeURI: true) }

  /// `text` (a URI, a message quoting one, a conninfo string) with every password field cut
  /// out where libpq would read one: the userinfo's `user:password@` after a `://` (up to the
  /// first `@` before any `/`, so `?`, `#`, `:` and `@` may stand in a password), and the
  /// value of a `password=` in any letter case, its letters typed or percent-encoded (up to
  /// the next `&`). With `wholeURI` false, `text` may be a message that quotes a URI: a space,
  /// a tab or a quote also ends a field there. Only the field: a short password's letters
  /// elsewhere stay as they are.
  public static func redacting(_ text: String, wholeURI: Bool = false) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    let stars = Array("***".utf8)
    // Where a message's quoted URI ends; a whole URI ends only at its end.
    func endsText(_ byte: UInt8) -> Bool {
      !wholeURI
        && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
          || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"))
    }
    func lower(_ byte: UInt8) -> UInt8 {
      byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
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
    // The `@` that ends a userinfo starting at `index`, as libpq finds it: the first one
    // before any `/`.
    func userinfoEnd(from index: Int) -> Int? {
      var end = index
      while end < bytes.count, bytes[end] != UInt8(ascii: "/"), !endsText(bytes[end]) {
        if bytes[end] == UInt8(ascii: "@") { return end }
        end += 1
      }
      return nil
    }
    var index = 0
    var schemeSeen = false
    while index < bytes.count {
      // A whole URI has one `://`, its scheme's: one in a query value is the value's text.
      if !(wholeURI && schemeSeen), bytes[index...].starts(with: "://".utf8) {
        schemeSeen = true
        output += bytes[index..<index + 3]
        index += 3
        // `user:password@`: the password is what follows the first `:`. A userinfo without
        // one is a user name, but a `password=` typed into it is cut all the same, up to its
        // `@`.
        if let at = userinfoEnd(from: index) {
          if let colon = bytes[index..<at].firstIndex(of: UInt8(ascii: ":")) {
            output += bytes[index...colon] + stars
          } else {
            let user = String(decoding: bytes[index..<at], as: UTF8.self)
            output += redacting(user, wholeURI: true).utf8
          }
          index = at
        }
      } else if let valueStart = passwordKey(at: index) {
        output += bytes[index..<valueStart]
        index = valueStart
        if !wholeURI, index < bytes.count, bytes[index] == UInt8(ascii: "'") {
          // A quoted conninfo value, `password='a b'`, up to its closing quote; in a URI a
          // quote is a letter of the value, which runs to the next `&`.
          var end = index + 1
          while end < bytes.count, bytes[end] != UInt8(ascii: "'") { end += 1 }
          output += stars
          index = min(end + 1, bytes.count)
        } else {
          var end = index
          while end < bytes.count, bytes[end] != UInt8(ascii: "&"), !endsText(bytes[end]) {
            end += 1
          }
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
