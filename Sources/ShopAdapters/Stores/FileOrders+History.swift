import ShopCore

// A stopgap so the root's one store factory can return `any Orders & OrderHistory` in this
// branch: delete it when FileOrders' own OrderHistory lands (they would clash).
extension FileOrders: OrderHistory {
  public func forEach(_ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
    var expected = Order.firstNumber
    var line = 0
    try readOrders { order, stored in
      line += 1
      guard order.number == expected else {
        throw FileError.badData(
          path: path, line: line, reason: "order \(order.number) where \(expected) should be")
      }
      expected = order.number &+ 1  // Wraps only after Int.max, which no line can follow.
      try visit(order, stored)
    }
  }

  public func last(_ count: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void)
    throws
  {
    guard count > 0 else { return }
    var kept: [Order] = []
    try forEach { order, _ in
      if kept.count == count { kept.removeFirst() }
      kept.append(order)
    }
    for order in kept { try visit(order, nil) }
  }

  public func order(
    numbered number: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
  ) throws -> Bool {
    var found: Order?
    try forEach { order, _ in
      if order.number == number { found = order }
    }
    guard let found else { return false }
    try visit(found, nil)
    return true
  }
}
