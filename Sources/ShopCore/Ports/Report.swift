/// Output port: told what became of each order request; the wording (text, JSON, nothing)
/// belongs to the adapter.
public protocol Report: AnyObject {
  /// Called once per request, in input order, only after any order it placed is durable.
  /// `line` is the request's input line in a batch, nil for a single order.
  func report(_ outcome: Outcome, line: Int?)

  /// Called after each group of reports: an adapter that buffers must make them visible now,
  /// because a batch reading a pipe promises each report as soon as its order is saved.
  func flush() throws
}
