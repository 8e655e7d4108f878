import ShopAdapters
import ShopCore

/// What ``Root/makeStore(_:)`` built: a closed set, so each fast path is chosen by a `switch`
/// the compiler checks, and a new store that lacks a case does not compile.
enum BuiltStore {
  case memory(MemoryOrders)
  case file(FileOrders)
  case postgreSQL(PostgresOrders)

  /// Every store built saves, reads and records voids.
  var orders: any Orders & OrderHistory & OrderVoids {
    switch self {
    case .memory(let store): return store
    case .file(let store): return store
    case .postgreSQL(let store): return store
    }
  }

  /// The store as a listing copies its lines, for the one that keeps them as `--json` prints.
  var storedLines: (any StoredOrderLines)? {
    switch self {
    case .file(let store): return store
    case .memory, .postgreSQL: return nil
    }
  }
}

/// What ``Root/makeReport(_:)`` built, closed as ``BuiltStore`` is.
enum BuiltReport {
  case text(TextReport)
  case quiet(QuietReport)
  case json(JSONReport)

  var report: any Report {
    switch self {
    case .text(let report): return report
    case .quiet(let report): return report
    case .json(let report): return report
    }
  }

  /// The report as the fast batch path tells it: only of placed orders' numbers and payables.
  var priced: (any PricedReport)? {
    switch self {
    case .text(let report): return report
    case .quiet(let report): return report
    case .json: return nil
    }
  }
}
