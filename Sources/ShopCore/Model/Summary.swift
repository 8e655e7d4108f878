/// What `shop summary` tells the owner: how many orders, what they came to, what was paid
/// and the discount given, over a range of time; and, when asked, per day or per SKU.
public struct Summary: Equatable, Sendable {
  /// What the rows are.
  public enum Grouping: Equatable, Sendable, CaseIterable {
    /// None: the totals alone.
    case none
    /// One row per UTC day that has orders, oldest first.
    case day
    /// One row per SKU sold, by SKU.
    case sku
  }

  /// Sums over some orders. A voided order is counted in ``orders`` and ``voided`` and in no
  /// sum: the sums are over the orders not voided.
  public struct Totals: Equatable, Sendable {
    /// Every order placed, voided or not.
    public var orders = 0
    /// How many of ``orders`` a void took back.
    public var voided = 0
    /// The sum of the totals of the orders not voided, before discount.
    public var total = 0
    /// The sum of what was paid for the orders not voided.
    public var payable = 0

    public init(orders: Int = 0, voided: Int = 0, total: Int = 0, payable: Int = 0) {
      self.orders = orders
      self.voided = voided
      self.total = total
      self.payable = payable
    }

    /// What the discounts took off: never negative, since no order pays more than its total.
    public var discount: Int { total - payable }
  }

  /// One UTC day's orders; a voided order stays on the day it was placed, in no sum.
  public struct Day: Equatable, Sendable {
    /// The day's midnight, UTC.
    public let start: Timestamp
    public var totals: Totals

    public init(start: Timestamp, totals: Totals) {
      self.start = start
      self.totals = totals
    }
  }

  /// One SKU's sales, over the orders not voided.
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

  /// The midnight (UTC) that starts the day of `time`; for the first hours `Int64` can count,
  /// whose midnight it can't, the first time there is.
  public static func day(of time: Timestamp) -> Timestamp {
    let seconds = time.secondsSince1970
    let (days, remainder) = seconds.quotientAndRemainder(dividingBy: 86400)
    let (midnight, overflow) = (remainder < 0 ? days - 1 : days).multipliedReportingOverflow(
      by: 86400)
    return Timestamp(secondsSince1970: overflow ? .min : midnight)
  }
}
