/// Writes text into memory sized beforehand, for the hot path of encoding orders: appending to
/// an `Array` checks capacity and uniqueness at every call, this checks one bound per byte.
///
/// It never writes past its buffer: a write that would is only counted, so ``fits`` turns
/// false and the caller retries with a larger buffer. A wrong size estimate costs a retry,
/// never memory safety.
struct ByteWriter {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  /// Bytes written, or that would have been written.
  private(set) var count = 0

  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  var fits: Bool { count <= buffer.count }

  /// What was written; only meaningful when ``fits``.
  var written: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: buffer[..<min(count, buffer.count)])
  }

  @inline(__always)
  mutating func put(_ byte: UInt8) {
    if count < buffer.count { buffer[count] = byte }
    count += 1
  }

  @inline(__always)
  mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
    if count + bytes.count <= buffer.count, let base = buffer.baseAddress,
      let from = bytes.baseAddress
    {
      (base + count).update(from: from, count: bytes.count)
    }
    count += bytes.count
  }

  mutating func put(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { put($0) }
  }

  /// A string's UTF-8 bytes as they are, with no array made for them.
  mutating func put(text: String) {
    var text = text
    text.withUTF8 { put($0) }
  }

  /// A decimal integer, `-` first when negative.
  mutating func put(_ value: Int) {
    if value >= 0, value < 10 {
      put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    if value < 0 { put(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits = 1
    var power: UInt = 10
    while digits < 20, magnitude >= power {
      digits += 1
      power = power &* 10
    }
    var position = count + digits
    count = position
    guard position <= buffer.count else { return }
    repeat {
      position -= 1
      buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
  }

  /// A JSON string: quotes, backslashes and control characters are escaped, so no text can
  /// end the string early or start a new line. Text with none of them (every SKU) is copied
  /// whole.
  mutating func putJSONString(_ text: String) {
    put(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) else {
        put(utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          put(UInt8(ascii: "\\"))
          put(byte)
        case 0..<0x20, 0x7F:
          let hex = Array("0123456789abcdef".utf8)
          put(Array(#"\u00"#.utf8))
          put(hex[Int(byte >> 4)])
          put(hex[Int(byte & 0xF)])
        default:
          put(byte)
        }
      }
    }
    put(UInt8(ascii: "\""))
  }

  /// Appends `value` in decimal.
  static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
    append(to: &bytes, capacity: 20) { $0.put(value) }
  }

  /// Appends `text` as a JSON string, quotes included.
  static func appendJSONString(_ text: String, to bytes: inout [UInt8]) {
    append(to: &bytes, capacity: jsonStringBound(text)) { $0.putJSONString(text) }
  }

  /// The most bytes ``putJSONString(_:)`` can write for `text`.
  static func jsonStringBound(_ text: String) -> Int {
    2 + 6 * text.utf8.count
  }

  /// Runs `body` with a writer over a buffer of `capacity` bytes, growing it until the text
  /// fits, and appends the text to `bytes`.
  static func append(
    to bytes: inout [UInt8], capacity: Int, _ body: (inout ByteWriter) -> Void
  ) {
    var capacity = capacity
    while true {
      let done = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
        var writer = ByteWriter(buffer)
        body(&writer)
        if writer.fits { bytes.append(contentsOf: writer.written) }
        return writer.fits ? 0 : writer.count
      }
      if done == 0 { return }
      capacity = done
    }
  }
}
