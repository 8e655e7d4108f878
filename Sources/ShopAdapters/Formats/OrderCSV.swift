import ShopConventions
import ShopCore

/// Orders as CSV by RFC 4180, which a spreadsheet opens as it is: a header, then one record
/// per order or void, every line ended by CRLF as the RFC says (spreadsheets and most CSV
/// readers accept LF too, but CRLF is the one form all of them read).
///
///     number,placedAt,items,total,payable,ref,voids,voidedBy
///     1001,2026-11-30T06:06:43Z,pen=2 lamp=1,250,225,,,
///     1002,2026-11-30T06:06:43Z,pen=2,60,60,web-5512,,1003
///     1003,2026-11-30T07:00:00Z,,,,,1002,
///
/// The columns added later (`ref`, `voids`, `voidedBy`) come last, so a sheet that reads the
/// first five by position still reads them. An order's `voidedBy` is the void that took it
/// back; a void has no items or amounts, and `voids` names the order it took back.
/// A field is quoted when it holds a comma, a double quote, CR or LF, its quotes doubled.
/// The items are `shop place`'s own syntax, so they can be placed again by copying them.
enum OrderCSV {
  static let header = Array("number,placedAt,items,total,payable,ref,voids,voidedBy\r\n".utf8)

  static func append(_ order: Order, to bytes: inout [UInt8]) {
    ByteWriter.appendDecimal(order.number, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    UTCTime.append(order.placedAt, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    if let voided = order.voids {
      bytes.append(contentsOf: ",,,".utf8)
      bytes.append(contentsOf: (order.reference?.text ?? "").utf8)
      bytes.append(UInt8(ascii: ","))
      ByteWriter.appendDecimal(voided, to: &bytes)
      bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\r"), UInt8(ascii: "\n")])
      return
    }
    var items: [UInt8] = []
    for (index, line) in order.lines.enumerated() {
      if index > 0 { items.append(UInt8(ascii: " ")) }
      items.append(contentsOf: line.sku.utf8)
      items.append(UInt8(ascii: "="))
      ByteWriter.appendDecimal(line.quantity, to: &items)
    }
    appendField(items, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    ByteWriter.appendDecimal(order.total, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    ByteWriter.appendDecimal(order.payable, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    // A ref needs no quoting: its bytes are letters, digits and `-_.:/`.
    bytes.append(contentsOf: (order.reference?.text ?? "").utf8)
    bytes.append(contentsOf: ",,".utf8)
    if let voidedBy = order.voidedBy { ByteWriter.appendDecimal(voidedBy, to: &bytes) }
    bytes.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
  }

  /// One field, quoted only when RFC 4180 requires it.
  static func appendField(_ field: [UInt8], to bytes: inout [UInt8]) {
    let quote = UInt8(ascii: "\"")
    let special: [UInt8] = [UInt8(ascii: ","), quote, UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    guard field.contains(where: special.contains) else {
      bytes.append(contentsOf: field)
      return
    }
    bytes.append(quote)
    for byte in field {
      if byte == quote { bytes.append(quote) }
      bytes.append(byte)
    }
    bytes.append(quote)
  }
}
