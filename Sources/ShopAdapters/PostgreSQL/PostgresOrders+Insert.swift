import ShopCore

extension PostgresOrders {
  /// How much of the table the numbering INSERT tests in SQL.
  enum InsertCheck {
    /// Not checked yet in this session: every column, as ``schemaFits``.
    case everything
    /// Checked before: its triggers, rules, kind and persistence (``tableFits``), which the
    /// lock keeps as they are until COMMIT.
    case table
    /// Checked in full by an earlier statement of the same transaction, after its lock.
    case nothing
  }

  /// The server numbers the rows after the last order, and answers the numbering it
  /// continued and how many rows it inserted. The INSERT is a statement after the LOCK, and
  /// under READ COMMITTED each statement takes a new snapshot, so it sees every order
  /// committed before the lock was granted; nobody else can insert until COMMIT. It inserts
  /// nothing when the numbering, the table's triggers and rules (every group: the lock keeps
  /// them as they are until COMMIT) or, before the table was checked, its columns are not
  /// `shop`'s, or when the group's numbers would pass the largest `int8`, so nothing is
  /// written before `shop` has read why. Every column of an order is sent, `ref` as NULL
  /// (these orders have none): no DEFAULT of the table's takes the place of what `shop` sends;
  /// `voids` is left out, as ``copySQL`` leaves it. Checking the whole table, it also answers
  /// whether the table has `voids`, which readers of the same command then read.
  private static func insertNumbered(checking: InsertCheck) -> String {
    let fits: String
    switch checking {
    case .everything: fits = " AND \(schemaFits)"
    case .table: fits = " AND \(tableFits)"
    case .nothing: fits = ""
    }
    return """
      WITH last AS (SELECT \(Numbering.columns)),
      saved AS (
        INSERT INTO \(table) (number, placed_at, items, total, payable, ref)
        SELECT coalesce(last.number, \(Order.firstNumber - 1)) + u.o, to_timestamp(u.t), u.i, u.s, u.p,
          NULL
        FROM last, unnest($1::pg_catalog.int8[], $2::pg_catalog.jsonb[], $3::pg_catalog.int8[], $4::pg_catalog.int8[])
          WITH ORDINALITY AS u(t, i, s, p, o)
        WHERE \(Numbering.fitsSQL)\(fits)
          AND \(PostgresConnection.durableSQL)
          AND coalesce(last.number, \(Order.firstNumber - 1)) <= \(Int.max) - cardinality($1::pg_catalog.int8[])
        RETURNING 1
      )
      SELECT last.first, last.number, last.previous, (SELECT count(*) FROM saved),
        \(PostgresConnection.settingsColumns)\(checking == .everything ? ", \(hasVoidsSQL)" : "")
      FROM last
      """
  }

  /// LOCK, the INSERT and COMMIT sent together: one round trip for the group. Before the
  /// table was checked, the INSERT tests it in SQL; only when it inserted nothing, or failed,
  /// does a second trip ask the catalog why, so a `place` into a good table pays one
  /// catalog query, inside its one round trip. The first transaction of a session, whose
  /// opening goes in a trip of its own anyway, takes the quicker way when it can
  /// (``insertAfterQuickCheck(_:on:)``).
  func insert(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
    if !schemaChecked && !connection.holdsTransactions && quickCheck,
      let orders = try insertAfterQuickCheck(drafts, on: connection)
    {
      return orders
    }
    let checking = !schemaChecked
    let outcome = connection.runInOneTrip([
      .init(sql: "LOCK TABLE \(Self.table) IN EXCLUSIVE MODE", needs: Needs.lock),
      .init(
        sql: Self.insertNumbered(checking: checking ? .everything : .table),
        parameters: columns(of: drafts), needs: Needs.insert),
    ])
    return try settle(
      outcome, of: drafts, checking: checking, hasVoids: nil, answers: 2, on: connection)
  }

  /// The first trip opens the transaction, takes the lock and reads the table's catalog rows
  /// (``quickCheckQueries(serverVersion:)``); when they show exactly `shop`'s table, the
  /// second sends the INSERT, which tests no catalog, and COMMIT. Otherwise the transaction
  /// is rolled back and nil returned, for the plain way to check and insert.
  private func insertAfterQuickCheck(_ drafts: [Draft], on connection: PostgresConnection)
    throws -> [Order]?
  {
    let opening = connection.opening
    let queries = Self.quickCheckQueries(
      serverVersion: Int(connection.pq.serverVersion(connection.connection)))
    let answers: [PostgresResult]
    do {
      answers = try connection.run(
        opening + [.init(sql: "LOCK TABLE \(Self.table) IN EXCLUSIVE MODE", needs: Needs.lock)]
          + queries)
    } catch {
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    }
    // The transaction outlived its round trip: no pooler in statement mode is between.
    connection.holdsTransactions = true
    guard let table = Self.plainlyShops(Array(answers.suffix(queries.count))) else {
      try connection.run("ROLLBACK")
      return nil
    }
    let outcome = connection.runInOneTrip(
      [
        .init(
          sql: Self.insertNumbered(checking: .nothing), parameters: columns(of: drafts),
          needs: Needs.insert)
      ], begun: true)
    // Cancelled before COMMIT: nothing was saved, and the plain way tries again from BEGIN.
    if case .refused = outcome, connection.settingsCancelled {
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      return nil
    }
    let orders = try settle(
      outcome, of: drafts, checking: true, hasVoids: table.hasVoids, answers: 1, on: connection)
    quicklyChecked += 1
    return orders
  }

