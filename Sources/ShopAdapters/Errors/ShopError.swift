/// How a command ended, as its exit status: BSD's sysexits.h where one fits.
public enum ExitStatus: Int32, Sendable {
  /// Done: every order placed, or a listing or help printed.
  case success = 0
  /// Some order was refused (an unknown SKU, a bad batch line), or a listed number is missing.
  case rejected = 1
  /// The command line is wrong.
  case usage = 64
  /// Data that is not what its format says: a catalog line, an orders file line, a total.
  case dataError = 65
  /// An input can't be read: a catalog, a batch file or standard input, an orders file.
  case noInput = 66
  /// A service is out of reach: the orders database can't be reached or went away.
  case unavailable = 69
  /// A bug in `shop`.
  case software = 70
  /// The system lacks what `shop` needs to start: the static build without `/proc`. Exited
  /// with by `Sources/CProcess` before any Swift runs; listed here so the manual names it.
  case osError = 71
  /// An output file or its folder can't be created or opened for writing.
  case cannotCreate = 73
  /// A write or sync failed: a full disk, an I/O error, a closed standard output.
  case ioError = 74
  /// The outcome is unknown and worth checking before trying again.
  case temporaryFailure = 75
}

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
