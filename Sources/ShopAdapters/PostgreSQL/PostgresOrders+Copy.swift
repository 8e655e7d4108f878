import ShopCore

extension PostgresOrders {
  /// The lock is taken before the numbering is read (``lockAndReadNumbering(on:)``). Then
  /// the rows go by COPY, and COMMIT follows once the server says it copied every one.
  func copy(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
    var rows = PostgresCopyRows(capacity: 120 * drafts.count)
    let orders: [Order]
    let place = connection.place
    do {
      let numbering = try lockAndReadNumbering(on: connection)
      orders = try Order.numbered(drafts, after: numbering.last)
      try Self.append(orders, to: &rows, place: place)
    } catch {
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    }
    switch connection.copyThenCommit(Self.copySQL, rows, count: orders.count, needs: Needs.copy) {
    case .committed:
      return orders
    case .refused(let error, _):
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    case .unknown(_, let why):
      throw PostgresError.unconfirmed(
        place, first: orders.first?.number, count: orders.count, lastReported: lastSaved,
        why: why)
    }
  }

  /// Under the same lock as the numbering: reads the last number and the orders that hold
  /// the group's refs, lets the core's rule decide, then sends only the new orders by COPY,
  /// then COMMIT once the server says it copied every one. The unique `ref` column refuses a second order for a
  /// ref even from a writer that did not take the lock.
  func placeReferenced(_ drafts: [Draft], on connection: PostgresConnection) throws
    -> [Placement]
  {
    let plan: (placements: [Placement], new: [Order])
    var rows = PostgresCopyRows(capacity: 140 * drafts.count)
    do {
      let numbering = try lockAndReadNumbering(on: connection)
      let lastNumber = numbering.last
      // Refs are letters, digits and -_.:/, so each goes quoted into the array's text form
      // as it is; the array is a parameter, never SQL text.
      var list = Array("{".utf8)
      for (index, reference) in drafts.compactMap(\.reference).enumerated() {
        if index > 0 { list.append(UInt8(ascii: ",")) }
        list.append(UInt8(ascii: "\""))
        list.append(contentsOf: reference.text.utf8)
        list.append(UInt8(ascii: "\""))
      }
      list.append(UInt8(ascii: "}"))
      let held = try connection.run(
        "SELECT \(readColumns) WHERE ref = ANY($1::pg_catalog.text[])",
        [PostgresParameter(text: list)])
      var existing: [Reference: Order] = [:]
      for row in 0..<held.rows {
        let order = try Self.order(in: held, row, place: connection.place)
        // The order as stored, as the file store answers it: a void's mark is a listing's.
        if let reference = order.reference { existing[reference] = order.voided(by: nil) }
      }
      guard let planned = Placement.plan(drafts, after: lastNumber, existing: { existing[$0] })
      else { throw OrdersFull(last: lastNumber ?? 0) }
      plan = planned
      if plan.new.isEmpty {
        _ = try connection.run("ROLLBACK")
        return plan.placements
      }
      try Self.append(plan.new, to: &rows, place: connection.place)
    } catch {
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    }
    switch connection.copyThenCommit(
      Self.copySQL, rows, count: plan.new.count, needs: Needs.copy)
    {
    case .committed:
      if let last = plan.new.last { lastSaved = last.number }
      return plan.placements
    case .refused(let error, _):
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    case .unknown(_, let why):
      throw PostgresError.unconfirmed(
        connection.place, first: plan.new.first?.number, count: plan.new.count,
        lastReported: lastSaved, why: why,
        rerunIsSafe: plan.new.allSatisfy { $0.reference != nil })
    }
  }

  /// Every column of an order is sent, `ref` as NULL for an order without one: no DEFAULT of
  /// the table's takes the place of what `shop` sends. `voids` is not listed, so a table made
  /// before voids takes orders as it is; the table check refuses a `voids` with a DEFAULT
  /// (``voidsDefaultSQL``), so an order's is NULL.
  static let copySQL =
    "COPY \(table) (number, placed_at, items, total, payable, ref) FROM STDIN (FORMAT binary)"

  /// ``copySQL`` with `voids`, for a void: only `shop void` writes the column, after it made
  /// sure the table has it. A void holds items `[]` and totals 0, so the NOT NULL columns
  /// keep their meaning.
  static let voidCopySQL =
    "COPY \(table) (number, placed_at, items, total, payable, ref, voids) FROM STDIN "
    + "(FORMAT binary)"

  /// The rows of `orders` in ``copySQL``'s columns, or with `voids` in ``voidCopySQL``'s.
  static func append(
    _ orders: [Order], to rows: inout PostgresCopyRows, place: PostgresPlace,
    voids: Bool = false
  ) throws {
    var json: [UInt8] = []
    for order in orders {
      rows.startRow(fields: voids ? 7 : 6)
      rows.append(order.number)
      guard rows.appendTimestamp(secondsSince1970: order.placedAt.secondsSince1970) else {
        throw PostgresError.badData(
          place, "order \(order.number): the time is out of PostgreSQL's range")
      }
      json.removeAll(keepingCapacity: true)
      OrderJSON.appendItems(order.lines, to: &json)
      rows.appendJSONB(json)
      rows.append(order.total)
      rows.append(order.payable)
      rows.appendText(order.reference?.text)
      if voids { rows.append(order.voids) }
    }
  }
}
