/// The one reader of decimal integers from bytes. Each format that reads one says what it
/// accepts (a minus sign or not, leading zeros or not, the range) and shares the loop, so
/// overflow is checked the same way everywhere. A `+` is never accepted.
public struct DecimalInteger: Sendable {
  public enum Sign: Sendable {
    /// Digits only.
    case none
    /// An optional `-` before the digits.
    case minus
  }

  public enum LeadingZeros: Sendable {
    case allowed
    /// `0` and `-0` alone, but no `007` (JSON's rule).
    case refused
  }

  /// The digits read from a place in a longer text; see ``scan(_:from:)``.
  public struct Scan<Index> {
    /// Nil when the number is well formed but outside the range (or `Int`).
    public let value: Int?
    /// Just past the last digit.
    public let end: Index

    @inlinable
    init(value: Int?, end: Index) {
      self.value = value
      self.end = end
    }
  }

  public let sign: Sign
  public let leadingZeros: LeadingZeros
  public let range: ClosedRange<Int>

  @inlinable
  public init(sign: Sign, leadingZeros: LeadingZeros, range: ClosedRange<Int>) {
    self.sign = sign
    self.leadingZeros = leadingZeros
    self.range = range
  }

  @inlinable
  public static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  /// The `count` digits at `start`, fixed width, as a time's fields are (`2026`, `06`): no
  /// sign, any leading zeros; nil unless every one is a digit. `count` is at most 18, so the
  /// sum can't overflow.
  @inlinable @inline(__always)
  public static func digits(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, count: Int)
    -> Int?
  {
    guard count <= 18, start >= 0, start <= bytes.count - count else { return nil }
    var value = 0
    for index in start..<(start + count) {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int(digit)
    }
    return value
  }

  /// The number that is all of `bytes`, or nil when they are not one this reader accepts.
  @inlinable @inline(__always)
  public func value<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
    guard let scan = scan(bytes, from: bytes.startIndex), scan.end == bytes.endIndex else {
      return nil
    }
    return scan.value
  }

  /// Reads the sign and every digit from `start`, in range or not, so a caller reading a
  /// longer text knows where the number ends. Nil when there is no digit there, or when a
  /// leading zero is refused.
  @inlinable @inline(__always)
  public func scan<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, from start: Bytes.Index
  ) -> Scan<Bytes.Index>? {
    let offset = bytes.distance(from: bytes.startIndex, to: start)
    let read =
      bytes.withContiguousStorageIfAvailable { scan($0, from: offset) }
      ?? Array(bytes).withUnsafeBufferPointer { scan($0, from: offset) }
    guard let read else { return nil }
    return Scan(value: read.value, end: bytes.index(start, offsetBy: read.end - offset))
  }

  /// ``scan(_:from:)`` of contiguous bytes: the one loop, which the others call. Not generic,
  /// so a build without optimisation runs it as fast as its callers' own code.
  @inlinable @inline(__always)
  public func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Scan<Int>? {
    var index = start
    let negative = sign == .minus && index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index &+= 1 }
    let first = index
    // Up to 18 digits can't overflow an Int, so those are summed without checks; only a
    // longer number (rare: no price or order number has 19 digits) takes the checked way.
    var value = 0
    var count = 0
    while index < bytes.count, count < 18 {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int(digit)
      count &+= 1
      index &+= 1
    }
    guard count > 0 else { return nil }
    if negative { value = -value }
    var fits = true
    while index < bytes.count, DecimalInteger.isDigit(bytes[index]) {
      if fits {
        let digit = Int(bytes[index] &- UInt8(ascii: "0"))
        let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowB) =
          negative
          ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
        // Past the range's end on its own side, more digits only move further away.
        fits =
          !overflowA && !overflowB && (negative ? sum >= range.lowerBound : sum <= range.upperBound)
        value = sum
      }
      index &+= 1
    }
    if leadingZeros == .refused, bytes[first] == UInt8(ascii: "0"), first &+ 1 != index {
      return nil
    }
    return Scan(value: fits && range.contains(value) ? value : nil, end: index)
  }
}
