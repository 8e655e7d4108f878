/// Text from outside (arguments, input lines, file fields, paths) made safe to show in a message.
public enum TerminalText {
  /// The text between single quotes as it was typed when it is valid UTF-8, with only what
  /// could hide or fake text escaped as `\xNN` per byte: invalid UTF-8 and control characters
  /// (C0, DEL, C1, and the invisible ones that reorder or break a line). An error message
  /// stays one honest line, and `café` reads as `café`.
  public static func quoted(_ bytes: some Sequence<UInt8>) -> String {
    "'" + escaped(bytes) + "'"
  }

  /// Text that did not come through ``quoted(_:)`` (a library's or a server's message, a URI
  /// as typed) made one line per line of it: each line escaped as ``quoted(_:)`` escapes, and
  /// the lines kept apart by their newlines. Text already made safe comes out as it went in.
  public static func lines(_ text: String) -> String {
    text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { escaped($0) }.joined(separator: "\n")
  }

  /// `bytes` as ``quoted(_:)`` shows them, without the quotes.
  public static func escaped(_ bytes: some Sequence<UInt8>) -> String {
    var text = ""
    var rest = Array(bytes)[...]
    while let first = rest.first {
      let length = scalarLength(rest)
      let scalarBytes = rest.prefix(length)
      rest = rest.dropFirst(length)
      if length > 0, let scalar = decodedScalar(scalarBytes), !needsEscape(scalar) {
        text.unicodeScalars.append(scalar)
        continue
      }
      for byte in length > 0 ? Array(scalarBytes) : [first] {
        let hex = String(byte, radix: 16, uppercase: true)
        text += byte < 0x10 ? "\\x0\(hex)" : "\\x\(hex)"
      }
      if length == 0 { rest = rest.dropFirst() }
    }
    return text
  }

  /// The length of the well-formed UTF-8 sequence at the front of `bytes`, or 0 when the
  /// first byte does not start one.
  public static func scalarLength(_ bytes: ArraySlice<UInt8>) -> Int {
    guard let lead = bytes.first else { return 0 }
    let length: Int
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return 0
    }
    guard bytes.count >= length else { return 0 }
    return decodedScalar(bytes.prefix(length)) == nil ? 0 : length
  }

  private static func decodedScalar(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
    guard let text = String(validating: bytes, as: UTF8.self), text.unicodeScalars.count == 1
    else { return nil }
    return text.unicodeScalars.first
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F: return true
    case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
    default: return false
    }
  }
}
