/// A statement's parameter, in libpq's text format or PostgreSQL's binary one.
struct PostgresParameter {
  /// The value's bytes (text ends with a NUL), or nil for NULL.
  let bytes: [UInt8]?
  let binary: Bool

  /// SQL NULL.
  init() {
    bytes = nil
    binary = false
  }

  init(_ value: Int) {
    self.init(text: Array(String(value).utf8))
  }

  /// Text built by the caller; a NUL inside it ends it, so the caller passes none.
  init(text: [UInt8]) {
    var copy = text
    copy.append(0)
    bytes = copy
    binary = false
  }

  /// A value in the type's binary send format, such as ``PostgresArray``'s.
  init(binary value: [UInt8]) {
    bytes = value
    binary = true
  }
}

/// A one-dimensional array in PostgreSQL's binary format (array_recv): the server copies
/// each element as it is, with none of the quoting and escaping the text format needs.
struct PostgresArray {
  private(set) var bytes: [UInt8] = []
  /// Where the element count sits: after dimensions, flags and element type.
  private static let countOffset = 12
  private(set) var count: Int32 = 0

  static let int8 = UInt32(20)
  static let jsonb = UInt32(3802)

  init(elementType: UInt32, capacity: Int) {
    bytes.reserveCapacity(20 + capacity)
    append32(1)  // dimensions
    append32(0)  // no NULLs
    append32(elementType)
    append32(0)  // elements: set as they come
    append32(1)  // lower bound
  }

  mutating func append(_ value: Int) {
    appendElementLength(8)
    bytes.appendBigEndian(UInt64(bitPattern: Int64(value)))
  }

  /// A jsonb element: format version 1, then the JSON text.
  mutating func appendJSONB(_ json: [UInt8]) {
    appendElementLength(1 + json.count)
    bytes.append(1)
    bytes.append(contentsOf: json)
  }

  var parameter: PostgresParameter { PostgresParameter(binary: bytes) }

  private mutating func appendElementLength(_ length: Int) {
    bytes.appendBigEndian(UInt32(truncatingIfNeeded: length))
    count &+= 1
    let total = UInt32(bitPattern: count)
    for (index, shift) in [24, 16, 8, 0].enumerated() {
      bytes[PostgresArray.countOffset + index] = UInt8(truncatingIfNeeded: total >> UInt32(shift))
    }
  }

  private mutating func append32(_ value: UInt32) {
    bytes.appendBigEndian(value)
  }
}

/// Rows for `COPY … FROM STDIN (FORMAT binary)`: each field is its length and its type's
/// binary send format, so the server parses no text and the data never meets SQL.
struct PostgresCopyRows {
  private var bytes: [UInt8] = []
  /// Midnight UTC on 1 January 2000, where PostgreSQL's timestamps count from.
  private static let epoch2000 = Int64(946_684_800)

  init(capacity: Int) {
    bytes.reserveCapacity(21 + capacity)
    bytes.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
    bytes.appendBigEndian(UInt32(0))  // flags
    bytes.appendBigEndian(UInt32(0))  // header extension length
  }

  mutating func startRow(fields: Int) {
    bytes.appendBigEndian(UInt16(truncatingIfNeeded: fields))
  }

  mutating func append(_ value: Int) {
    bytes.appendBigEndian(UInt32(8))
    bytes.appendBigEndian(UInt64(bitPattern: Int64(value)))
  }

  /// A timestamptz: microseconds since 2000; false when that does not fit.
  mutating func appendTimestamp(secondsSince1970 seconds: Int64) -> Bool {
    let (since2000, overflowA) = seconds.subtractingReportingOverflow(Self.epoch2000)
    let (micros, overflowB) = since2000.multipliedReportingOverflow(by: 1_000_000)
    guard !overflowA, !overflowB else { return false }
    bytes.appendBigEndian(UInt32(8))
    bytes.appendBigEndian(UInt64(bitPattern: micros))
    return true
  }

  /// A jsonb field: format version 1, then the JSON text.
  mutating func appendJSONB(_ json: [UInt8]) {
    bytes.appendBigEndian(UInt32(truncatingIfNeeded: 1 + json.count))
    bytes.append(1)
    bytes.append(contentsOf: json)
  }

  /// An int8 field, or SQL NULL for nil.
  mutating func append(_ value: Int?) {
    guard let value else {
      bytes.appendBigEndian(UInt32.max)  // -1: NULL
      return
    }
    append(value)
  }

  /// A text field (the bytes as they are), or SQL NULL for nil.
  mutating func appendText(_ text: String?) {
    guard let text else {
      bytes.appendBigEndian(UInt32.max)  // -1: NULL
      return
    }
    bytes.appendBigEndian(UInt32(truncatingIfNeeded: text.utf8.count))
    bytes.append(contentsOf: text.utf8)
  }

  /// The rows appended since the last take (the first starts with the header), with the
  /// trailer that ends them when `final`; the rows are then empty.
  mutating func taken(final: Bool) -> [UInt8] {
    if final { bytes.appendBigEndian(UInt16(0xFFFF)) }
    let taken = bytes
    bytes.removeAll(keepingCapacity: true)
    return taken
  }

  /// The rows with the trailer that ends them.
  consuming func finished() -> [UInt8] {
    bytes.appendBigEndian(UInt16(0xFFFF))
    return bytes
  }
}

extension [UInt8] {
  fileprivate mutating func appendBigEndian<Value: FixedWidthInteger & UnsignedInteger>(
    _ value: Value
  ) {
    // One append of the value's bytes, not one per byte: a batch's rows hold millions.
    Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
  }
}
