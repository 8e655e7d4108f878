import ShopCore

/// One order as a line a person reads, in `shop place`'s own item syntax, so the items can
/// be placed again by copying them:
///
///     1001  2026-11-30T06:06:43Z  pen=2 lamp=1  total 250  payable 225
enum OrderText {
  /// Appends the line for `order`, newline included.
  static func append(_ order: Order, to bytes: inout [UInt8]) {
    var bound = 128 + UTCTime.length
    for item in order.lines { bound += 24 + item.sku.utf8.count }
    var time: [UInt8] = []
    UTCTime.append(order.placedAt, to: &time)
    ByteWriter.append(to: &bytes, capacity: bound) { writer in
      writer.put(order.number)
      writer.put(Fragment.gap)
      writer.put(time)
      for (index, item) in order.lines.enumerated() {
        if index == 0 { writer.put(Fragment.gap) } else { writer.put(UInt8(ascii: " ")) }
        writer.put(Array(item.sku.utf8))
        writer.put(UInt8(ascii: "="))
        writer.put(item.quantity)
      }
      writer.put(Fragment.total)
      writer.put(order.total)
      writer.put(Fragment.payable)
      writer.put(order.payable)
      writer.put(UInt8(ascii: "\n"))
    }
  }

  private enum Fragment {
    static let gap = Array("  ".utf8)
    static let total = Array("  total ".utf8)
    static let payable = Array("  payable ".utf8)
  }
}
