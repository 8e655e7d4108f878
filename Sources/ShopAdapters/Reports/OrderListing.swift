import ShopCore

/// What `shop orders` prints, from any store's ``OrderHistory``: a line a person reads
/// (``OrderText``), or each order's JSON. The JSON of an order is the store's own record when
/// it keeps one, copied byte for byte (it was checked when it was read), else it is encoded.
///
/// It writes through a bounded buffer, delivered whenever it fills: the first lines go out at
/// once, memory does not grow with the number of orders, and a reader that goes away stops
/// the listing at the next delivery.
public final class OrderListing {
  public enum Style: Sendable {
    case text, json
  }

  private let output: any ByteOutput
  private let style: Style
  private var buffer: [UInt8] = []
  private var encoder = OrderJSON.Encoder()
  private static let deliveryBytes = 1 << 16

  public init(output: any ByteOutput, style: Style) {
    self.output = output
    self.style = style
    buffer.reserveCapacity(OrderListing.deliveryBytes + 4096)
  }

  /// Every order, oldest first.
  public func all(of history: any OrderHistory) throws {
    try delivering { try history.readAll(add) }
  }

  /// The last `count` orders, oldest first.
  public func last(_ count: Int, of history: any OrderHistory) throws {
    try delivering { try history.last(count, add) }
  }

  /// The orders numbered `numbers`, in the order given; a number with no order prints
  /// `no order N` (`{"missing":N}` in JSON) and the others still print.
  /// - Returns: how many numbers had no order.
  public func orders(numbered numbers: [Int], of history: any OrderHistory) throws -> Int {
    var missing = 0
    try delivering {
      for number in numbers where try !history.order(numbered: number, add) {
        missing += 1
        switch style {
        case .text: buffer.append(contentsOf: "no order \(number)\n".utf8)
        case .json: buffer.append(contentsOf: "{\"missing\":\(number)}\n".utf8)
        }
      }
    }
    return missing
  }

  /// The order that holds `reference`, or `no order with ref REF` (`{"missingRef":"REF"}`).
  /// - Returns: whether there is one.
  public func order(referenced reference: Reference, of history: any OrderHistory) throws
    -> Bool
  {
    var found = false
    try delivering {
      found = try history.order(referenced: reference, add)
      guard !found else { return }
      switch style {
      case .text: buffer.append(contentsOf: "no order with ref \(reference)\n".utf8)
      case .json:
        buffer.append(contentsOf: #"{"missingRef":"#.utf8)
        ByteWriter.appendJSONString(reference.text, to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
      }
    }
    return found
  }

  /// The number of orders, alone on a line.
  public func count(of history: any OrderHistory) throws {
    buffer.append(contentsOf: "\(try history.count())\n".utf8)
    try deliver()
  }

  private func add(_ order: Order, _ stored: UnsafeBufferPointer<UInt8>?) throws {
    switch style {
    case .text:
      OrderText.append(order, to: &buffer)
    case .json:
      if let stored {
        buffer.append(contentsOf: stored)
        buffer.append(UInt8(ascii: "\n"))
      } else {
        encoder.append(order, to: &buffer)
      }
    }
    if buffer.count >= OrderListing.deliveryBytes { try deliver() }
  }

  /// Runs `body`, then delivers what it listed; what was listed before an error is delivered
  /// too, since it is true.
  private func delivering(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch {
      try? deliver()
      throw error
    }
    try deliver()
  }

  private func deliver() throws {
    output.write(buffer)
    buffer.removeAll(keepingCapacity: true)
    try output.flush()
  }
}
