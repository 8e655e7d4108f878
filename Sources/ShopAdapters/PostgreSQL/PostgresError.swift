import ShopConventions
import ShopCore

/// Why the PostgreSQL store stopped a command; every message names the database and its host
/// and never the password.
public struct PostgresError: ShopError, Equatable, CustomStringConvertible {
  public let status: ExitStatus
  public let message: String
  /// The server's SQLSTATE, when it answered with an error.
  var sqlState: String? = nil
  /// How many of the newest orders to check before placing these again, when the commit was
  /// never confirmed and the orders have no refs.
  public var newestToCheck: Int? = nil

  public var description: String { message }

  public var namesTheLastReportedOrder: Bool { status == .temporaryFailure }

  /// The server can't be reached, went away, or refused a statement.
  static func unavailable(_ place: PostgresPlace, _ detail: String, sqlState: String? = nil)
    -> PostgresError
  {
    PostgresError(
      status: .unavailable, message: "the orders database \(place): \(place.redacted(detail))",
      sqlState: sqlState)
  }

  /// COMMIT was sent but no answer came back (`why`): the orders may or may not be saved.
  /// `first` is nil when the server's numbers for them never arrived either;
  /// `lastReported` is the last order this command saved and reported before, if any.
  /// `rerunIsSafe` when every order of the group has a ref, so placing them again can't place
  /// any twice: the message says so instead of asking to check first.
  static func unconfirmed(
    _ place: PostgresPlace, first: Int?, count: Int, lastReported: Int?, why: String,
    rerunIsSafe: Bool = false
  ) -> PostgresError {
    let which =
      switch (first, count) {
      case (let first?, 1): "order \(first)"
      case (let first?, _): "orders \(first)…\(first &+ (count - 1))"
      case (nil, 1): "an order"
      case (nil, _): "\(count) orders"
      }
    // The group is one transaction: all of it is saved or none, and if saved, it comes
    // after every order this command reported.
    let reported =
      lastReported.map {
        "the last order this command reported is \($0), and any of these that were saved "
          + "come after it"
      } ?? "this command reported none of its orders"
    let next = rerunIsSafe ? "; their refs make it safe to run the same command again" : ""
    return PostgresError(
      status: .temporaryFailure,
      message:
        "the orders database \(place) did not confirm the commit of \(which) (\(why)): the "
        + "outcome is unknown; \(reported)\(next)",
      newestToCheck: rerunIsSafe ? nil : count)
  }

  /// The server refused a statement for lack of a privilege: which one it needs. A schema's
  /// refusal is CREATE for the statements that create the table or add `ref` or `voids` with
  /// its unique index (which say so in `needs`), and USAGE for any other: only they ask the
  /// schema for CREATE.
  static func privilegeAdvice(_ reason: String, _ needs: String?) -> String {
    let creating = [PostgresOrders.Needs.create, PostgresOrders.Needs.addReference]
    if let needs,
      creating.contains(needs) || needs.holdsText(PostgresOrders.Needs.voidsColumn)
        || !reason.holdsText("for schema")
    {
      return "the role needs \(needs)"
    }
    if reason.holdsText("for schema") { return "the role needs USAGE on that schema" }
    return "the role needs SELECT and INSERT on shop_orders, and UPDATE to lock it"
  }

  /// Why a write was refused as read-only (SQLSTATE 25006), and how to reach the primary.
  static func readOnlyAdvice(_ reason: String, standby: Bool) -> String {
    // The server's error ends with a newline: the advice must be on its line.
    let reason = PostgresPlace.firstLine(reason)
    let reach =
      "writers need the primary: name every server in the URI and let libpq find the one that "
      + "takes writes (postgresql://db1,db2/shop?target_session_attrs=read-write)"
    if standby {
      return "the server is a hot standby, read-only while it recovers (\(reason)): " + reach
    }
    return "refused: \(reason) (a read-only transaction: when the server is a hot standby, "
      + reach + ")"
  }

  /// A stored row that is not an order, or numbering with a gap or a repeat.
  static func badData(_ place: PostgresPlace, _ reason: String) -> PostgresError {
    PostgresError(status: .dataError, message: "the orders database \(place): \(reason)")
  }
}
