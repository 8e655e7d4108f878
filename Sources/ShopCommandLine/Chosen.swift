import ShopConventions

// The values the root's decisions (Sources/shop/Choices.swift) are made of, and the errors a
// store's location can be: here, below the root, so that `--explain` (Explanation.swift) can
// tell them without the root, and the root keeps only the choosing and the building. Each error
// has its status and message; the root declares that it ends a command (Root.swift).

/// What the root chose, and the reason a person would give for it.
package struct Chosen<Value> {
  package let value: Value
  private let reason: () -> String

  package init(value: Value, why: @autoclosure @escaping () -> String) {
    self.value = value
    self.reason = why
  }

  /// `from --catalog`, `default: …; $SHOP_ORDERS unset`. Worded only when asked for: every
  /// command chooses, and only `--explain` prints the reasons.
  package var why: String { reason() }
}

/// Where the prices come from: a file, or the built-in prices the root names (its one list,
/// which `--explain` tells from here).
package enum CatalogSource {
  case file(FilePath)
  case builtIn([(sku: String, price: Int)])
}

/// Where the orders are kept.
package enum StoreSource: Equatable {
  /// In memory, for this run only.
  case memory
  case file(FilePath)
  /// A `postgres://` or `postgresql://` URI, as given (a byte that is not UTF-8 as `%XX`).
  case postgreSQL(String)
  /// A value that reads as a URI but is none libpq takes (`postgresql:/db`, `POSTGRESQL://db`,
  /// `postgres:`), as given, and why: a usage error, never a local store in a folder named
  /// `postgresql:`.
  case notAURI(String, why: String)
  /// No flag, variable or home folder says where.
  case nowhere
}

/// How long a read command waits for the lock a writer holds on an orders file.
package enum ReadWaitBound: Equatable {
  case seconds(Int)
  /// `$SHOP_TIMEOUT` is not a whole number of seconds from 0 to `most`: a usage error.
  case invalid([UInt8], most: Int)
}

extension StoreSource {
  /// The file it names, if it is one.
  package var path: FilePath? {
    if case .file(let path) = self { return path }
    return nil
  }
}

/// `--orders` or `SHOP_ORDERS` reads as a URI but is none: a usage error (64) that says what
/// a URI looks like and how to name a file that starts so, before anything is read or made.
package struct NotAURI: Error {
  /// The value as given, its password hidden in the message.
  package let text: String
  package let why: String
  /// Where the value came from: `from --orders` or `from $SHOP_ORDERS`.
  package let from: String

  package init(text: String, why: String, from: String) {
    self.text = text
    self.why = why
    self.from = from
  }

  package var status: ExitStatus { .usage }
  package var message: String {
    // A look-alike may hold a password where a URI would: hidden as in a URI.
    var shown = ConnectionURI.redacting(text, wholeURI: true)
    if let colon = shown.firstIndex(of: ":") {
      let rest = shown[shown.index(after: colon)...].drop { $0 == "/" }
      shown =
        String(shown[...colon]) + String(shown[shown.index(after: colon)..<rest.startIndex])
        + ConnectionURI.redacting("x://" + rest, wholeURI: true).dropFirst(4)
    }
    return "'\(shown)' (\(from)) is not a PostgreSQL URI: \(why). A URI is "
      + "postgresql://[user@][host][:port]/database in lower case, as in "
      + "postgresql://shop@db.example:5432/shop or postgresql:///shop (a local socket); "
      + "a file or folder whose name starts so is written with ./ before it"
  }
}

/// `$SHOP_TIMEOUT` is not a bound a read command can wait by: a usage error (64), before the
/// store is read.
package struct BadReadWait: Error {
  package let value: [UInt8]
  /// The longest wait a bound may ask for, in seconds.
  package let most: Int

  package init(value: [UInt8], most: Int) {
    self.value = value
    self.most = most
  }

  package var status: ExitStatus { .usage }
  package var message: String {
    "SHOP_TIMEOUT is \(TerminalText.quoted(value)): it must be a whole number of seconds from 0 "
      + "to \(most), how long orders and summary wait for a writer's lock "
      + "on an orders file"
  }
}

/// No flag, variable or home folder says where the orders file is.
package struct NoOrdersLocation: Error {
  package init() {}

  package var status: ExitStatus { .cannotCreate }
  package var message: String {
    "no place for the orders file: set \(OptionDescription.orders.long), SHOP_ORDERS, XDG_DATA_HOME or HOME "
      + "(an absolute path)"
  }
}
