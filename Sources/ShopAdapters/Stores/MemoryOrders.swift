import ShopCore

/// Orders kept in memory for one run (`--memory`) or one test.
public final class MemoryOrders: Orders {
  public private(set) var all: [Order] = []

  public init() {}

  public var count: Int { all.count }

  public func save(_ drafts: [Draft]) throws -> [Order] {
    var saved: [Order] = []
    var last = all.last?.number
    for draft in drafts {
      guard let number = Order.number(after: last) else { throw OrdersFull(last: last ?? 0) }
      saved.append(Order(number: number, draft: draft))
      last = number
    }
    all.append(contentsOf: saved)
    return saved
  }
}

/// The last order's number is `Int.max`: no next number exists.
public struct OrdersFull: Error, Equatable, CustomStringConvertible {
  public let last: Int

  public var description: String {
    "order number \(last) is the last one this machine can count"
  }
}
