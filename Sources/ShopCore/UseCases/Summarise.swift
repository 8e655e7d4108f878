/// Told the summary once it is complete; formatting it is the adapter's job.
public protocol SummaryReport: AnyObject {
  func report(_ summary: Summary, by grouping: Summary.Grouping) throws
}

/// The use case: sums the orders of a range from the reading port and reports the sums.
///
/// Its ports arrive through the initializer as non-optional `let`s, as ``PlaceOrder``'s do.
/// The grouping is the command line's choice, as the report is: it arrives with the parts,
/// and each run asks only for a range.
public struct Summarise {
  private let history: any OrderHistory
  private let report: any SummaryReport
  private let grouping: Summary.Grouping

  public init(history: any OrderHistory, report: any SummaryReport, by grouping: Summary.Grouping) {
    self.history = history
    self.report = report
    self.grouping = grouping
  }

  public func summarise(_ range: TimeRange) throws {
    try report.report(try history.summary(of: range, by: grouping), by: grouping)
  }
}
