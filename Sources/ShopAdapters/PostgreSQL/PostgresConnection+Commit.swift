import ShopCore

extension PostgresConnection {
  /// How a transaction sent with its COMMIT ended.
  enum CommitOutcome {
    /// Committed; the answers of the statements, in order.
    case committed([PostgresResult])
    /// The server refused a statement or the commit: nothing was saved. The answers that
    /// came before the refusal, in order.
    case refused(PostgresError, [PostgresResult])
    /// No answer to COMMIT, once sent: saved or not, nobody can tell here. The answers that
    /// did arrive, in order, and why the rest did not.
    case unknown([PostgresResult], why: String)
  }

  /// Sends BEGIN and shop's settings (``opening``), `statements` and COMMIT in one round
  /// trip (libpq's pipeline mode), then reads every answer. Each statement sees the ones
  /// before it, so a lock taken by one holds for the next. `begun`: the transaction was
  /// opened, with the opening, by an earlier trip; only `statements` and COMMIT are sent,
  /// and a cancelled trip is not sent again here (its opening and lock are gone with the
  /// ROLLBACK): the caller starts over.
  func runInOneTrip(_ statements: [Statement], begun: Bool = false) -> CommitOutcome {
    var attempt = 1
    while true {
      settingsCancelled = false
      let outcome = runInOneTripOnce(statements, begun: begun)
      // Cancelled before COMMIT (``settingAttempts``): nothing was saved.
      guard case .refused = outcome, settingsCancelled, !begun,
        attempt < Self.settingAttempts
      else {
        return outcome
      }
      attempt += 1
      if !isLost && pq.transactionStatus(connection) != LibPQ.transactionIdle {
        _ = try? run("ROLLBACK")
      }
    }
  }

