/// Where voids are recorded: the store of orders, which numbers a void in the same sequence
/// as its orders, so a void is a record like any other (a credit note beside the invoices)
/// and nothing is ever deleted or rewritten.
public protocol OrderVoids: AnyObject {
  /// Records `draft`, a void (``Draft/voids``), as one atomic step with the core's checks
  /// (``VoidOutcome/plan(_:target:holding:)``): the store finds, under the same lock that
  /// numbers orders, the record `draft.voids` names, marked with the void that took it back
  /// if one did, and the record that already holds `draft.reference`; only when the plan
  /// says so is the void numbered after the last record, stamped no earlier than it, saved.
  ///
  /// When it returns ``VoidOutcome/voided(_:)``, the void is durable and may be reported.
  /// When it throws, nothing was saved and earlier records are intact.
  func void(_ draft: Draft) throws -> VoidOutcome
}

/// What became of a request to void an order.
public enum VoidOutcome: Equatable, Sendable {
  /// Saved now, durably: the void record, whose ``Order/voids`` names the order.
  case voided(Order)
  /// The order was already taken back (``Order/voidedBy`` is the void that did): nothing new
  /// saved. A rerun of a void answers this, so a script may repeat it.
  case alreadyVoid(Order)
  /// No record has this number: nothing saved.
  case noOrder(Int)
  /// The number is a void's, and a void is not taken back: refused, nothing saved.
  case notAnOrder(Order)
  /// Its reference is this other record (an order, or a void of another order): refused.
  case conflict(Reference, Order)

  /// The core's rule, applied by a store under its lock: what a void `draft` becomes, given
  /// the record it names (`target`, marked with its void if it has one; nil when there is
  /// none) and the record that holds its reference (`holding`; nil when none does). Nil: it
  /// is to be saved.
  public static func plan(_ draft: Draft, target: Order?, holding: Order?) -> VoidOutcome? {
    guard let number = draft.voids else { return nil }
    // The reference first: a rerun is answered as the run that saved it.
    if let holding, let reference = draft.reference {
      guard holding.voids == number, let target else { return .conflict(reference, holding) }
      return .alreadyVoid(target)
    }
    guard let target else { return .noOrder(number) }
    if target.isVoid { return .notAnOrder(target) }
    if target.voidedBy != nil { return .alreadyVoid(target) }
    return nil
  }
}

/// Output port: told what became of a void; the wording is the adapter's.
public protocol VoidReport: AnyObject {
  /// Called once, only after a void it tells of is durable.
  func report(_ outcome: VoidOutcome)

  /// Makes the report visible now.
  func flush() throws
}

/// The use case of `shop void`: has the store record a void of an order, then reports it.
///
/// Its ports arrive through the initializer as non-optional `let`s, as ``PlaceOrder``'s do.
public struct VoidOrder {
  private let orders: any OrderVoids
  private let clock: any WallClock
  private let report: any VoidReport

  public init(orders: any OrderVoids, clock: any WallClock, report: any VoidReport) {
    self.orders = orders
    self.clock = clock
    self.report = report
  }

  /// Voids order `number`, under `reference` when given, and reports the outcome.
  /// - Throws: what the store throws (nothing saved), or ``ReportFailed`` when the report of
  ///   a void saved now could not be delivered.
  public func void(_ number: Int, reference: Reference? = nil) throws -> VoidOutcome {
    let draft = Draft(voiding: number, placedAt: clock.now(), reference: reference)
    let outcome = try orders.void(draft)
    report.report(outcome)
    do {
      try report.flush()
    } catch {
      guard case .voided(let void) = outcome else { throw error }
      throw ReportFailed(cause: error, lastSaved: void.number)
    }
    return outcome
  }
}
