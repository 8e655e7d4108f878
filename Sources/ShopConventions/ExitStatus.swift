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