  /// What the INSERT's transaction came to: the orders numbered as the server numbered them,
  /// or why not. `answers`: how many statements before COMMIT answer, the INSERT last.
  /// `checking`: the table was not known to be `shop`'s before, so a refusal may be
  /// explained by the catalog. `hasVoids`: whether the table has `voids`, as the quick check
  /// read it; nil when the INSERT itself answers it (checking the whole table).
  private func settle(
    _ outcome: PostgresConnection.CommitOutcome, of drafts: [Draft], checking: Bool,
    hasVoids knownVoids: Bool?, answers expected: Int, on connection: PostgresConnection
  ) throws -> [Order] {
    let place = connection.place
    switch outcome {
    case .committed(let answers):
      guard answers.count == expected, let insert = answers.last,
        let inserted = insert.integer(0, 3)
      else {
        throw PostgresError.badData(place, "the last order number is not a number")
      }
      let numbering = try Numbering(insert, from: 0, place: place)
      if inserted == drafts.count {
        if checking {
          schemaChecked = true
          hasVoids = knownVoids ?? (insert.text(0, 6) == "t")
        }
        return try Order.numbered(drafts, after: numbering.last)
      }
      // Nothing was inserted: shop's settings were not in force, the server found the table
      // or its numbering is not shop's, or the group's numbers would pass the largest one.
      try Self.checkDurable(insert, from: 4, on: connection)
      try checkSchema(on: connection, writing: true)
      try numbering.check(place)
      if let last = numbering.last, last.addingReportingOverflow(drafts.count).overflow {
        throw OrdersFull(last: last)
      }
      throw PostgresError.badData(
        place,
        "the server inserted \(inserted) of \(drafts.count == 1 ? "1 order" : "\(drafts.count) orders"): the table's "
          + "numbering or columns are not shop's")
    case .refused(let error, _):
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      // A foreign table's types can make the INSERT itself fail: say why, if that is why.
      if checking && !connection.isLost && error.sqlState != "42P01" {
        do {
          try checkSchema(on: connection, writing: true)
        } catch let foreign as PostgresError
          where foreign.status == .dataError || foreign.sqlState == "42501"
        {  // Not shop's table, or not the one meant.
          throw foreign
        } catch {}  // The catalog can't say: the refusal itself is the message.
      }
      throw error
    case .unknown(let answers, let why):
      // An answer that never comes leaves the outcome unknown, which is not the same as
      // failed: the orders must not be reported, nor said to be unsaved.
      let last =
        answers.count == expected
        ? (try? Numbering(answers[expected - 1], from: 0, place: place))?.last
          ?? Order.firstNumber - 1
        : nil
      throw PostgresError.unconfirmed(
        place, first: last.map { $0 &+ 1 }, count: drafts.count, lastReported: lastSaved,
        why: why)
    }
  }

  /// Begins a transaction, checks the table the first time, takes the lock, checks the
  /// table's triggers and rules (every group) and reads the numbering, checked: the read is
  /// its own statement after the lock, so it sees every order committed before the lock
  /// was granted.
  func lockAndReadNumbering(on connection: PostgresConnection) throws -> Numbering {
    let place = connection.place
    let checking = !schemaChecked
    var statements = connection.opening
    let opened = statements.count
    if checking { statements.append(.init(sql: Self.schemaQuery)) }
    statements += [
      .init(sql: "LOCK TABLE \(Self.table) IN EXCLUSIVE MODE", needs: Needs.lock),
      .init(sql: Self.tableQuery),
      .init(
        sql: "SELECT \(Numbering.columns), \(PostgresConnection.settingsColumns)",
        needs: Needs.select),
    ]
    let answers = try connection.run(statements)
    if checking, answers.count > opened {
      try takeSchema(answers[opened], writing: true, place: place)
    }
    guard answers.count >= opened + 3, let last = answers.last else {
      throw PostgresError.badData(place, "the last order number is not a number")
    }
    try Self.checkTable(answers[answers.count - 2], place: place)
    // Read in the transaction the rows will be copied in, after the lock: shop's settings
    // hold there, or nothing is sent.
    try Self.checkDurable(last, from: 3, on: connection)
    let numbering = try Numbering(last, from: 0, place: place)
    try numbering.check(place)
    return numbering
  }

  /// The four arrays the INSERT reads, in the binary format: nothing to quote or escape.
  private func columns(of drafts: [Draft]) -> [PostgresParameter] {
    var times = PostgresArray(elementType: PostgresArray.int8, capacity: 12 * drafts.count)
    var items = PostgresArray(elementType: PostgresArray.jsonb, capacity: 100 * drafts.count)
    var totals = PostgresArray(elementType: PostgresArray.int8, capacity: 12 * drafts.count)
    var payables = PostgresArray(elementType: PostgresArray.int8, capacity: 12 * drafts.count)
    var json: [UInt8] = []
    for draft in drafts {
      times.append(Int(draft.placedAt.secondsSince1970))
      totals.append(draft.total)
      payables.append(Order.payable(total: draft.total))
      json.removeAll(keepingCapacity: true)
      OrderJSON.appendItems(draft.lines, to: &json)
      items.appendJSONB(json)
    }
    return [times.parameter, items.parameter, totals.parameter, payables.parameter]
  }

  /// Refuses (69, nothing saved) when the row's two columns from `column`
  /// (``PostgresConnection/settingsColumns``) are not the settings shop began with.
  static func checkDurable(
    _ result: PostgresResult, from column: Int, on connection: PostgresConnection
  ) throws {
    let synchronousCommit = result.text(0, column)
    let isolation = result.text(0, column + 1)
    guard ["on", "remote_apply"].contains(synchronousCommit), isolation == "read committed"
    else {
      throw connection.notDurable(synchronousCommit: synchronousCommit, isolation: isolation)
    }
  }
}
