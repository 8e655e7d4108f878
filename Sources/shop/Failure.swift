import ShopAdapters
import ShopCore

/// The exit statuses of `shop`, from BSD's sysexits.h where one fits.
enum ExitStatus {
  static let placed: Int32 = 0
  static let rejected: Int32 = 1
  static let usage: Int32 = 64
  static let badData: Int32 = 65
  static let noInput: Int32 = 66
  static let software: Int32 = 70
  static let cannotCreate: Int32 = 73
  static let ioError: Int32 = 74
}

/// An order whose total does not fit in `Int`: for `shop place`, an error of the command.
struct TotalTooLarge: Error {}

/// No flag, variable or home folder says where the orders file is.
struct NoOrdersLocation: Error {}

/// A postgres:// orders location given to a build without the PostgreSQL trait.
struct PostgreSQLNotBuilt: ShopError {
  var status: ShopCore.ExitStatus { .usage }
  var message: String {
    "--orders: a postgres:// URI needs PostgreSQL, which this shop was built without; "
      + "build it with `swift build --traits PostgreSQL`"
  }
}

/// The message and exit status for an error that stops the command.
func failure(_ error: any Error) -> (message: String, status: Int32) {
  switch error {
  case let usage as UsageError:
    return (usage.text, ExitStatus.usage)
  case let file as FileError:
    let message = "Error: \(file)\n"
    switch file {
    case .unreadable: return (message, ExitStatus.noInput)
    case .badData: return (message, ExitStatus.badData)
    case .cannotCreate, .cannotCreateFolder: return (message, ExitStatus.cannotCreate)
    case .cannotWrite: return (message, ExitStatus.ioError)
    }
  case let error as ShopError:
    return ("Error: \(error.message)\n", error.status.rawValue)
  case let full as OrdersFull:
    return ("Error: \(full)\n", ExitStatus.badData)
  case is TotalTooLarge:
    return ("Error: \(TextReport.tooLarge); nothing was saved\n", ExitStatus.badData)
  case is NoOrdersLocation:
    return (
      "Error: no place for the orders file: set --orders, SHOP_ORDERS, XDG_DATA_HOME or HOME\n",
      ExitStatus.cannotCreate
    )
  default:
    return ("Error: internal error: \(error)\n", ExitStatus.software)
  }
}
