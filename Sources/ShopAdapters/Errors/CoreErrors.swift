import ShopConventions
import ShopCore

// The one place where the core's domain errors get an exit status and the words a terminal
// shows: the core says what went wrong, the edge says how a command ends.

/// A core error about the data whose description is the whole message: it ends a command
/// with 65.
public protocol DataErrorDescribed: ShopError, CustomStringConvertible {}

extension DataErrorDescribed {
  public var status: ExitStatus { .dataError }
  public var message: String { description }
}

extension OrdersFull: DataErrorDescribed {}
extension OrderTooLarge: DataErrorDescribed {}
extension SummaryTooLarge: DataErrorDescribed {}

extension Order.StoredProblem {
  /// What is wrong with a stored order, in the words of every store's reader.
  var reason: String {
    switch self {
    case .numberBelowFirst: "the number is below \(Order.firstNumber)"
    case .badItems: "an item's quantity is not one a cart holds, or its price is below 0"
    case .repeatedSKU(let sku):
      "the items hold \(TerminalText.quoted(sku.utf8)) twice, which no cart does: a SKU given "
        + "twice is one item"
    case .totalsDoNotMatch: "total or payable does not match the items"
    case .voidsNoEarlierOrder: "the void names no order before it"
    }
  }
}

extension PlaceOrderError: ShopError {
  public var status: ExitStatus { .software }
  public var message: String { description }
}

extension ReportFailed: ShopError {
  public var status: ExitStatus { (cause as? any ShopError)?.status ?? .software }

  /// The report's failure, and the order that was saved though its report may not have
  /// arrived: a `place` run again would place it twice.
  public var message: String {
    guard let cause = cause as? any ShopError else {
      return "internal error (please report this bug): \(self.cause)"
    }
    return "\(cause.message); order \(lastSaved) was saved, but its report may not have arrived"
  }
}

extension BatchStopped: ShopError {
  /// The cause's status; a cause that is not a ``ShopError`` can only be a bug.
  public var status: ExitStatus { (cause as? any ShopError)?.status ?? .software }
  public var newestToCheck: Int? { (cause as? any ShopError)?.newestToCheck }

  /// The cause's message, and the last order reported when there is one (a batch that stopped
  /// before reporting any says only why).
  public var message: String {
    guard let cause = cause as? any ShopError else {
      return "internal error (please report this bug): \(self.cause)"
    }
    let said = cause.message
    if let failed = self.cause as? ReportFailed, let reason = failed.cause as? any ShopError {
      // The group's orders are saved; which of their reports arrived, nobody can tell.
      return "\(reason.message); the last order this batch saved is \(failed.lastSaved); "
        + (lastReported.map { "the last order this batch reported is \($0)" }
          ?? "none of its reports is known to have arrived")
    }
    guard let lastReported, !said.isEmpty, !cause.namesTheLastReportedOrder else { return said }
    return "\(said); the last order this batch reported is \(lastReported)"
  }
}
