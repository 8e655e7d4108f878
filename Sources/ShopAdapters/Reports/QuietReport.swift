import ShopCore

/// The quiet report: says nothing of placed orders, or of a single refused order (its exit status
/// tells). A batch line that was not placed is told on `errors`, as the loud report words it,
/// so a script can see which line failed as well as that one did.
public final class QuietReport: Report {
  private let errors: any ByteOutput

  public init(errors: any ByteOutput) {
    self.errors = errors
  }

  public func report(_ outcome: Outcome, line: Int?) {
    switch outcome {
    case .placed, .alreadyPlaced:
      return
    case .unknown, .conflict:
      // A single order's refusal is its exit status; a batch must say which line it was.
      if line != nil { errors.write(TextReport.text(of: outcome, line: line)) }
    case .tooLarge, .malformed:
      errors.write(TextReport.text(of: outcome, line: line))
    }
  }

  public func flush() throws {
    try errors.flush()
  }
}
