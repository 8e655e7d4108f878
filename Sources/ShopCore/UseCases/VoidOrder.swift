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
