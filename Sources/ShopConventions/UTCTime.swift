import ShopCore

/// ISO 8601 in UTC to the second (`2026-11-30T06:06:43Z`), written and read by hand: the
/// formatter runs once per order in a batch, and Foundation's would load ICU at start-up.
public enum UTCTime {
  /// The text of the last time written: the orders of a batch group share one, and writing a
  /// time is a third of an order line's cost. The encoder and the text listing each keep one.
  public struct LastText {
    private var time = Timestamp(secondsSince1970: .min)
    private var bytes: [UInt8] = []

    public init() {}

    public mutating func text(of time: Timestamp) -> [UInt8] {
      if time != self.time {
        self.time = time
        bytes.removeAll(keepingCapacity: true)
        UTCTime.append(time, to: &bytes)
      }
      return bytes
    }
  }

  public static let length = 20
  /// What ``couldStart(_:)`` checks each byte against: `d` a digit, else that separator.
  private static let form = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
  /// The instants the form can write: 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
  public static let seconds: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// The text of `time`; years outside 0000...9999 are clamped, which no real clock reaches.
  public static func append(_ time: Timestamp, to bytes: inout [UInt8]) {
    let seconds = min(
      max(time.secondsSince1970, UTCTime.seconds.lowerBound), UTCTime.seconds.upperBound)
    let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
    let secondOfDay = seconds - days * 86400
    let (year, month, day) = civil(fromDays: days)
    appendDigits(year, 4, &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(month, 2, &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(day, 2, &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(secondOfDay / 3600, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(secondOfDay / 60 % 60, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(secondOfDay % 60, 2, &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// The text ``parse(_:)`` reads for these fields, each written with its digits: values a
  /// field can't hold come out as text ``parse(_:)`` refuses.
  public static func appendFields(
    year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64,
    to bytes: inout [UInt8]
  ) {
    appendDigits(year, 4, &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(month, 2, &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(day, 2, &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(hour, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(minute, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(second, 2, &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// Reads exactly the form ``append(_:to:)`` writes, and nothing else: `2026-02-30` and
  /// friends are refused, so writing a parsed time back gives the same text.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    guard bytes.count == length, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ from: Int, _ count: Int) -> Int64? {
      DecimalInteger.digits(bytes, at: from, count: count).map(Int64.init)
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= daysIn(month, of: year), hour < 24,
      minute < 60, second < 60
    else { return nil }
    let days = self.days(fromCivil: year, month, day)
    return Timestamp(secondsSince1970: days * 86400 + hour * 3600 + minute * 60 + second)
  }

  /// Whether `prefix` (at most ``length`` bytes) starts some text ``parse(_:)`` reads: each
  /// separator in its place, and each field, whole or begun, still a possible one. The torn
  /// line rule asks it a byte at a time, so `2026-13` or `2026-04-31` is told at its byte.
  public static func couldStart(_ prefix: [UInt8]) -> Bool {
    guard prefix.count <= length else { return false }
    for index in prefix.indices {
      let byte = prefix[index]
      let separator = form[index]
      guard separator == UInt8(ascii: "d") ? DecimalInteger.isDigit(byte) : byte == separator
      else { return false }
    }
    func digit(_ index: Int) -> Int64 { Int64(prefix[index] - UInt8(ascii: "0")) }
    func field(_ from: Int) -> Int64 { digit(from) * 10 + digit(from + 1) }
    let count = prefix.count
    if count > 5, digit(5) > 1 { return false }
    if count > 6, !(1...12).contains(field(5)) { return false }
    if count > 8 {
      // Whole days from its tens digit on: 0 gives 1–9, 3 gives 30 and 31 if the month has.
      let most = daysIn(field(5), of: digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3))
      guard digit(8) * 10 <= most else { return false }
      if count > 9, !(1...most).contains(field(8)) { return false }
    }
    if count > 11, digit(11) > 2 { return false }
    if count > 12, field(11) > 23 { return false }
    if count > 14, digit(14) > 5 { return false }
    if count > 17, digit(17) > 5 { return false }
    return true
  }

  public static func parse(_ text: String) -> Timestamp? {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  private static func daysIn(_ month: Int64, of year: Int64) -> Int64 {
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Howard Hinnant's days-from-civil algorithms, exact over the proleptic Gregorian calendar.
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func appendDigits(_ value: Int64, _ width: Int, _ bytes: inout [UInt8]) {
    var divisor: Int64 = 1
    for _ in 1..<width { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
      rest %= divisor
      divisor /= 10
    }
  }
}
