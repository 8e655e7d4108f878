/// Output port of `shop void`: told what became of a void; the wording is the adapter's.
public protocol VoidReport: AnyObject {
  /// Called once, only after a void it tells of is durable.
  func report(_ outcome: VoidOutcome)

  /// Makes the report visible now.
  func flush() throws
}
