import ShopConventions
import ShopCore

/// One order as one line of JSON, the format of the orders file and of `--json` reports, laid
/// out as ``OrderLayout`` says. This file writes it; `OrderJSON+Decoding.swift` reads any JSON
/// of an order, `OrderJSON+FastDecoding.swift` reads the encoder's own layout quickly, and
/// `OrderJSON+TornLine.swift` tells a torn last line from a foreign one.
///
/// Written by hand, into memory sized beforehand (``ByteWriter``): a batch writes millions of these, and `JSONEncoder` per
/// order would cost more than everything else together.
enum OrderJSON {
  /// Writes orders; keeps the text of the last timestamp, which a whole batch group shares.
  struct Encoder {
    private var times = UTCTime.LastText()

    init() {}

    /// `alreadyPlaced` adds `"alreadyPlaced":true` last, for a report; never in the file.
    /// An order a void took back, as a reader marks it, gets `"voidedBy":N` last: a listing's
    /// mark, never in the file, where the void is the only record of it.
    mutating func append(
      _ order: Order, line: Int? = nil, alreadyPlaced: Bool = false, to bytes: inout [UInt8]
    ) {
      let time = times.text(of: order.placedAt)
      // Fixed text and six integers of at most 20 digits, then each item's share.
      var bound = 256 + (order.reference.map { ByteWriter.jsonStringBound($0.text) } ?? 0)
      for item in order.lines { bound += 96 + ByteWriter.jsonStringBound(item.sku) }
      ByteWriter.append(to: &bytes, capacity: bound) { writer in
        var first = writer.putObjectStart(line: line)
        // The table says which members and in what order; each is its key, then its value.
        for field in order.isVoid ? OrderLayout.void : OrderLayout.order {
          if field.isOptional, order.reference == nil { continue }
          writer.putKey(field, first: &first)
          switch field {
          case .number: writer.put(order.number)
          case .reference:
            if let reference = order.reference { writer.putJSONString(reference.text) }
          case .items: writer.putItems(order.lines)
          case .total: writer.put(order.total)
          case .payable: writer.put(order.payable)
          case .placedAt:
            writer.put(OrderLayout.quote)
            writer.put(time)
            writer.put(OrderLayout.quote)
          case .voids: writer.put(order.voids ?? 0)
          // An item's members, written by putItems, never an order's.
          case .sku, .quantity, .price: break
          }
        }
        if let voidedBy = order.voidedBy {
          writer.put(#","voidedBy":"#)
          writer.put(voidedBy)
        }
        if alreadyPlaced { writer.put(#","alreadyPlaced":true"#) }
        writer.put(OrderLayout.objectEnd)
        writer.put(OrderLayout.lineEnd)
      }
    }
  }

  /// `{`, and `"line":N,` when the object reports a batch line.
  static func appendObjectStart(line: Int?, to bytes: inout [UInt8]) {
    ByteWriter.append(to: &bytes, capacity: 32) { writer in
      if !writer.putObjectStart(line: line) { writer.put(OrderLayout.separator) }
    }
  }

  /// `[{"sku":"pen","quantity":2,"price":30},…]`: the items as an order line writes them, for
  /// a store that keeps them apart from the rest of the order.
  static func appendItems(_ lines: [OrderLine], to bytes: inout [UInt8]) {
    var bound = 2
    for item in lines { bound += 96 + ByteWriter.jsonStringBound(item.sku) }
    ByteWriter.append(to: &bytes, capacity: bound) { $0.putItems(lines) }
  }
}

extension ByteWriter {
  @inline(__always)
  mutating func put(_ text: StaticString) {
    put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// A member's key, after a comma unless it is the object's first.
  @inline(__always)
  mutating func putKey(_ field: OrderLayout.Field, first: inout Bool) {
    if !first { put(OrderLayout.separator) }
    first = false
    put(field.key)
  }

  /// The list of items in ``OrderLayout/item``'s layout.
  fileprivate mutating func putItems(_ lines: [OrderLine]) {
    put(OrderLayout.listStart)
    for index in lines.indices {
      let item = lines[index]
      if index > 0 { put(OrderLayout.separator) }
      put(OrderLayout.objectStart)
      var first = true
      for field in OrderLayout.item {
        switch field {
        case .sku:
          putKey(field, first: &first)
          putJSONString(item.sku)
        case .quantity:
          putKey(field, first: &first)
          put(item.quantity)
        case .price:
          putKey(field, first: &first)
          put(item.price)
        case .number, .reference, .items, .total, .payable, .placedAt, .voids:
          continue
        }
      }
      put(OrderLayout.objectEnd)
    }
    put(OrderLayout.listEnd)
  }

  /// `{`, and `"line":N` when the object reports a batch line. Whether the next member is
  /// the object's first.
  fileprivate mutating func putObjectStart(line: Int?) -> Bool {
    put(OrderLayout.objectStart)
    guard let line else { return true }
    put(#""line":"#)
    put(line)
    return false
  }
}
