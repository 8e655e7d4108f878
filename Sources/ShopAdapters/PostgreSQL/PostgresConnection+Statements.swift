import ShopCore

extension PostgresConnection {
  /// How every transaction of `shop`'s starts, whatever `default_transaction_isolation` the
  /// database, the role or the URI sets: a later isolation level would read the numbering
  /// in a snapshot taken before the lock, and see a stale last number.
  static let begin = "BEGIN ISOLATION LEVEL READ COMMITTED"

  /// BEGIN, then shop's settings for this transaction alone (`set_config(…, true)` is
  /// `SET LOCAL`), sent with the transaction's first statements: set inside the transaction,
  /// they hold through a pooler in session or transaction mode, which can't drop them as it
  /// drops startup parameters. `synchronous_commit` is raised to `on` and never lowered: the
  /// levels run `off`, `local`, `remote_write`, `on`, `remote_apply`, and only
  /// `remote_apply`, the one above `on`, is kept. `shop_timeout` governs the waits: the
  /// table's lock is refused by the server (nothing saved) a little before shop stops
  /// waiting, a statement runs no longer than shop waits for it, and an idle moment inside
  /// the transaction may last as long, whatever the role or the database sets.
  var opening: [Statement] {
    [
      Statement(sql: PostgresConnection.begin),
      Statement(
        sql: "SELECT pg_catalog.set_config('synchronous_commit', CASE "
          + "pg_catalog.current_setting('synchronous_commit') WHEN 'remote_apply' THEN "
          + "'remote_apply' ELSE 'on' END, true), " + timeoutSettings),
    ]
  }

  /// shop's three timeouts, for the transaction they are set in (`set_config(…, true)`).
  private var timeoutSettings: String {
    let lock = answerLimit - min(1000, answerLimit / 2)
    return "pg_catalog.set_config('lock_timeout', '\(lock)', true), "
      + "pg_catalog.set_config('statement_timeout', '\(answerLimit + 1000)', true), "
      + "pg_catalog.set_config('idle_in_transaction_session_timeout', '\(answerLimit)', true)"
  }

  /// What runs outside shop's transactions (a reader's statements, a writer's checks before
  /// its own) is sent after ``timeoutSettings`` in the same round trip: the settings last
  /// until that round trip's implicit transaction ends, so a role's or database's
  /// `statement_timeout = '1ms'` can't fail a reader, and nothing outlives the round trip
  /// on a pooled server connection.
  private var readingTimeouts: Statement { Statement(sql: "SELECT " + timeoutSettings) }

  /// True when `statements` would run in no transaction block: not inside one of shop's
  /// transactions, and not its BEGIN, COMMIT or ROLLBACK.
  private func outsideTransaction(_ statements: [Statement]) -> Bool {
    guard pq.transactionStatus(connection) == LibPQ.transactionIdle,
      let first = statements.first?.sql
    else { return false }
    return !["BEGIN", "COMMIT", "ROLLBACK"].contains { first.hasPrefix($0) }
  }

  /// True in a transaction whose commit is durable as shop needs and whose isolation is the
  /// one it began: tested by the statement that writes, in the same transaction, so a pooler
  /// that ran the settings in another session can't let an order be saved without them.
  static let durableSQL =
    "pg_catalog.current_setting('synchronous_commit') IN ('on', 'remote_apply') "
    + "AND pg_catalog.current_setting('transaction_isolation') = 'read committed'"

  /// The settings ``durableSQL`` tests, as two columns.
  static let settingsColumns =
    "pg_catalog.current_setting('synchronous_commit'), "
    + "pg_catalog.current_setting('transaction_isolation')"

  /// The refusal when the writing statement found the settings not in force.
  func notDurable(synchronousCommit: String?, isolation: String?) -> PostgresError {
    .unavailable(
      place,
      "the transaction runs with synchronous_commit = \(synchronousCommit ?? "unknown") and "
        + "\(isolation ?? "an unknown isolation"), not the on (or stronger) and read committed "
        + "that shop set at its start: something between shop and the server (a pooler in "
        + "statement mode?) ran them in another session, so a commit could be reported and "
        + "then lost; nothing was saved")
  }

