import ShopCore

/// A time as `--since` and `--until` take it: what tools write, every RFC 3339 form, and a
/// date or a day by name.
///
/// - A date, `2026-12-01`: its midnight, UTC.
/// - An RFC 3339 time, `2026-12-01T09:30:00Z`: `T` or `t` or a space between date and time,
///   `Z` or `z` for UTC or an offset (`+05:30`, `-08:00`, `+00:00`, `-00:00`), converted to
///   UTC; fractional seconds of any length (`.123`); a leap second (`:60`) as the next second.
///   So `date -u -Iseconds`, `date -Iseconds` and JavaScript's `toISOString()` all work.
/// - To the minute, `2026-12-01T09:30Z` (or with an offset), as ISO 8601 allows.
/// - `today` and `yesterday`: the midnight (UTC) that starts that UTC day.
///
/// Orders are stamped in whole seconds, so a time with a fraction is the next whole second,
/// for either bound: an order of 09:30:00 is before `09:30:00.5`, and one of 09:30:01 is not.
/// A time without `Z` or an offset is refused: RFC 3339 has none, and ISO 8601 reads it as
/// local time, which `shop` never guesses.
public enum TimeArgument {
  /// What the forms look like, for messages.
  public static let forms =
    "a date (2026-12-01), an RFC 3339 time (2026-12-01T09:30:00Z, 2026-12-01T15:00:00+05:30, "
    + "2026-12-01 09:30:00.250z), a time to the minute (2026-12-01T09:30Z), today or "
    + "yesterday (UTC days)"

  /// The instant `bytes` names, or nil when it is none of the forms. `now` is what `today` and
  /// `yesterday` count from; without it they are refused.
  public static func timestamp(_ bytes: [UInt8], now: Timestamp? = nil) -> Timestamp? {
    instant(bytes, now: now)?.timestamp
  }

  /// The instant `bytes` names to its last digit, for comparing two times as they were
  /// written: `09:30:00.2` is before `09:30:01` though both stand for 09:30:01. Nil when
  /// `bytes` is none of the forms.
  public static func instant(_ bytes: [UInt8], now: Timestamp? = nil) -> Instant? {
    if let now, let back = [Array("today".utf8), Array("yesterday".utf8)].firstIndex(of: bytes) {
      let day = Summary.day(of: now).secondsSince1970 - Int64(back) * 86400
      return Instant(seconds: day, fraction: [])
    }
    return bytes.withUnsafeBufferPointer { rfc3339($0) }
  }

  /// A time to any fraction of a second: the whole seconds since 1970 and the fraction's
  /// digits without trailing zeros (so `.20` and `.2` are one instant). Ordered as the
  /// instants are: digits compare as decimals after the point do.
  public struct Instant: Comparable, Sendable {
    public let seconds: Int64
    public let fraction: [UInt8]

    public init(seconds: Int64, fraction: [UInt8]) {
      self.seconds = seconds
      self.fraction = fraction
    }

    /// The second an order of this instant is stamped with: a fraction counts as the next.
    public var timestamp: Timestamp {
      Timestamp(secondsSince1970: seconds + (fraction.isEmpty ? 0 : 1))
    }

    public static func < (a: Instant, b: Instant) -> Bool {
      a.seconds != b.seconds
        ? a.seconds < b.seconds : a.fraction.lexicographicallyPrecedes(b.fraction)
    }
  }

  /// The forms with a date, by position: date, separator, time, fraction, zone.
  private static func rfc3339(_ bytes: UnsafeBufferPointer<UInt8>) -> Instant? {
    func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
    func number(_ from: Int, _ count: Int) -> Int64? {
      DecimalInteger.digits(bytes, at: from, count: count).map(Int64.init)
    }
    guard bytes.count >= 10, byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-"),
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2)
    else { return nil }
    var hour: Int64 = 0
    var minute: Int64 = 0
    var second: Int64 = 0
    var fraction: [UInt8] = []
    var offset: Int64 = 0
    if bytes.count > 10 {
      guard let separator = byte(10),
        separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
          || separator == UInt8(ascii: " "),
        byte(13) == UInt8(ascii: ":"), let h = number(11, 2), let m = number(14, 2)
      else { return nil }
      hour = h
      minute = m
      var index = 16
      if byte(index) == UInt8(ascii: ":") {
        guard let s = number(17, 2), s <= 60 else { return nil }
        second = s
        index = 19
        if byte(index) == UInt8(ascii: ".") {
          index += 1
          let start = index
          while let digit = byte(index), DecimalInteger.isDigit(digit) { index += 1 }
          guard index > start else { return nil }
          fraction = Array(bytes[start..<index])
          while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        }
      }
      switch byte(index) {
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        index += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        guard byte(index + 3) == UInt8(ascii: ":"), let h = number(index + 1, 2),
          let m = number(index + 4, 2), h < 24, m < 60
        else { return nil }
        // Local time is UTC plus the offset, so UTC is local time minus it.
        offset = (h * 3600 + m * 60) * (byte(index) == UInt8(ascii: "+") ? 1 : -1)
        index += 6
      default:
        return nil
      }
      guard index == bytes.count else { return nil }
    }
    // The calendar's checks (month, day of month, hour, minute) are UTCTime's; a leap second
    // is read as :59 and one more.
    var text: [UInt8] = []
    UTCTime.appendFields(
      year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59),
      to: &text)
    guard let time = text.withUnsafeBufferPointer({ UTCTime.parse($0) }) else { return nil }
    let leap: Int64 = second == 60 ? 1 : 0
    return Instant(seconds: time.secondsSince1970 - offset + leap, fraction: fraction)
  }

  /// The text of `time` as ``OrderJSON`` writes `placedAt`.
  public static func text(_ time: Timestamp) -> String {
    var bytes: [UInt8] = []
    UTCTime.append(time, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
