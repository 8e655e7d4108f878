import ShopCore

extension PostgresOrders {
  /// Records the void `draft` in the transaction style of ``placeReferenced(_:on:)``: under
  /// the lock that numbers orders, reads the numbering, the order the void names (marked with
  /// the void that took it back, if one did) and the row that holds its ref; the core's rule
  /// (``VoidOutcome/plan(_:target:holding:)``) decides; else one row goes by COPY, numbered
  /// after the last, and COMMIT. The unique `voids` column refuses a second void of one order
  /// even from a writer that did not take the lock. A table made before voids gets the column
  /// only when a void is to be saved (a refused or repeated one alters nothing), and the void
  /// is then decided again under the lock, as another may have come meanwhile. Where there is
  /// no table, no order is there to void, and nothing is created (as on a file).
  public func void(_ draft: Draft) throws -> VoidOutcome {
    // No table holds no order: "no order", and nothing created.
    let outcome = try withTable(missing: draft.voids.map(VoidOutcome.noOrder)) {
      connection -> VoidOutcome in
      if let outcome = try void(draft, on: connection) { return outcome }
      try addVoids(on: connection)
      guard let outcome = try void(draft, on: connection) else {
        throw PostgresError.badData(
          connection.place, "table \(Self.table) has no voids column after it was added")
      }
      return outcome
    }
    if case .voided(let void) = outcome { lastSaved = void.number }
    return outcome
  }

  /// The outcome, or nil (nothing saved, the transaction rolled back) when the void is to be
  /// saved into a table without `voids`.
  private func void(_ draft: Draft, on connection: PostgresConnection) throws -> VoidOutcome? {
    let place = connection.place
    var rows = PostgresCopyRows(capacity: 160)
    let void: Order
    do {
      let numbering = try lockAndReadNumbering(on: connection)
      var target: Order?
      if let number = draft.voids {
        let found = try connection.run(
          "SELECT \(readColumns) WHERE number = $1", [PostgresParameter(number)],
          needs: Needs.select)
        if found.rows > 0 {
          target = try Self.order(in: found, 0, place: place)
        } else {
          // Below the last number, a missing row is a gap, as every reader reports it.
          try checkNoGap(at: number, on: connection)
        }
      }
      var holding: Order?
      if let reference = draft.reference {
        let found = try connection.run(
          "SELECT \(readColumns) WHERE ref = $1",
          [PostgresParameter(text: Array(reference.text.utf8))], needs: Needs.select)
        if found.rows > 0 { holding = try Self.order(in: found, 0, place: place) }
      }
      if let decided = VoidOutcome.plan(draft, target: target, holding: holding) {
        _ = try connection.run("ROLLBACK")
        return decided
      }
      guard
        let planned = Placement.plan([draft], after: numbering.last, existing: { _ in nil }),
        let numbered = planned.new.first
      else { throw OrdersFull(last: numbering.last ?? 0) }
      guard hasVoids else {
        _ = try connection.run("ROLLBACK")
        return nil
      }
      void = numbered
      try Self.append([void], to: &rows, place: place, voids: true)
    } catch {
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    }
    switch connection.copyThenCommit(Self.voidCopySQL, rows, count: 1, needs: Needs.copy) {
    case .committed:
      return .voided(void)
    case .refused(let error, _):
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    case .unknown(_, let why):
      throw PostgresError.unconfirmed(
        place, first: void.number, count: 1, lastReported: lastSaved, why: why,
        rerunIsSafe: draft.reference != nil)
    }
  }
}
