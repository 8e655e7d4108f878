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

extension PlaceOrderError: ShopError {
  public var status: ExitStatus { .software }
  public var message: String { description }
}

extension BatchStopped: ShopError {
  /// The cause's status; a cause that is not a ``ShopError`` can only be a bug.
  public var status: ExitStatus { (cause as? any ShopError)?.status ?? .software }

  /// The cause's message, and the last order reported when there is one (a batch that stopped
  /// before reporting any says only why).
  public var message: String {
    guard let cause = cause as? any ShopError else {
      return "internal error (please report this bug): \(self.cause)"
    }
    let said = cause.message
    guard let lastReported, !said.isEmpty, !cause.namesTheLastReportedOrder else { return said }
    return "\(said); the last order this batch reported is \(lastReported)"
  }
}
