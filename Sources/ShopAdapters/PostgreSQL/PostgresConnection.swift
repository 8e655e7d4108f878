import ShopCore

/// One connection to the server, through libpq. Not shared between threads.
///
/// Every wait on the server is bounded: libpq runs non-blocking, and each wait is a `poll`
/// with a deadline. Connecting may take `connect_timeout` seconds (the URI's, else
/// `PGCONNECT_TIMEOUT`, else 10); each answer after that `shop_timeout` seconds (the URI's,
/// else 30). A statement that has sent its COMMIT and then times out is an unknown outcome.
final class PostgresConnection {
  let place: PostgresPlace
  let pq: LibPQ
  let connection: OpaquePointer
  /// The longest wait for one answer, in milliseconds, and the same in words.
  let answerLimit: Int64
  private let answerWords: String
  /// A wait timed out: the server may still answer later, so nothing more is sent.
  private(set) var timedOut = false
  /// The last round trip failed at the statement that sets shop's timeouts, cancelled by the
  /// role's or database's own `statement_timeout`: nothing else ran, so it may run again.
  var settingsCancelled = false
  /// The server's warnings, as libpq reads them; it holds the receiver's context, so it
  /// lives as long as the connection.
  let warnings: ServerWarnings

  /// What the URI says unless told otherwise.
  static let defaultConnectTimeout = 10
  static let defaultAnswerTimeout = 30

  /// Loads `library` (libpq), connects and checks the connection; libpq reads the URI, so
  /// every libpq option works.
  /// - Throws: ``PostgresError`` 69 when libpq can't be loaded, or the server can't be
  ///   reached, refuses us or doesn't answer in time, 64 when `uri` is not a URI libpq reads.
  /// `connectTimeoutVariable` is `$PGCONNECT_TIMEOUT` as the root read it (nil: unset).
  init(uri: String, library: String, connectTimeoutVariable: String? = nil)
    throws(PostgresError)
  {
    let (libpqURI, answerTimeout) = try PostgresPlace.shopParameters(of: uri).get()
    let pq = try LibPQ(loading: library)
    let parsed = try PostgresPlace.parse(libpqURI, pq).get()
    // No startup `options`: a pooler refuses or drops them. shop's settings go inside each
    // transaction (``opening``); the URI's own options are libpq's to send.
    let keywords = ["fallback_application_name", "dbname"]
    let values = ["shop", libpqURI]
    let started = PostgresConnection.withCStrings(keywords) { keywords in
      PostgresConnection.withCStrings(values) { values in
        pq.connectStartParams(keywords, values, 1)
      }
    }
    guard let started else { throw PostgresError.unavailable(parsed, "out of memory") }
    // libpq applies connect_timeout only when it blocks; here `shop` does: the URI's, else
    // PGCONNECT_TIMEOUT's, else what libpq settled on (a service file's), else the default,
    // each counted only when above 0.
    let settled = pq.options(pq.conninfo(started))?.first { $0.keyword == "connect_timeout" }
    let seconds = PostgresConnection.connectTimeout(
      uri: parsed.connectTimeout, variable: connectTimeoutVariable, settled: settled?.value)
    let deadline = System.monotonicMilliseconds() &+ Int64(seconds) &* 1000
    var state = LibPQ.Polling.writing
    while pq.status(started) != LibPQ.connectionBad && state != .ok && state != .failed {
      let socket = pq.socket(started)
      if socket >= 0 {
        let ready = System.waitFor(
          socket, reading: state == .reading,
          writing: state == .writing, until: deadline)
        if ready.timedOut {
          let used = parsed.used(by: started, pq)
          pq.finish(started)
          throw PostgresError.unavailable(
            used, "can't connect: no answer within \(seconds) s (connect_timeout)")
        }
      }
      state = LibPQ.Polling(rawValue: pq.connectPoll(started)) ?? .failed
    }
    // Name the database and server libpq used, defaults and PG* variables applied: a
    // socket URI with no host is not "localhost".
    let used = parsed.used(by: started, pq)
    guard pq.status(started) == LibPQ.connectionOK, pq.setnonblocking(started, 1) == 0 else {
      let reason = LibPQ.text(pq.errorMessage(started))
      pq.finish(started)
      throw PostgresError.unavailable(used, "can't connect: \(reason)")
    }
    // The server's notices (a table that already exists) are not for the user's terminal;
    // its warnings are kept, for COMMIT's (``ServerWarnings``).
    let warnings = ServerWarnings(pq)
    _ = pq.setNoticeReceiver(started, ServerWarnings.receive, warnings.context)
    self.warnings = warnings
    self.place = used
    self.pq = pq
    self.connection = started
    self.answerLimit = Int64(answerTimeout) * 1000
    self.answerWords = "\(answerTimeout) s (shop_timeout)"
  }

