import ShopCore

/// A time as `--since` and `--until` take it: ISO 8601 in UTC, a date (`2026-12-01`, its
/// midnight), a time to the minute (`2026-12-01T09:30Z`) or to the second
/// (`2026-12-01T09:30:00Z`). A time without its `Z` is refused: ISO 8601 reads it as local
/// time, which `shop` never guesses.
public enum TimeArgument {
  /// What the forms look like, for messages.
  public static let forms = "a date such as 2026-12-01 or a UTC time such as 2026-12-01T09:30Z"

  public static func timestamp(_ bytes: [UInt8]) -> Timestamp? {
    var full: [UInt8]
    switch bytes.count {
    case 10: full = bytes + Array("T00:00:00Z".utf8)
    case 17 where bytes.last == UInt8(ascii: "Z"):
      full = bytes.dropLast() + Array(":00Z".utf8)
    case UTCTime.length: full = bytes
    default: return nil
    }
    return full.withUnsafeBufferPointer { UTCTime.parse($0) }
  }

  /// The text of `time` as ``OrderJSON`` writes `placedAt`.
  public static func text(_ time: Timestamp) -> String {
    var bytes: [UInt8] = []
    UTCTime.append(time, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
