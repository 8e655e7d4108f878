import ShopConventions

/// An error that can end a command. Each one says, where it is defined, how the command ends
/// and what to tell the user, so the root maps nothing: an error that is not a `ShopError`
/// can only be a bug (``ExitStatus/software``).
public protocol ShopError: Error {
  /// The exit status of a command that stops with this error.
  var status: ExitStatus { get }
  /// One line, without `Error: ` or a newline, naming what was wrong and where.
  var message: String { get }
  /// Whether ``message`` already names the last order the command reported (a commit the
  /// server never confirmed does), so a batch need not add it again.
  var namesTheLastReportedOrder: Bool { get }
  /// When the outcome is unknown and nothing makes running the command again safe: how many
  /// of the newest orders to look at first. The root says with which command, since only the
  /// command line's description knows its names.
  var newestToCheck: Int? { get }
}

extension ShopError {
  public var namesTheLastReportedOrder: Bool { false }
  public var newestToCheck: Int? { nil }
}

/// What no part of `shop` expected to throw: a bug, which ends the command with 70 and says so.
public struct UnexpectedError: ShopError {
  public let error: any Error

  public init(_ error: any Error) {
    self.error = error
  }

  public var status: ExitStatus { .software }
  public var message: String { "internal error (please report this bug): \(error)" }
}
