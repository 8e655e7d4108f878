/// Output port of `shop summary`: told the summary once it is complete; the wording (a table,
/// JSON, CSV) belongs to the adapter.
public protocol SummaryReport: AnyObject {
  /// Called once per summary, with the grouping its rows follow (``Summary/days`` are filled
  /// for ``Summary/Grouping/day`` only, ``Summary/sales`` for ``Summary/Grouping/sku`` only).
  func report(_ summary: Summary, by grouping: Summary.Grouping) throws
}
