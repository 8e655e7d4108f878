import ShopCore

/// What `shop orders` prints: a line a person reads, or each order's stored JSON as it is.
public final class OrderListing {
  public enum Style {
    case text, json
  }

  private let output: any ByteOutput
  private let style: Style
  private var line: [UInt8] = []
  private var encoder = OrderJSON.Encoder()

  public init(output: any ByteOutput, style: Style) {
    self.output = output
    self.style = style
  }

  /// Lists every order of `orders`, oldest first.
  public func list(_ orders: any OrderHistory) throws {
    // swift-format-ignore: ReplaceForEachWithForLoop
    // The store's own streaming visit, not Sequence.forEach.
    try orders.forEach { order, stored in
      switch style {
      case .json:
        if let stored {
          output.write(UnsafeRawBufferPointer(stored))
          output.write([UInt8(ascii: "\n")])
        } else {
          // A store that keeps no JSON line (PostgreSQL): write the line the file would hold.
          line.removeAll(keepingCapacity: true)
          encoder.append(order, to: &line)
          output.write(line)
        }
      case .text:
        output.write(text(of: order))
      }
    }
  }

  /// `1001  2026-11-30T06:06:43Z  pen=2 lamp=1  total 250  payable 225`: the items in
  /// `shop place`'s own syntax, so a line can be placed again by copying it.
  private func text(of order: Order) -> [UInt8] {
    line.removeAll(keepingCapacity: true)
    OrderJSON.appendInt(order.number, to: &line)
    line.append(contentsOf: "  ".utf8)
    UTCTime.append(order.placedAt, to: &line)
    for (index, item) in order.lines.enumerated() {
      line.append(contentsOf: (index == 0 ? "  " : " ").utf8)
      line.append(contentsOf: item.sku.utf8)
      line.append(UInt8(ascii: "="))
      OrderJSON.appendInt(item.quantity, to: &line)
    }
    line.append(contentsOf: "  total ".utf8)
    OrderJSON.appendInt(order.total, to: &line)
    line.append(contentsOf: "  payable ".utf8)
    OrderJSON.appendInt(order.payable, to: &line)
    line.append(UInt8(ascii: "\n"))
    return line
  }
}
