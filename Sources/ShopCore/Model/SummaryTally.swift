/// The sums grow one order at a time: memory grows with the days or SKUs, never the orders.
/// Every sum is checked: one that does not fit in `Int` stops the summary, never wraps.
public struct SummaryTally {
  private let grouping: Summary.Grouping
  private var totals = Summary.Totals()
  private var days: [Int64: Summary.Totals] = [:]
  private var sales: [String: Summary.Sales] = [:]

  public init(by grouping: Summary.Grouping) {
    self.grouping = grouping
  }

  /// Adds `order`: a void record adds nothing (the order it takes back is marked, and
  /// counted as voided where it was placed); a voided order is counted, in no sum.
  public mutating func add(_ order: Order) throws(SummaryTooLarge) {
    guard !order.isVoid else { return }
    try Self.add(order, to: &totals)
    switch grouping {
    case .none:
      return
    case .day:
      let day = Summary.day(of: order.placedAt).secondsSince1970
      try Self.add(order, to: &days[day, default: Summary.Totals()])
    case .sku:
      guard order.voidedBy == nil else { return }
      for (index, line) in order.lines.enumerated() {
        // An order counts once for a SKU, even if a stored order lists it twice.
        let counted = !order.lines[..<index].contains { $0.sku == line.sku }
        // One look-up of the SKU per line: this loop is the cost of `--by sku`.
        let added = Self.add(
          line, counted: counted,
          to: &sales[
            line.sku, default: Summary.Sales(sku: line.sku, quantity: 0, revenue: 0, orders: 0)])
        guard added else { throw SummaryTooLarge(number: order.number) }
      }
    }
  }

  /// Adds `line` to `sales`, or returns false and changes nothing when a sum would overflow.
  private static func add(_ line: OrderLine, counted: Bool, to sales: inout Summary.Sales)
    -> Bool
  {
    let (amount, productOverflow) = line.price.multipliedReportingOverflow(by: line.quantity)
    let (quantity, quantityOverflow) = sales.quantity.addingReportingOverflow(line.quantity)
    let (revenue, revenueOverflow) = sales.revenue.addingReportingOverflow(amount)
    guard !productOverflow, !quantityOverflow, !revenueOverflow else { return false }
    sales.quantity = quantity
    sales.revenue = revenue
    if counted { sales.orders += 1 }
    return true
  }

  private static func add(_ order: Order, to totals: inout Summary.Totals)
    throws(SummaryTooLarge)
  {
    guard order.voidedBy == nil else {
      totals.orders += 1
      totals.voided += 1
      return
    }
    let (total, totalOverflow) = totals.total.addingReportingOverflow(order.total)
    let (payable, payableOverflow) = totals.payable.addingReportingOverflow(order.payable)
    guard !totalOverflow, !payableOverflow else { throw SummaryTooLarge(number: order.number) }
    totals.orders += 1
    totals.total = total
    totals.payable = payable
  }

  public var summary: Summary {
    Summary(
      totals: totals,
      days: days.sorted { $0.key < $1.key }.map {
        Summary.Day(start: Timestamp(secondsSince1970: $0.key), totals: $0.value)
      },
      sales: sales.values.sorted { $0.sku < $1.sku })
  }
}

/// A sum over the orders does not fit in a 64-bit integer: refused, never wrapped.
public struct SummaryTooLarge: Error, Equatable, CustomStringConvertible {
  /// The order that took a sum past the limit.
  public let number: Int

  /// A store that sums its orders itself throws it at the same order the tally would.
  public init(number: Int) {
    self.number = number
  }

  public var description: String {
    "the sums are too large to compute from order \(number) on"
  }
}