  deinit {
    pq.finish(connection)
  }

  /// The bound on connecting, in seconds: the URI's connect_timeout, else
  /// `$PGCONNECT_TIMEOUT`, else the one libpq settled on (a service file's), else the
  /// default; a value that is unset, zero or less (libpq's "forever") or not a number counts
  /// as unset and falls through: no wait is unbounded, and none is longer than a day.
  static func connectTimeout(uri: String?, variable: String?, settled: String? = nil) -> Int {
    for value in [uri, variable, settled] {
      // At most a day, as `shop_timeout`: a larger bound would overflow the deadline.
      if let value, let seconds = Int(value), seconds > 0 { return min(seconds, 86_400) }
    }
    return defaultConnectTimeout
  }

  /// PG_DIAG_SQLSTATE and PG_DIAG_SEVERITY_NONLOCALIZED, character macros Swift does not
  /// import.
  static let sqlStateField = Int32(UInt8(ascii: "C"))
  static let severityField = Int32(UInt8(ascii: "V"))
  /// PG_DIAG_MESSAGE_PRIMARY: the message without its `ERROR:` prefix.
  static let messageField = Int32(UInt8(ascii: "M"))

  /// The server reported an error that ends the session (FATAL, PANIC): it is going away.
  func endsSession(_ result: OpaquePointer) -> Bool {
    // A pooler's error has only the localized severity ('S'), which it does not localize.
    guard
      let severity = pq.resultErrorField(result, PostgresConnection.severityField)
        ?? pq.resultErrorField(result, Int32(UInt8(ascii: "S")))
    else {
      return false
    }
    let text = String(cString: severity)
    return text == "FATAL" || text == "PANIC"
  }

  /// A transaction's opening held through its own round trip on this connection, so a pooler
  /// between shop and the server lets a transaction span round trips (statement mode
  /// doesn't): ``runInOneTrip(_:)`` sends the opening alone the first time.
  var holdsTransactions = false

  /// The session ended while nobody was waiting on it (`idle_session_timeout`, a pooler's
  /// client timeout, a server that restarted, or a failure already reported): nothing was
  /// in flight, so a new connection may take its place. Never after a wait that timed out,
  /// whose server may still be working.
  var endedWhileIdle: Bool {
    guard !timedOut else { return false }
    // The server's last words (a FATAL error), then the end of the stream, if that is what
    // came: libpq marks the connection bad when it reads the end. Each read takes what is
    // there, so a few suffice; a server that keeps talking is not one that left.
    for _ in 0..<4
    where pq.status(connection) == LibPQ.connectionOK && System.isReadable(pq.socket(connection)) {
      if pq.consumeInput(connection) == 0 { break }
    }
    return pq.status(connection) != LibPQ.connectionOK
  }

  /// The connection is gone, or can't be trusted after a wait that timed out: nothing more
  /// can be sent on it.
  var isLost: Bool { timedOut || pq.status(connection) != LibPQ.connectionOK }

  /// Why an answer did not come, for messages.
  var lostReason: String {
    timedOut
      ? "no answer within \(answerWords)"
      : [
        "the connection was lost",
        PostgresPlace.firstLine(LibPQ.text(pq.errorMessage(connection))),
      ]
      .filter { !$0.isEmpty }.joined(separator: ": ")
  }

  // MARK: - Waiting, with deadlines

  func deadline() -> Int64 { System.monotonicMilliseconds() &+ answerLimit }

  /// Sends what libpq holds; false when the connection failed or the deadline passed.
  func flush(until deadline: Int64) -> Bool {
    while true {
      let left = pq.flush(connection)
      if left == 0 { return true }
      if left < 0 { return false }
      let ready = System.waitFor(
        pq.socket(connection), reading: true, writing: true, until: deadline)
      if ready.timedOut {
        timedOut = true
        return false
      }
      // The server may be sending while we do: take it in, or both sides wait.
      if ready.readable && pq.consumeInput(connection) == 0 { return false }
    }
  }