  /// A statement with `$1`… bound to its parameters, and the privilege it needs on what,
  /// for the message when the server refuses it for lack of one (SQLSTATE 42501).
  struct Statement {
    let sql: String
    var parameters: [PostgresParameter] = []
    var needs: String? = nil
  }

  /// Runs one statement with `$1`… bound to its parameters (data never becomes SQL text),
  /// or several without parameters in one query string, in one round trip. Returns every
  /// statement's answer, in order.
  @discardableResult
  func run(_ statements: [Statement]) throws(PostgresError) -> [PostgresResult] {
    try again { () throws(PostgresError) in try runOnce(statements) }
  }

  /// How often a round trip that starts shop's settings is tried when the server cancels it
  /// (SQLSTATE 57014) before any COMMIT: the statement that sets them runs under the role's
  /// own `statement_timeout`, and a new session's first statement, whose catalog caches are
  /// cold, can take a few milliseconds; a timeout that fires at its very end cancels the next
  /// one instead (`… due to user request`). Nothing was saved; the next try finds the caches
  /// warm. shop's own statement_timeout is longer than it waits, so it is never the cause.
  static let settingAttempts = 5

  func again<Result>(_ body: () throws(PostgresError) -> Result) throws(PostgresError)
    -> Result
  {
    var attempt = 1
    while true {
      settingsCancelled = false
      do {
        return try body()
      } catch {
        guard settingsCancelled, attempt < PostgresConnection.settingAttempts else { throw error }
        attempt += 1
        // A transaction that began before them waits for its end.
        if pq.transactionStatus(connection) != LibPQ.transactionIdle {
          _ = try? runOnce([Statement(sql: "ROLLBACK")])
        }
      }
    }
  }

