import ShopCore

/// The quiet report: says nothing of placed or unknown orders (scripts read the exit status),
/// but a batch line that is not an order is an input error, and errors still go to `errors`.
public final class QuietReport: Report {
  private let errors: any ByteOutput

  public init(errors: any ByteOutput) {
    self.errors = errors
  }

  public func report(_ outcome: Outcome, line: Int?) {
    switch outcome {
    case .placed, .unknown:
      return
    case .tooLarge, .malformed:
      errors.write(TextReport.text(of: outcome, line: line))
    }
  }

  public func flush() throws {
    try errors.flush()
  }
}