  private func runInOneTripOnce(_ statements: [Statement], begun: Bool) -> CommitOutcome {
    guard !isLost else { return .refused(.unavailable(place, lostReason), []) }
    var opening = begun ? [] : self.opening
    if !holdsTransactions && !begun {
      // The first time, the opening goes alone and its answer is read: a pooler in statement
      // mode refuses a transaction that outlives its round trip, before anything can be saved.
      do {
        try run(opening)
      } catch {
        return .refused(error, [])
      }
      holdsTransactions = true
      opening = []
    }
    guard pq.enterPipelineMode(connection) == 1 else { return .refused(failure(nil), []) }
    defer { if !isLost { _ = pq.exitPipelineMode(connection) } }
    let all = opening + statements + [Statement(sql: "COMMIT")]
    for (index, statement) in all.enumerated() {
      let sent = PostgresConnection.withParameters(statement.parameters) {
        values, lengths, formats in
        pq.sendQueryParams(
          connection, statement.sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
      // Until COMMIT is queued, nothing can be saved, whatever happened to the connection.
      guard sent == 1 else {
        return index < all.count - 1 ? .refused(failure(nil), []) : .unknown([], why: lostReason)
      }
      // The server sends its answers only at the sync unless asked: ask before COMMIT, so
      // the numbers arrive even when COMMIT's answer never does (a standby that never
      // confirms), and a 75 can name them.
      if index == all.count - 2 { _ = pq.sendFlushRequest(connection) }
    }
    // From here COMMIT may be on its way: a wait that times out is an unknown outcome.
    guard pq.pipelineSync(connection) == 1 else { return .unknown([], why: lostReason) }
    let until = deadline()
    var answers: [PostgresResult] = []
    for index in all.indices {
      // libpq reads the warnings of COMMIT's answer only when asked for that answer.
      if index == all.count - 1 { warnings.clear() }
      guard let result = nextResult(until: until) else {
        return .unknown(answers, why: lostReason)
      }
      let answer = PostgresResult(result, pq)
      // The NULL that ends each statement's answer.
      if let extra = nextResult(until: until) { pq.clear(extra) }
      let isCommit = index == all.count - 1
      switch pq.status(of: result) {
      case .commandOK, .tuplesOK:
        // COMMIT of a transaction the server already aborted answers ROLLBACK.
        if isCommit && answer.command != "COMMIT" {
          drainToSync(until: until)
          return .refused(.unavailable(place, "the server rolled the orders back"), answers)
        }
        if isCommit, let why = unconfirmedByWarning() {
          drainToSync(until: until)
          return .unknown(answers, why: why)
        }
        if index >= opening.count && !isCommit { answers.append(answer) }
      default:
        if !isCommit {
          // The server's own error (it has a SQLSTATE), even one that ends the session, means
          // it stopped there and skipped the rest, COMMIT too.
          let fromServer = pq.resultErrorField(result, PostgresConnection.sqlStateField) != nil
          if isLost && !fromServer { return .unknown(answers, why: lostReason) }
        } else if isLost || endsSession(result) {
          // An error that ends the session can come after the commit is on disk (a wait for
          // a standby cut short), so only a plain ERROR means nothing was saved.
          return .unknown(answers, why: lostReason)
        }
        let error = failure(result, needs: !isCommit ? all[index].needs : nil)
        drainToSync(until: until)
        settingsCancelled = !isCommit && error.sqlState == "57014"
        return .refused(error, answers)
      }
    }
    drainToSync(until: until)
    return .committed(answers)
  }

  /// Reads and drops answers up to the pipeline's sync, so pipeline mode can end and the
  /// connection can roll back.
  func drainToSync(until deadline: Int64) {
    var nulls = 0
    while !isLost && nulls < 2 {
      guard let result = nextResult(until: deadline) else {
        nulls += 1
        continue
      }
      nulls = 0
      let status = pq.status(of: result)
      pq.clear(result)
      if status == .pipelineSync { return }
    }
  }

  /// Runs `sql`, a `COPY … FROM STDIN (FORMAT binary)`, with `rows` (`count` of them) as its
  /// data, then COMMIT in a trip of its own: only when the server says it copied every row,
  /// since a row it skipped would be an order reported and never kept. A short count is
  /// refused (65) with COMMIT unsent, so the caller's ROLLBACK leaves nothing saved.
  func copyThenCommit(
    _ sql: String, _ rows: consuming PostgresCopyRows, count: Int, needs: String?
  ) -> CommitOutcome {
    guard !isLost else { return .refused(.unavailable(place, lostReason), []) }
    guard pq.sendQuery(connection, sql) == 1 else { return .refused(failure(nil), []) }
    let until = deadline()
    guard let started = nextResult(until: until) else {
      return .refused(timedOut ? .unavailable(place, lostReason) : failure(nil), [])
    }
    let start = PostgresResult(started, pq)
    if let error = refusal(started, unless: .copyIn, needs: needs, until: until) {
      return .refused(error, [])
    }
    _ = start
    let data = rows.finished()
    // Non-blocking, libpq answers 0 when it can't queue yet: send what it holds, then retry.
    var put: Int32 = 0
    repeat {
      put = data.withUnsafeBytes { bytes in
        pq.putCopyData(
          connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
          Int32(clamping: bytes.count))
      }
    } while put == 0 && System.monotonicMilliseconds() < until && flush(until: until)
    var ended: Int32 = 0
    if put == 1 && flush(until: until) {
      repeat {
        ended = pq.putCopyEnd(connection, nil)
      } while ended == 0 && System.monotonicMilliseconds() < until && flush(until: until)
    }
    // COMMIT is not sent yet: whatever fails here, nothing was saved.
    guard ended == 1, let copied = nextResult(until: until) else {
      return .refused(timedOut ? .unavailable(place, lostReason) : failure(nil), [])
    }
    let copy = PostgresResult(copied, pq)
    if let error = refusal(copied, unless: .commandOK, needs: needs, until: until) {
      return .refused(error, [])
    }
    drain(until: until)
    guard copy.affectedRows == count else {
      let kept = copy.affectedRows.map(String.init) ?? "none"
      return .refused(
        .badData(
          place,
          "the server kept \(kept) of the \(count == 1 ? "1 order" : "\(count) orders") it was "
            + "sent: the table's triggers "
            + "or rules are not shop's; nothing was saved"), [copy])
    }
    return commit(until: deadline(), after: [copy])
  }

  /// The error `result` says when its status is not `expected`, once the answers after it
  /// are read; nil when it is.
  private func refusal(
    _ result: LibPQ.Answer, unless expected: LibPQ.Status, needs: String?, until: Int64
  ) -> PostgresError? {
    guard pq.status(of: result) != expected else { return nil }
    let error = failure(result, needs: needs)
    drain(until: until)
    return error
  }

  /// Sends COMMIT alone and reads its answer: once it is sent, no answer is an unknown outcome.
  private func commit(until deadline: Int64, after answers: [PostgresResult]) -> CommitOutcome {
    guard !isLost else { return .refused(.unavailable(place, lostReason), answers) }
    warnings.clear()
    guard pq.sendQuery(connection, "COMMIT") == 1 else {
      return .refused(failure(nil), answers)
    }
    guard let result = nextResult(until: deadline) else {
      return .unknown(answers, why: lostReason)
    }
    let answer = PostgresResult(result, pq)
    guard pq.status(of: result) == .commandOK else {
      if isLost || endsSession(result) { return .unknown(answers, why: lostReason) }
      let error = failure(result)
      drain(until: deadline)
      return .refused(error, answers)
    }
    drain(until: deadline)
    // COMMIT of a transaction the server already aborted answers ROLLBACK.
    guard answer.command == "COMMIT" else {
      return .refused(.unavailable(place, "the server rolled the orders back"), answers)
    }
    if let why = unconfirmedByWarning() { return .unknown(answers, why: why) }
    return .committed(answers + [answer])
  }

  /// Why a COMMIT the server answered with success is not confirmed as shop needs: a warning
  /// came with it. PostgreSQL sends one when its wait for a synchronous standby is cancelled
  /// (an administrator's `pg_cancel_backend`, a statement timeout): the orders are saved on
  /// this server and perhaps not on the standby, where a failover would lose them. A
  /// translated message can't be told from another warning, so any warning counts: such an
  /// outcome is reported as unconfirmed, never as durable.
  private func unconfirmedByWarning() -> String? {
    guard let warning = warnings.texts.first else { return nil }
    return "the server answered COMMIT with \"\(warning)\": committed on that server, perhaps "
      + "not on its synchronous standby, where a failover would lose them"
  }
}
