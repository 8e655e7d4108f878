/// The use case: sums the orders of a range from the reading port and reports the sums.
///
/// Its ports arrive through the initializer as non-optional `let`s, as ``PlaceOrder``'s do.
/// The grouping is the command line's choice, as the report is: it arrives with the parts,
/// and each run asks only for a range.
public struct Summarise {
  private let history: any OrderHistory
  private let report: any SummaryReport
  private let grouping: Summary.Grouping
  /// One SKU's sums alone, when the command line asks for them.
  private let sku: String?

  /// With `sku`, the report is that SKU's line of ``Summary/Grouping/sku``, and a line of
  /// zeros when the range sold none of it, so the answer is always one line.
  public init(
    history: any OrderHistory, report: any SummaryReport, by grouping: Summary.Grouping,
    sku: String? = nil
  ) {
    self.history = history
    self.report = report
    self.grouping = sku == nil ? grouping : .sku
    self.sku = sku
  }

  public func summarise(_ range: TimeRange) throws {
    var summary = try history.summary(of: range, by: grouping)
    if let sku {
      summary.sales = [
        summary.sales.first { $0.sku == sku }
          ?? Summary.Sales(sku: sku, quantity: 0, revenue: 0, orders: 0)
      ]
    }
    try report.report(summary, by: grouping)
  }
}