  /// The next answer of the query in progress, nil at its end, or nil with `timedOut` set
  /// when the deadline passed first. Never blocks past the deadline.
  func nextResult(until deadline: Int64) -> OpaquePointer? {
    guard !timedOut, flush(until: deadline) else { return nil }
    while pq.isBusy(connection) == 1 {
      let ready = System.waitFor(
        pq.socket(connection), reading: true, writing: false, until: deadline)
      if ready.timedOut {
        timedOut = true
        return nil
      }
      // A failure leaves an error for PQgetResult to hand back, or the connection bad.
      if pq.consumeInput(connection) == 0 { break }
    }
    return pq.getResult(connection)
  }

  /// Reads and drops the answers left of the query in progress.
  func drain(until deadline: Int64) {
    while let rest = nextResult(until: deadline) { pq.clear(rest) }
  }

  /// What went wrong, from the result's message or else the connection's. `needs` names
  /// the privilege the statement needs, for a refusal for lack of one.
  func failure(_ result: OpaquePointer?, needs: String? = nil) -> PostgresError {
    if timedOut { return .unavailable(place, lostReason) }
    var reason = result.map { LibPQ.text(pq.resultErrorMessage($0)) } ?? ""
    if reason.isEmpty { reason = LibPQ.text(pq.errorMessage(connection)) }
    if reason.isEmpty { reason = "no answer" }
    let code = result.flatMap { pq.resultErrorField($0, PostgresConnection.sqlStateField) }.map {
      String(cString: $0)
    }
    // Labelled by what happened: the server's own error (it has a SQLSTATE) is the server's,
    // whatever became of the connection after it.
    guard let code else {
      return .unavailable(
        place, isLost ? "the connection was lost: \(reason)" : "refused: \(reason)")
    }
    if reason.holdsText("pooling mode") {
      // pgbouncer's words, which it does not translate.
      return .unavailable(
        place,
        "a connection pooler refused shop's transaction (\(PostgresPlace.firstLine(reason))): "
          + "it runs in statement mode, where a transaction can't span round trips; shop "
          + "needs session or transaction mode (pgbouncer's pool_mode); nothing was saved",
        sqlState: code)
    }
    if code == "25006" {
      // The server reports `in_hot_standby` (PostgreSQL 14 and later) when it is a standby.
      let standby = pq.parameterStatus(connection, "in_hot_standby").map { String(cString: $0) }
      return .unavailable(
        place, PostgresError.readOnlyAdvice(reason, standby: standby == "on"), sqlState: code)
    }
    if result.map(endsSession) == true {
      return .unavailable(place, "the server ended the session: \(reason)", sqlState: code)
    }
    // Class 22, a data exception: a stored value that is no order's (a placed_at of
    // 'infinity'), or a number past the largest bigint. Bad data, not a server out of reach.
    if code.hasPrefix("22") {
      return .badData(place, place.redacted(reason))
    }
    if code == "42501" {
      let primary =
        result.flatMap { pq.resultErrorField($0, PostgresConnection.messageField) }
        .map { String(cString: $0) } ?? PostgresPlace.firstLine(reason)
      return .unavailable(
        place, primary + ": " + PostgresError.privilegeAdvice(primary, needs), sqlState: code)
    }
    return .unavailable(place, "refused: \(reason)", sqlState: code)
  }

  // MARK: - C strings

  private static func withCStrings<R>(
    _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R
  ) -> R {
    // libpq's keyword and value lists end with NULL.
    withParameters(
      strings.map { PostgresParameter(text: Array($0.utf8)) } + [PostgresParameter()]
    ) { values, _, _ in body(values) }
  }

  /// Copies the parameters into memory that lives for the call, with their lengths and
  /// formats (0 text, 1 binary) as libpq takes them; nil stays NULL.
  static func withParameters<R>(
    _ parameters: [PostgresParameter],
    _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> R
  ) -> R {
    var copies: [UnsafeMutableBufferPointer<CChar>] = []
    copies.reserveCapacity(parameters.count)
    defer { for copy in copies { copy.deallocate() } }
    var pointers: [UnsafePointer<CChar>?] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []
    for parameter in parameters {
      formats.append(parameter.binary ? 1 : 0)
      guard let bytes = parameter.bytes else {
        pointers.append(nil)
        lengths.append(0)
        continue
      }
      let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
      _ = bytes.withUnsafeBytes { copy.initialize(from: $0.bindMemory(to: CChar.self)) }
      copies.append(copy)
      pointers.append(copy.baseAddress.map { UnsafePointer($0) })
      lengths.append(Int32(clamping: bytes.count))
    }
    return body(pointers, lengths, formats)
  }
}
