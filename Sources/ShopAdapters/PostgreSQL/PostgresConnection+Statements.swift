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
    let lock = answerLimit - min(1000, answerLimit / 2)
    return [
      Statement(sql: PostgresConnection.begin),
      Statement(
        sql: "SELECT pg_catalog.set_config('synchronous_commit', CASE "
          + "pg_catalog.current_setting('synchronous_commit') WHEN 'remote_apply' THEN "
          + "'remote_apply' ELSE 'on' END, true), "
          + "pg_catalog.set_config('lock_timeout', '\(lock)', true), "
          + "pg_catalog.set_config('statement_timeout', '\(answerLimit + 1000)', true), "
          + "pg_catalog.set_config('idle_in_transaction_session_timeout', '\(answerLimit)', "
          + "true)"),
    ]
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
    guard !isLost else { throw PostgresError.unavailable(place, lostReason) }
    let sent: Int32
    if statements.count == 1, let statement = statements.first, !statement.parameters.isEmpty {
      sent = PostgresConnection.withParameters(statement.parameters) {
        values, lengths, formats in
        pq.sendQueryParams(
          connection, statement.sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
    } else {
      sent = pq.sendQuery(connection, statements.map(\.sql).joined(separator: "; "))
    }
    guard sent == 1 else { throw failure(nil) }
    let until = deadline()
    var answers: [PostgresResult] = []
    while let result = nextResult(until: until) {
      let answer = PostgresResult(result, pq)
      switch pq.status(of: result) {
      case .commandOK, .tuplesOK:
        answers.append(answer)
      default:
        let failed = statements.indices.contains(answers.count) ? answers.count : nil
        let error = failure(result, needs: failed.flatMap { statements[$0].needs })
        drain(until: until)
        throw error
      }
    }
    if timedOut { throw PostgresError.unavailable(place, lostReason) }
    guard answers.count == statements.count || statements.count == 1 && !answers.isEmpty else {
      throw failure(nil)
    }
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
    let sent = PostgresConnection.withParameters(parameters) { values, lengths, formats in
      pq.sendQueryParams(connection, sql, Int32(values.count), nil, values, lengths, formats, 0)
    }
    guard sent == 1 else { throw failure(nil) }
    _ = pq.setSingleRowMode(connection)
    var stopped: (any Error)?
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