  private func runOnce(_ statements: [Statement]) throws(PostgresError) -> [PostgresResult] {
    guard !isLost else { throw PostgresError.unavailable(place, lostReason) }
    let outside = outsideTransaction(statements)
    let sent: Int32
    if statements.count == 1, let statement = statements.first, !statement.parameters.isEmpty {
      // One statement with parameters: with the timeouts, it takes a pipeline.
      if outside { return try runPipelined(statement) }  // Tried ``again`` by ``run``.
      sent = PostgresConnection.withParameters(statement.parameters) {
        values, lengths, formats in
        pq.sendQueryParams(
          connection, statement.sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
    } else {
      // Several statements in one string run in one implicit transaction: the timeouts
      // set by the first hold for the rest.
      let all = outside ? [readingTimeouts] + statements : statements
      sent = pq.sendQuery(connection, all.map(\.sql).joined(separator: "; "))
    }
    guard sent == 1 else { throw failure(nil) }
    let skipped = outside ? 1 : 0
    let until = deadline()
    var answers: [PostgresResult] = []
    while let result = nextResult(until: until) {
      let answer = PostgresResult(result, pq)
      switch pq.status(of: result) {
      case .commandOK, .tuplesOK:
        answers.append(answer)
      default:
        let index = answers.count - skipped
        let failed = statements.indices.contains(index) ? index : nil
        let error = failure(result, needs: failed.flatMap { statements[$0].needs })
        drain(until: until)
        // A round trip outside a transaction, or one that begins its own, may run again.
        let whole = outside || statements.first?.sql == Self.begin
        settingsCancelled = whole && error.sqlState == "57014"
        throw error
      }
    }
    if timedOut { throw PostgresError.unavailable(place, lostReason) }
    answers.removeFirst(min(skipped, answers.count))
    guard answers.count == statements.count || statements.count == 1 && !answers.isEmpty else {
      throw failure(nil)
    }
    return answers
  }

  /// Sends ``readingTimeouts`` and `statement` in one round trip (libpq's pipeline mode, as
  /// `statement` has parameters), and reads both answers, up to the sync: the statement's
  /// answer, or, `streaming`, each of its rows handed to `visit` as it arrives (single-row
  /// mode) and no answer.
  private func runPipelined(
    _ statement: Statement, streaming: Bool = false, visit: (PostgresResult) -> Void = { _ in }
  ) throws(PostgresError) -> [PostgresResult] {
    guard pq.enterPipelineMode(connection) == 1 else { throw failure(nil) }
    defer { if !isLost { _ = pq.exitPipelineMode(connection) } }
    let all = [readingTimeouts, statement]
    for sending in all {
      let sent = PostgresConnection.withParameters(sending.parameters) {
        values, lengths, formats in
        pq.sendQueryParams(
          connection, sending.sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
      guard sent == 1 else { throw failure(nil) }
    }
    guard pq.pipelineSync(connection) == 1 else { throw failure(nil) }
    let until = deadline()
    var answers: [PostgresResult] = []
    var refused: PostgresError?
    var visited = false
    for index in all.indices {
      let streaming = streaming && index == all.count - 1
      if streaming { _ = pq.setSingleRowMode(connection) }
      // Each row of a streamed answer has its own bound, as in ``stream``.
      while let result = nextResult(until: streaming ? deadline() : until) {
        let answer = PostgresResult(result, pq)
        switch pq.status(of: result) {
        case .singleTuple:
          if refused == nil {
            visited = true
            visit(answer)
          }
        case .commandOK, .tuplesOK:
          if index > 0 && !streaming { answers.append(answer) }
        case .pipelineAborted:
          break
        default:
          if refused == nil {
            refused = failure(result, needs: index > 0 ? all[index].needs : nil)
            // Sent again only if no row was handed on: none may be handed on twice.
            settingsCancelled = !visited && refused?.sqlState == "57014"
          }
        }
      }
      if timedOut || isLost { throw refused ?? PostgresError.unavailable(place, lostReason) }
    }
    drainToSync(until: until)
    if let refused { throw refused }
    if timedOut { throw PostgresError.unavailable(place, lostReason) }
    guard answers.count == 1 || streaming else { throw failure(nil) }
    return answers
  }

  /// Runs `sql`, which may hold several statements but no parameters; returns the last
  /// statement's answer.
  @discardableResult
  func run(_ sql: String) throws(PostgresError) -> PostgresResult {
    let answers = try run([Statement(sql: sql)])
    guard let last = answers.last else { throw failure(nil) }
    return last
  }

  /// One statement with `$1`… bound to `parameters`.
  @discardableResult
  func run(_ sql: String, _ parameters: [PostgresParameter], needs: String? = nil)
    throws(PostgresError) -> PostgresResult
  {
    let answers = try run([Statement(sql: sql, parameters: parameters, needs: needs)])
    guard let last = answers.last else { throw failure(nil) }
    return last
  }

  /// Runs one query and hands each row to `visit` as it arrives (libpq's single-row mode),
  /// so memory does not grow with the rows. Each row must come within the answer timeout.
  /// After an error the rest is read and dropped.
  func stream(
    _ sql: String, _ parameters: [PostgresParameter], needs: String? = nil,
    _ visit: (PostgresResult) throws -> Void
  ) throws {
    guard !isLost else { throw PostgresError.unavailable(place, lostReason) }
    let statement = Statement(sql: sql, parameters: parameters, needs: needs)
    var stopped: (any Error)?
    if outsideTransaction([statement]) {
      do {
        // Sent again only when cancelled before its first row (``runPipelined``).
        _ = try again { () throws(PostgresError) in
          try runPipelined(statement, streaming: true) { row in
            guard stopped == nil else { return }
            do { try visit(row) } catch { stopped = error }
          }
        }
      } catch {
        // A row `visit` refused comes before the server's error that followed it.
        throw stopped ?? (error as any Error)
      }
      if let stopped { throw stopped }
      return
    }
    let sent = PostgresConnection.withParameters(parameters) { values, lengths, formats in
      pq.sendQueryParams(connection, sql, Int32(values.count), nil, values, lengths, formats, 0)
    }
    guard sent == 1 else { throw failure(nil) }
    _ = pq.setSingleRowMode(connection)
    while let result = nextResult(until: deadline()) {
      let row = PostgresResult(result, pq)
      guard stopped == nil else { continue }
      switch pq.status(of: result) {
      case .singleTuple:
        do { try visit(row) } catch { stopped = error }
      case .tuplesOK, .commandOK:
        break
      default:
        stopped = failure(result, needs: needs)
      }
    }
    if let stopped { throw stopped }
    if timedOut { throw PostgresError.unavailable(place, lostReason) }
  }
}
