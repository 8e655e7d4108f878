/// What `shop summary` tells the owner: how many orders, what they came to, what was paid
/// and the discount given, over a range of time; and, when asked, per day or per SKU.
public struct Summary: Equatable, Sendable {
  /// What the rows are.
  public enum Grouping: Equatable, Sendable {
    /// None: the totals alone.
    case none
    /// One row per UTC day that has orders, oldest first.
    case day
    /// One row per SKU sold, by SKU.
    case sku
  }

  /// Sums over some orders.
  public struct Totals: Equatable, Sendable {
    public var orders = 0
    /// The sum of the orders' totals, before discount.
    public var total = 0
    /// The sum of what was paid.
    public var payable = 0

    public init(orders: Int = 0, total: Int = 0, payable: Int = 0) {
      self.orders = orders
      self.total = total
      self.payable = payable
    }

    /// What the discounts took off: never negative, since no order pays more than its total.
    public var discount: Int { total - payable }
  }

  /// One UTC day's orders.
  public struct Day: Equatable, Sendable {
    /// The day's midnight, UTC.
    public let start: Timestamp
    public var totals: Totals

    public init(start: Timestamp, totals: Totals) {
      self.start = start
      self.totals = totals
    }
  }

  /// One SKU's sales.
  public struct Sales: Equatable, Sendable {
    public let sku: String
    /// How many were sold.
    public var quantity: Int
    /// The sum of price × quantity over its order lines, before any order's discount (which
    /// is taken off a whole order, not off one SKU).
    public var revenue: Int
    /// How many orders have it.
    public var orders: Int

    public init(sku: String, quantity: Int, revenue: Int, orders: Int) {
      self.sku = sku
      self.quantity = quantity
      self.revenue = revenue
      self.orders = orders
    }
  }

  public var totals: Totals
  /// Filled for ``Grouping/day`` only.
  public var days: [Day]
  /// Filled for ``Grouping/sku`` only.
  public var sales: [Sales]

  public init(totals: Totals, days: [Day] = [], sales: [Sales] = []) {
    self.totals = totals
    self.days = days
    self.sales = sales
  }

  /// The midnight (UTC) that starts the day of `time`.
  public static func day(of time: Timestamp) -> Timestamp {
    let seconds = time.secondsSince1970
    let (days, remainder) = seconds.quotientAndRemainder(dividingBy: 86400)
    return Timestamp(secondsSince1970: (remainder < 0 ? days - 1 : days) * 86400)
  }
}

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

  public mutating func add(_ order: Order) throws(SummaryTooLarge) {
    try Self.add(order, to: &totals)
    switch grouping {
    case .none:
      return
    case .day:
      let day = Summary.day(of: order.placedAt).secondsSince1970
      try Self.add(order, to: &days[day, default: Summary.Totals()])
    case .sku:
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

  public init(number: Int) {
    self.number = number
  }

  public var description: String {
    "the sums are too large to compute from order \(number) on"
  }
}

/// Told the summary once it is complete; formatting it is the adapter's job.
public protocol SummaryReport: AnyObject {
  func report(_ summary: Summary, by grouping: Summary.Grouping) throws
}

/// The use case: sums the orders of a range from the reading port and reports the sums.
///
/// Its ports arrive through the initializer as non-optional `let`s, as ``PlaceOrder``'s do.
public struct Summarise {
  private let history: any OrderHistory
  private let report: any SummaryReport

  public init(history: any OrderHistory, report: any SummaryReport) {
    self.history = history
    self.report = report
  }

  public func summarise(_ range: TimeRange, by grouping: Summary.Grouping) throws {
    try report.report(try history.summary(of: range, by: grouping), by: grouping)
  }
}
