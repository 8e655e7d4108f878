import ShopConventions
import ShopCore

/// One order as a line a person reads, in `shop place`'s own item syntax, so the items can
/// be placed again by copying them (with its ref first as a batch line writes it):
///
///     1001  2026-11-30T06:06:43Z  pen=2 lamp=1  total 250  payable 225
///     1002  2026-11-30T06:06:43Z  @web-5512 pen=2  total 60  payable 60  voided by 1003
///     1003  2026-11-30T07:00:00Z  void of 1002
///
/// An order a void took back ends `  voided by N`; a void says which order it took back.
enum OrderText {
  /// Appends the line for `order`, newline included.
  static func append(_ order: Order, to bytes: inout [UInt8], times: inout UTCTime.LastText) {
    if let voided = order.voids {
      appendVoid(order, voided, to: &bytes, times: &times)
      return
    }
    var bound = 128 + UTCTime.length + Reference.maximumLength
    for item in order.lines { bound += 24 + item.sku.utf8.count }
    let time = times.text(of: order.placedAt)
    ByteWriter.append(to: &bytes, capacity: bound) { writer in
      writer.put(order.number)
      writer.put(Fragment.gap)
      writer.put(time)
      writer.put(Fragment.gap)
      if let reference = order.reference {
        writer.put(UInt8(ascii: "@"))
        writer.put(text: reference.text)
        writer.put(UInt8(ascii: " "))
      }
      for (index, item) in order.lines.enumerated() {
        if index > 0 { writer.put(UInt8(ascii: " ")) }
        writer.put(text: item.sku)
        writer.put(UInt8(ascii: "="))
        writer.put(item.quantity)
      }
      writer.put(Fragment.total)
      writer.put(order.total)
      writer.put(Fragment.payable)
      writer.put(order.payable)
      if let voidedBy = order.voidedBy {
        writer.put(Fragment.voidedBy)
        writer.put(voidedBy)
      }
      writer.put(UInt8(ascii: "\n"))
    }
  }

  /// `1003  2026-11-30T07:00:00Z  @undo-1 void of 1002`.
  private static func appendVoid(
    _ void: Order, _ voided: Int, to bytes: inout [UInt8], times: inout UTCTime.LastText
  ) {
    let time = times.text(of: void.placedAt)
    ByteWriter.append(to: &bytes, capacity: 128 + UTCTime.length + Reference.maximumLength) {
      writer in
      writer.put(void.number)
      writer.put(Fragment.gap)
      writer.put(time)
      writer.put(Fragment.gap)
      if let reference = void.reference {
        writer.put(UInt8(ascii: "@"))
        writer.put(text: reference.text)
        writer.put(UInt8(ascii: " "))
      }
      writer.put(Fragment.voidOf)
      writer.put(voided)
      writer.put(UInt8(ascii: "\n"))
    }
  }

  private enum Fragment {
    static let gap = Array("  ".utf8)
    static let total = Array("  total ".utf8)
    static let payable = Array("  payable ".utf8)
    static let voidedBy = Array("  voided by ".utf8)
    static let voidOf = Array("void of ".utf8)
  }
}
