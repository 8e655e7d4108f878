#if PostgreSQL
  import CLibPQ
  import ShopCore

  /// Why the PostgreSQL store stopped a command; every message names the database and its host
  /// and never the password.
  public struct PostgresError: ShopError, Equatable, CustomStringConvertible {
    public let status: ExitStatus
    public let message: String
    /// The server's SQLSTATE, when it answered with an error.
    var sqlState: String? = nil

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
    static func unconfirmed(
      _ place: PostgresPlace, first: Int?, count: Int, lastReported: Int?, why: String
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
      let them = count == 1 ? "it" : "them"
      return PostgresError(
        status: .temporaryFailure,
        message:
          "the orders database \(place) did not confirm the commit of \(which) (\(why)): the "
          + "outcome is unknown; \(reported); check with `shop orders --last \(count)` before "
          + "placing \(them) again")
    }

    /// The server refused a statement for lack of a privilege: which one it needs.
    static func privilegeAdvice(_ reason: String, _ needs: String?) -> String {
      if reason.contains("for schema") {
        return "the role needs USAGE on that schema, and CREATE on it if shop is to create "
          + "its table"
      }
      if let needs { return "the role needs \(needs)" }
      return "the role needs SELECT and INSERT on shop_orders, and UPDATE to lock it"
    }

    /// A stored row that is not an order, or numbering with a gap or a repeat.
    static func badData(_ place: PostgresPlace, _ reason: String) -> PostgresError {
      PostgresError(status: .dataError, message: "the orders database \(place): \(reason)")
    }
  }

  /// Which database on which server, for messages: `'shop' on 127.0.0.1:5432`.
  struct PostgresPlace: CustomStringConvertible {
    let database: String
    let host: String
    let port: String?
    /// The URI's own `options` (server settings), which ours are added to.
    let options: String?

    /// The URI's own parameters, which libpq does not know and so must not see: `shop_timeout`
    /// (seconds, 1 to 86400), the longest wait for any one answer of the server. Returns the
    /// URI without them, and the timeout.
    static func shopParameters(of uri: String) -> Result<(String, Int), PostgresError> {
      guard let question = uri.firstIndex(of: "?") else {
        return .success((uri, PostgresConnection.defaultAnswerTimeout))
      }
      var timeout = PostgresConnection.defaultAnswerTimeout
      var kept: [Substring] = []
      for parameter in uri[uri.index(after: question)...].split(
        separator: "&", omittingEmptySubsequences: false)
      {
        guard parameter.hasPrefix("shop_timeout=") else {
          kept.append(parameter)
          continue
        }
        guard let seconds = Int(parameter.dropFirst("shop_timeout=".count)),
          (1...86_400).contains(seconds)
        else {
          return .failure(
            PostgresError(
              status: .usage,
              message: "the orders URI's shop_timeout must be a whole number of seconds from 1 "
                + "to 86400"))
        }
        timeout = seconds
      }
      let base = String(uri[..<question])
      return .success((kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), timeout))
    }

    /// Reads the URI with libpq's own parser; nil, and why, when it is not one.
    static func parse(_ uri: String) -> Result<PostgresPlace, PostgresError> {
      var failure: UnsafeMutablePointer<CChar>?
      guard let options = PQconninfoParse(uri, &failure) else {
        let reason = failure.map { String(cString: $0) } ?? "out of memory"
        if let failure { PQfreemem(failure) }
        // libpq quotes the URI, or the part it could not read, which may be the password:
        // with a password in the URI, its reason is not repeated.
        let why =
          PostgresPlace.holdsPassword(uri)
          ? "libpq can't read it (check the host, the port and every %-escape)"
          : PostgresPlace.firstLine(reason)
        return .failure(
          PostgresError(status: .usage, message: "the orders URI is not a PostgreSQL URI: \(why)"))
      }
      defer { PQconninfoFree(options) }
      var values: [String: String] = [:]
      var option = options
      while let keyword = option.pointee.keyword {
        if let value = option.pointee.val {
          values[String(cString: keyword)] = String(cString: value)
        }
        option += 1
      }
      let host = values["host"].flatMap { $0.isEmpty ? nil : $0 } ?? values["hostaddr"]
      return .success(
        PostgresPlace(
          database: values["dbname"].flatMap { $0.isEmpty ? nil : $0 } ?? values["user"]
            ?? "(default)",
          host: host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost",
          port: values["port"].flatMap { $0.isEmpty ? nil : $0 },
          options: values["options"]))
    }

    var description: String { "'\(database)' on \(host)" + (port.map { ":\($0)" } ?? "") }

    /// The same place as `connection` reports it: the database, host (or socket folder) and
    /// port libpq settled on.
    func used(by connection: OpaquePointer) -> PostgresPlace {
      func text(_ value: UnsafeMutablePointer<CChar>?) -> String? {
        value.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
      }
      return PostgresPlace(
        database: text(PQdb(connection)) ?? database, host: text(PQhost(connection)) ?? host,
        port: text(PQport(connection)) ?? port, options: options)
    }

    /// Whether `uri` gives a password: `user:password@` before the host, or a `password=`
    /// parameter. Judged on the text alone, for a URI libpq could not read.
    static func holdsPassword(_ uri: String) -> Bool {
      guard let scheme = uri.firstRange(of: "://") else { return uri.contains("password") }
      let rest = uri[scheme.upperBound...]
      let authority = rest.prefix { $0 != "/" && $0 != "?" }
      if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { return true }
      return rest.contains("password")
    }

    /// The first line of `text`, with every password field in it cut out: the userinfo's
    /// `user:password@` after a `://`, and the value of a `password=`. Only the field: a short
    /// password's letters elsewhere in the text stay as they are.
    func redacted(_ text: String) -> String {
      ConnectionURI.redacting(PostgresPlace.firstLine(text))
    }

    static func firstLine(_ text: String) -> String {
      let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
      return line.trimmingSpaces()
    }
  }

  extension String {
    fileprivate func trimmingSpaces() -> String {
      var text = Substring(self)
      while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
      return String(text)
    }
  }

  /// A statement's parameter, in libpq's text format or PostgreSQL's binary one.
  struct PostgresParameter {
    /// The value's bytes (text ends with a NUL), or nil for NULL.
    fileprivate let bytes: [UInt8]?
    fileprivate let binary: Bool

    /// SQL NULL.
    init() {
      bytes = nil
      binary = false
    }

    init(_ value: Int) {
      self.init(text: Array(String(value).utf8))
    }

    /// Text built by the caller; a NUL inside it ends it, so the caller passes none.
    init(text: [UInt8]) {
      var copy = text
      copy.append(0)
      bytes = copy
      binary = false
    }

    /// A value in the type's binary send format, such as ``PostgresArray``'s.
    init(binary value: [UInt8]) {
      bytes = value
      binary = true
    }
  }

  /// A one-dimensional array in PostgreSQL's binary format (array_recv): the server copies
  /// each element as it is, with none of the quoting and escaping the text format needs.
  struct PostgresArray {
    private(set) var bytes: [UInt8] = []
    /// Where the element count sits: after dimensions, flags and element type.
    private static let countOffset = 12
    private(set) var count: Int32 = 0

    static let int8 = UInt32(20)
    static let jsonb = UInt32(3802)

    init(elementType: UInt32, capacity: Int) {
      bytes.reserveCapacity(20 + capacity)
      append32(1)  // dimensions
      append32(0)  // no NULLs
      append32(elementType)
      append32(0)  // elements: set as they come
      append32(1)  // lower bound
    }

    mutating func append(_ value: Int) {
      appendElementLength(8)
      bytes.appendBigEndian(UInt64(bitPattern: Int64(value)))
    }

    /// A jsonb element: format version 1, then the JSON text.
    mutating func appendJSONB(_ json: [UInt8]) {
      appendElementLength(1 + json.count)
      bytes.append(1)
      bytes.append(contentsOf: json)
    }

    var parameter: PostgresParameter { PostgresParameter(binary: bytes) }

    private mutating func appendElementLength(_ length: Int) {
      bytes.appendBigEndian(UInt32(truncatingIfNeeded: length))
      count &+= 1
      let total = UInt32(bitPattern: count)
      for (index, shift) in [24, 16, 8, 0].enumerated() {
        bytes[PostgresArray.countOffset + index] = UInt8(truncatingIfNeeded: total >> UInt32(shift))
      }
    }

    private mutating func append32(_ value: UInt32) {
      bytes.appendBigEndian(value)
    }
  }

  /// Rows for `COPY … FROM STDIN (FORMAT binary)`: each field is its length and its type's
  /// binary send format, so the server parses no text and the data never meets SQL.
  struct PostgresCopyRows {
    private var bytes: [UInt8] = []
    /// Midnight UTC on 1 January 2000, where PostgreSQL's timestamps count from.
    private static let epoch2000 = Int64(946_684_800)

    init(capacity: Int) {
      bytes.reserveCapacity(21 + capacity)
      bytes.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
      bytes.appendBigEndian(UInt32(0))  // flags
      bytes.appendBigEndian(UInt32(0))  // header extension length
    }

    mutating func startRow(fields: Int) {
      bytes.appendBigEndian(UInt16(truncatingIfNeeded: fields))
    }

    mutating func append(_ value: Int) {
      bytes.appendBigEndian(UInt32(8))
      bytes.appendBigEndian(UInt64(bitPattern: Int64(value)))
    }

    /// A timestamptz: microseconds since 2000; false when that does not fit.
    mutating func appendTimestamp(secondsSince1970 seconds: Int64) -> Bool {
      let (since2000, overflowA) = seconds.subtractingReportingOverflow(Self.epoch2000)
      let (micros, overflowB) = since2000.multipliedReportingOverflow(by: 1_000_000)
      guard !overflowA, !overflowB else { return false }
      bytes.appendBigEndian(UInt32(8))
      bytes.appendBigEndian(UInt64(bitPattern: micros))
      return true
    }

    /// A jsonb field: format version 1, then the JSON text.
    mutating func appendJSONB(_ json: [UInt8]) {
      bytes.appendBigEndian(UInt32(truncatingIfNeeded: 1 + json.count))
      bytes.append(1)
      bytes.append(contentsOf: json)
    }

    /// A text field (the bytes as they are), or SQL NULL for nil.
    mutating func appendText(_ text: String?) {
      guard let text else {
        bytes.appendBigEndian(UInt32.max)  // -1: NULL
        return
      }
      bytes.appendBigEndian(UInt32(truncatingIfNeeded: text.utf8.count))
      bytes.append(contentsOf: text.utf8)
    }

    /// The rows with the trailer that ends them.
    consuming func finished() -> [UInt8] {
      bytes.appendBigEndian(UInt16(0xFFFF))
      return bytes
    }
  }

  extension [UInt8] {
    fileprivate mutating func appendBigEndian<Value: FixedWidthInteger & UnsignedInteger>(
      _ value: Value
    ) {
      for shift in stride(from: Value.bitWidth - 8, through: 0, by: -8) {
        append(UInt8(truncatingIfNeeded: value >> shift))
      }
    }
  }

  /// One connection to the server, through libpq. Not shared between threads.
  ///
  /// Every wait on the server is bounded: libpq runs non-blocking, and each wait is a `poll`
  /// with a deadline. Connecting may take `connect_timeout` seconds (the URI's, else
  /// `PGCONNECT_TIMEOUT`, else 10); each answer after that `shop_timeout` seconds (the URI's,
  /// else 30). A statement that has sent its COMMIT and then times out is an unknown outcome.
  final class PostgresConnection {
    let place: PostgresPlace
    private let connection: OpaquePointer
    /// The longest wait for one answer, in milliseconds, and the same in words.
    private let answerLimit: Int64
    private let answerWords: String
    /// A wait timed out: the server may still answer later, so nothing more is sent.
    private(set) var timedOut = false

    /// What the URI says unless told otherwise.
    static let defaultConnectTimeout = 10
    static let defaultAnswerTimeout = 30

    /// Connects and checks the connection; libpq reads the URI, so every libpq option works.
    /// - Throws: ``PostgresError`` 69 when the server can't be reached, refuses us or doesn't
    ///   answer in time, 64 when `uri` is not a URI libpq reads.
    init(uri: String) throws(PostgresError) {
      let (libpqURI, answerTimeout) = try PostgresPlace.shopParameters(of: uri).get()
      let parsed = try PostgresPlace.parse(libpqURI).get()
      // A commit is durable before it is confirmed, whatever the server's default: `options`
      // comes after the URI, so it wins, and keeps the URI's own options.
      let keywords = ["fallback_application_name", "dbname", "options"]
      let options = (parsed.options.map { $0 + " " } ?? "") + "-c synchronous_commit=on"
      let values = ["shop", libpqURI, options]
      let started = PostgresConnection.withCStrings(keywords) { keywords in
        PostgresConnection.withCStrings(values) { values in
          PQconnectStartParams(keywords, values, 1)
        }
      }
      guard let started else { throw PostgresError.unavailable(parsed, "out of memory") }
      // libpq applies connect_timeout only when it blocks; here `shop` does, with the value
      // libpq settled on (the URI's, else PGCONNECT_TIMEOUT's).
      let seconds = PostgresConnection.connectTimeout(of: started)
      let deadline = System.monotonicMilliseconds() &+ Int64(seconds) &* 1000
      var state = PGRES_POLLING_WRITING
      while PQstatus(started) != CONNECTION_BAD && state != PGRES_POLLING_OK
        && state != PGRES_POLLING_FAILED
      {
        let socket = PQsocket(started)
        if socket >= 0 {
          let ready = System.waitFor(
            socket, reading: state == PGRES_POLLING_READING,
            writing: state == PGRES_POLLING_WRITING, until: deadline)
          if ready.timedOut {
            let used = parsed.used(by: started)
            PQfinish(started)
            throw PostgresError.unavailable(
              used, "can't connect: no answer within \(seconds) s (connect_timeout)")
          }
        }
        state = PQconnectPoll(started)
      }
      // Name the database and server libpq used, defaults and PG* variables applied: a
      // socket URI with no host is not "localhost".
      let used = parsed.used(by: started)
      guard PQstatus(started) == CONNECTION_OK, PQsetnonblocking(started, 1) == 0 else {
        let reason = String(cString: PQerrorMessage(started))
        PQfinish(started)
        throw PostgresError.unavailable(used, "can't connect: \(reason)")
      }
      // The server's notices (a table that already exists) are not for the user's terminal.
      PQsetNoticeProcessor(started, { _, _ in }, nil)
      self.place = used
      self.connection = started
      self.answerLimit = Int64(answerTimeout) * 1000
      self.answerWords = "\(answerTimeout) s (shop_timeout)"
    }

    deinit {
      PQfinish(connection)
    }

    /// The connection's connect_timeout in seconds; unset, zero or less (libpq's "forever")
    /// is the default: no wait is unbounded.
    private static func connectTimeout(of connection: OpaquePointer) -> Int {
      guard let options = PQconninfo(connection) else { return defaultConnectTimeout }
      defer { PQconninfoFree(options) }
      var option = options
      while let keyword = option.pointee.keyword {
        if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
          let seconds = Int(String(cString: value)), seconds > 0
        {
          return seconds
        }
        option += 1
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
    private func endsSession(_ result: OpaquePointer) -> Bool {
      guard let severity = PQresultErrorField(result, PostgresConnection.severityField) else {
        return false
      }
      let text = String(cString: severity)
      return text == "FATAL" || text == "PANIC"
    }

    /// The connection is gone, or can't be trusted after a wait that timed out: nothing more
    /// can be sent on it.
    var isLost: Bool { timedOut || PQstatus(connection) != CONNECTION_OK }

    /// Why an answer did not come, for messages.
    private var lostReason: String {
      timedOut
        ? "no answer within \(answerWords)"
        : [
          "the connection was lost",
          PostgresPlace.firstLine(String(cString: PQerrorMessage(connection))),
        ]
        .filter { !$0.isEmpty }.joined(separator: ": ")
    }

    // MARK: - Waiting, with deadlines

    private func deadline() -> Int64 { System.monotonicMilliseconds() &+ answerLimit }

    /// Sends what libpq holds; false when the connection failed or the deadline passed.
    private func flush(until deadline: Int64) -> Bool {
      while true {
        let left = PQflush(connection)
        if left == 0 { return true }
        if left < 0 { return false }
        let ready = System.waitFor(
          PQsocket(connection), reading: true, writing: true, until: deadline)
        if ready.timedOut {
          timedOut = true
          return false
        }
        // The server may be sending while we do: take it in, or both sides wait.
        if ready.readable && PQconsumeInput(connection) == 0 { return false }
      }
    }

    /// The next answer of the query in progress, nil at its end, or nil with `timedOut` set
    /// when the deadline passed first. Never blocks past the deadline.
    private func nextResult(until deadline: Int64) -> OpaquePointer? {
      guard !timedOut, flush(until: deadline) else { return nil }
      while PQisBusy(connection) == 1 {
        let ready = System.waitFor(
          PQsocket(connection), reading: true, writing: false, until: deadline)
        if ready.timedOut {
          timedOut = true
          return nil
        }
        // A failure leaves an error for PQgetResult to hand back, or the connection bad.
        if PQconsumeInput(connection) == 0 { break }
      }
      return PQgetResult(connection)
    }

    /// Reads and drops the answers left of the query in progress.
    private func drain(until deadline: Int64) {
      while let rest = nextResult(until: deadline) { PQclear(rest) }
    }

    // MARK: - Statements

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
          PQsendQueryParams(
            connection, statement.sql, Int32(values.count), nil, values, lengths, formats, 0)
        }
      } else {
        sent = PQsendQuery(connection, statements.map(\.sql).joined(separator: "; "))
      }
      guard sent == 1 else { throw failure(nil) }
      let until = deadline()
      var answers: [PostgresResult] = []
      while let result = nextResult(until: until) {
        let answer = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
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

    /// Sends BEGIN, `statements` and COMMIT in one round trip (libpq's pipeline mode), then
    /// reads every answer. Each statement sees the ones before it, so a lock taken by one holds
    /// for the next.
    func runInOneTrip(_ statements: [Statement]) -> CommitOutcome {
      guard !isLost else { return .refused(.unavailable(place, lostReason), []) }
      guard PQenterPipelineMode(connection) == 1 else { return .refused(failure(nil), []) }
      defer { if !isLost { _ = PQexitPipelineMode(connection) } }
      let all = [Statement(sql: "BEGIN")] + statements + [Statement(sql: "COMMIT")]
      for (index, statement) in all.enumerated() {
        let sent = PostgresConnection.withParameters(statement.parameters) {
          values, lengths, formats in
          PQsendQueryParams(
            connection, statement.sql, Int32(values.count), nil, values, lengths, formats, 0)
        }
        // Until COMMIT is queued, nothing can be saved, whatever happened to the connection.
        guard sent == 1 else {
          return index < all.count - 1 ? .refused(failure(nil), []) : .unknown([], why: lostReason)
        }
        // The server sends its answers only at the sync unless asked: ask before COMMIT, so
        // the numbers arrive even when COMMIT's answer never does (a standby that never
        // confirms), and a 75 can name them.
        if index == all.count - 2 { _ = PQsendFlushRequest(connection) }
      }
      // From here COMMIT may be on its way: a wait that times out is an unknown outcome.
      guard PQpipelineSync(connection) == 1 else { return .unknown([], why: lostReason) }
      let until = deadline()
      var answers: [PostgresResult] = []
      for index in all.indices {
        guard let result = nextResult(until: until) else {
          return .unknown(answers, why: lostReason)
        }
        let answer = PostgresResult(result)
        // The NULL that ends each statement's answer.
        if let extra = nextResult(until: until) { PQclear(extra) }
        let isCommit = index == all.count - 1
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
          // COMMIT of a transaction the server already aborted answers ROLLBACK.
          if isCommit && answer.command != "COMMIT" {
            drainToSync(until: until)
            return .refused(.unavailable(place, "the server rolled the orders back"), answers)
          }
          if index > 0 && !isCommit { answers.append(answer) }
        default:
          if !isCommit {
            // The server's own error (it has a SQLSTATE), even one that ends the session, means
            // it stopped there and skipped the rest, COMMIT too.
            let fromServer = PQresultErrorField(result, PostgresConnection.sqlStateField) != nil
            if isLost && !fromServer { return .unknown(answers, why: lostReason) }
          } else if isLost || endsSession(result) {
            // An error that ends the session can come after the commit is on disk (a wait for
            // a standby cut short), so only a plain ERROR means nothing was saved.
            return .unknown(answers, why: lostReason)
          }
          let error = failure(result, needs: index > 0 && !isCommit ? all[index].needs : nil)
          drainToSync(until: until)
          return .refused(error, answers)
        }
      }
      drainToSync(until: until)
      return .committed(answers)
    }

    /// Reads and drops answers up to the pipeline's sync, so pipeline mode can end and the
    /// connection can roll back.
    private func drainToSync(until deadline: Int64) {
      var nulls = 0
      while !isLost && nulls < 2 {
        guard let result = nextResult(until: deadline) else {
          nulls += 1
          continue
        }
        nulls = 0
        let status = PQresultStatus(result)
        PQclear(result)
        if status == PGRES_PIPELINE_SYNC { return }
      }
    }

    /// Runs `sql`, a `COPY … FROM STDIN (FORMAT binary)`, with `rows` as its data, then COMMIT,
    /// in one query string: COMMIT runs only when the server has taken every row.
    func copyThenCommit(_ sql: String, _ rows: consuming PostgresCopyRows, needs: String?)
      -> CommitOutcome
    {
      guard !isLost else { return .refused(.unavailable(place, lostReason), []) }
      guard PQsendQuery(connection, sql + "; COMMIT") == 1 else {
        return .refused(failure(nil), [])
      }
      let until = deadline()
      guard let started = nextResult(until: until) else {
        return .refused(timedOut ? .unavailable(place, lostReason) : failure(nil), [])
      }
      let start = PostgresResult(started)
      guard PQresultStatus(started) == PGRES_COPY_IN else {
        let error = failure(started, needs: needs)
        drain(until: until)
        return .refused(error, [])
      }
      _ = start
      let data = rows.finished()
      // Non-blocking, libpq answers 0 when it can't queue yet: send what it holds, then retry.
      var put: Int32 = 0
      repeat {
        put = data.withUnsafeBytes { bytes in
          PQputCopyData(
            connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
            Int32(clamping: bytes.count))
        }
      } while put == 0 && System.monotonicMilliseconds() < until && flush(until: until)
      // Before the end of the data is sent, the server can only abort the COPY.
      guard put == 1, flush(until: until) else {
        return .refused(timedOut ? .unavailable(place, lostReason) : failure(nil), [])
      }
      var ended: Int32 = 0
      repeat {
        ended = PQputCopyEnd(connection, nil)
      } while ended == 0 && System.monotonicMilliseconds() < until && flush(until: until)
      guard ended == 1 else { return .unknown([], why: lostReason) }
      var answers: [PostgresResult] = []
      for isCommit in [false, true] {
        guard let result = nextResult(until: until) else {
          return .unknown(answers, why: lostReason)
        }
        let answer = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
          if isCommit && answer.command != "COMMIT" {
            return .refused(.unavailable(place, "the server rolled the orders back"), answers)
          }
          answers.append(answer)
        default:
          let fromServer = PQresultErrorField(result, PostgresConnection.sqlStateField) != nil
          if isLost && (isCommit || !fromServer) || isCommit && endsSession(result) {
            return .unknown(answers, why: lostReason)
          }
          let error = failure(result, needs: isCommit ? nil : needs)
          drain(until: until)
          return .refused(error, answers)
        }
      }
      drain(until: until)
      return .committed(answers)
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
        PQsendQueryParams(connection, sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
      guard sent == 1 else { throw failure(nil) }
      PQsetSingleRowMode(connection)
      var stopped: (any Error)?
      while let result = nextResult(until: deadline()) {
        let row = PostgresResult(result)
        guard stopped == nil else { continue }
        switch PQresultStatus(result) {
        case PGRES_SINGLE_TUPLE:
          do { try visit(row) } catch { stopped = error }
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
          break
        default:
          stopped = failure(result, needs: needs)
        }
      }
      if let stopped { throw stopped }
      if timedOut { throw PostgresError.unavailable(place, lostReason) }
    }

    /// What went wrong, from the result's message or else the connection's. `needs` names
    /// the privilege the statement needs, for a refusal for lack of one.
    private func failure(_ result: OpaquePointer?, needs: String? = nil) -> PostgresError {
      if timedOut { return .unavailable(place, lostReason) }
      var reason = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
      if reason.isEmpty { reason = String(cString: PQerrorMessage(connection)) }
      if reason.isEmpty { reason = "no answer" }
      let code = result.flatMap { PQresultErrorField($0, PostgresConnection.sqlStateField) }.map {
        String(cString: $0)
      }
      if isLost || result.map(endsSession) == true {
        return .unavailable(place, "the connection was lost: \(reason)")
      }
      // Class 22, a data exception: a stored value that is no order's (a placed_at of
      // 'infinity'), or a number past the largest bigint. Bad data, not a server out of reach.
      if let code, code.hasPrefix("22") {
        return .badData(place, place.redacted(reason))
      }
      if code == "42501" {
        let primary =
          result.flatMap { PQresultErrorField($0, PostgresConnection.messageField) }
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
    private static func withParameters<R>(
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

  /// One libpq result, freed with it.
  final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
      self.result = result
    }

    deinit {
      PQclear(result)
    }

    var rows: Int { Int(PQntuples(result)) }

    /// The command tag, such as `COMMIT`, or `ROLLBACK` for a COMMIT of a failed transaction.
    var command: String { String(cString: PQcmdStatus(result)) }

    /// The field's text (valid while this result lives), or nil for NULL.
    func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
      let (row, column) = (Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
      guard row < PQntuples(result), column < PQnfields(result),
        PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column)
      else { return nil }
      let length = Int(PQgetlength(result, row, column))
      return UnsafeBufferPointer(
        start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// The field as text (invalid UTF-8 repaired: for catalog names and types), or nil for NULL.
    func text(_ row: Int, _ column: Int) -> String? {
      bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The field as a decimal integer, or nil when it is NULL or not one that fits in `Int`.
    func integer(_ row: Int, _ column: Int) -> Int? {
      guard let bytes = bytes(row, column), !bytes.isEmpty else { return nil }
      var value = 0
      var digits = bytes[...]
      let negative = digits.first == UInt8(ascii: "-")
      if negative { digits = digits.dropFirst() }
      guard !digits.isEmpty else { return nil }
      for byte in digits {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let digit = Int(byte - UInt8(ascii: "0"))
        let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowB) =
          negative
          ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
        if overflowA || overflowB { return nil }
        value = sum
      }
      return value
    }
  }
#endif
