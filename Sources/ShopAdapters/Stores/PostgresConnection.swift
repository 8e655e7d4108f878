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

    /// The server can't be reached, went away, or refused a statement.
    static func unavailable(_ place: PostgresPlace, _ detail: String, sqlState: String? = nil)
      -> PostgresError
    {
      PostgresError(
        status: .unavailable, message: "the orders database \(place): \(place.redacted(detail))",
        sqlState: sqlState)
    }

    /// COMMIT was sent but no answer came back: the orders may or may not be saved. `first` is
    /// nil when the server's numbers for them never arrived either.
    static func unconfirmed(_ place: PostgresPlace, first: Int?, count: Int) -> PostgresError {
      let which =
        switch (first, count) {
        case (let first?, 1): "order \(first)"
        case (let first?, _): "orders \(first)…\(first &+ (count - 1))"
        case (nil, 1): "an order"
        case (nil, _): "\(count) orders"
        }
      return PostgresError(
        status: .temporaryFailure,
        message:
          "the connection to the orders database \(place) was lost before it confirmed the "
          + "commit of \(which): the outcome is unknown; check with `shop orders --last \(count)` "
          + "before placing \(count == 1 ? "it" : "them") again")
    }

    /// A stored row that is not an order, or numbering with a gap or a repeat.
    static func badData(_ place: PostgresPlace, _ reason: String) -> PostgresError {
      PostgresError(status: .dataError, message: "the orders database \(place): \(reason)")
    }
  }

  /// Which database on which server, for messages: `'shop' on 127.0.0.1:5432`. Keeps the
  /// password only to cut it out of any text the server or libpq sends back.
  struct PostgresPlace: CustomStringConvertible {
    let database: String
    let host: String
    let port: String?
    /// The URI's own `options` (server settings), which ours are added to.
    let options: String?
    private let password: String?

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
          options: values["options"],
          password: values["password"].flatMap { $0.isEmpty ? nil : $0 }))
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
        port: text(PQport(connection)) ?? port, options: options, password: password)
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

    /// The first line of `text`, with the password cut out wherever it appears.
    func redacted(_ text: String) -> String {
      let line = PostgresPlace.firstLine(text)
      guard let password else { return line }
      return line.replacing(password, with: "***")
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
  final class PostgresConnection {
    let place: PostgresPlace
    private let connection: OpaquePointer

    /// Connects and checks the connection; libpq reads the URI, so every libpq option works.
    /// - Throws: ``PostgresError`` 69 when the server can't be reached or refuses us, 64 when
    ///   `uri` is not a URI libpq reads.
    init(uri: String) throws(PostgresError) {
      let parsed = try PostgresPlace.parse(uri).get()
      let place = parsed
      // A server that never answers must not hang `shop`; the URI's own timeout wins. A
      // commit is durable before it is confirmed, whatever the server's default: `options`
      // comes after the URI, so it wins, and keeps the URI's own options.
      let keywords = ["connect_timeout", "fallback_application_name", "dbname", "options"]
      let options = (place.options.map { $0 + " " } ?? "") + "-c synchronous_commit=on"
      let values = ["10", "shop", uri, options]
      let opened = PostgresConnection.withCStrings(keywords) { keywords in
        PostgresConnection.withCStrings(values) { values in
          PQconnectdbParams(keywords, values, 1)
        }
      }
      guard let opened else {
        throw PostgresError.unavailable(place, "out of memory")
      }
      // Name the database and server libpq used, defaults and PG* variables applied: a
      // socket URI with no host is not "localhost".
      let used = parsed.used(by: opened)
      guard PQstatus(opened) == CONNECTION_OK else {
        let reason = String(cString: PQerrorMessage(opened))
        PQfinish(opened)
        throw PostgresError.unavailable(used, "can't connect: \(reason)")
      }
      // The server's notices (a table that already exists) are not for the user's terminal.
      PQsetNoticeProcessor(opened, { _, _ in }, nil)
      self.place = used
      self.connection = opened
    }

    deinit {
      PQfinish(connection)
    }

    /// PG_DIAG_SQLSTATE and PG_DIAG_SEVERITY_NONLOCALIZED, character macros Swift does not
    /// import.
    static let sqlStateField = Int32(UInt8(ascii: "C"))
    static let severityField = Int32(UInt8(ascii: "V"))

    /// The server reported an error that ends the session (FATAL, PANIC): it is going away.
    private func endsSession(_ result: OpaquePointer) -> Bool {
      guard let severity = PQresultErrorField(result, PostgresConnection.severityField) else {
        return false
      }
      let text = String(cString: severity)
      return text == "FATAL" || text == "PANIC"
    }

    /// The connection is gone: nothing more can be sent on it.
    var isLost: Bool { PQstatus(connection) != CONNECTION_OK }

    /// Runs `sql`, which may hold several statements but no parameters; returns the last
    /// statement's result.
    @discardableResult
    func run(_ sql: String) throws(PostgresError) -> PostgresResult {
      try check(PQexec(connection, sql))
    }

    /// Runs one statement with `$1`… bound to `parameters`: data never becomes SQL text.
    @discardableResult
    func run(_ sql: String, _ parameters: [PostgresParameter]) throws(PostgresError)
      -> PostgresResult
    {
      let result = PostgresConnection.withParameters(parameters) { values, lengths, formats in
        PQexecParams(connection, sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
      return try check(result)
    }

    /// How a transaction sent with its COMMIT ended.
    enum CommitOutcome {
      /// Committed; the answers of the statements, in order.
      case committed([PostgresResult])
      /// The server refused a statement or the commit: nothing was saved.
      case refused(PostgresError)
      /// The connection was lost after COMMIT was sent: saved or not, nobody can tell here.
      /// The answers that did arrive, in order.
      case unknown([PostgresResult])
    }

    /// A statement with `$1`… bound to its parameters.
    struct Statement {
      let sql: String
      var parameters: [PostgresParameter] = []
    }

    /// Sends BEGIN, `statements` and COMMIT in one round trip (libpq's pipeline mode), then
    /// reads every answer. Each statement sees the ones before it, so a lock taken by one holds
    /// for the next.
    func runInOneTrip(_ statements: [Statement]) -> CommitOutcome {
      guard PQenterPipelineMode(connection) == 1 else { return .refused(failure(nil)) }
      defer { _ = PQexitPipelineMode(connection) }
      let all = [Statement(sql: "BEGIN")] + statements + [Statement(sql: "COMMIT")]
      for (index, statement) in all.enumerated() {
        let sent = PostgresConnection.withParameters(statement.parameters) {
          values, lengths, formats in
          PQsendQueryParams(
            connection, statement.sql, Int32(values.count), nil, values, lengths, formats, 0)
        }
        // Until COMMIT is queued, nothing can be saved, whatever happened to the connection.
        guard sent == 1 else {
          return index < all.count - 1 ? .refused(failure(nil)) : .unknown([])
        }
      }
      guard PQpipelineSync(connection) == 1 else { return .unknown([]) }
      var answers: [PostgresResult] = []
      for index in all.indices {
        guard let result = PQgetResult(connection) else { return .unknown(answers) }
        let answer = PostgresResult(result)
        // The NULL that ends each statement's answer.
        if let extra = PQgetResult(connection) { PQclear(extra) }
        let isCommit = index == all.count - 1
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
          // COMMIT of a transaction the server already aborted answers ROLLBACK.
          if isCommit && answer.command != "COMMIT" {
            drainToSync()
            return .refused(.unavailable(place, "the server rolled the orders back"))
          }
          if index > 0 && !isCommit { answers.append(answer) }
        default:
          if !isCommit {
            // The server's own error (it has a SQLSTATE), even one that ends the session, means
            // it stopped there and skipped the rest, COMMIT too.
            let fromServer = PQresultErrorField(result, PostgresConnection.sqlStateField) != nil
            if isLost && !fromServer { return .unknown(answers) }
          } else if isLost || endsSession(result) {
            // An error that ends the session can come after the commit is on disk (a wait for
            // a standby cut short), so only a plain ERROR means nothing was saved.
            return .unknown(answers)
          }
          let error = failure(result)
          drainToSync()
          return .refused(error)
        }
      }
      drainToSync()
      return .committed(answers)
    }

    /// Reads and drops answers up to the pipeline's sync, so pipeline mode can end and the
    /// connection can roll back.
    private func drainToSync() {
      var nulls = 0
      while !isLost && nulls < 2 {
        guard let result = PQgetResult(connection) else {
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
    func copyThenCommit(_ sql: String, _ rows: consuming PostgresCopyRows) -> CommitOutcome {
      guard PQsendQuery(connection, sql + "; COMMIT") == 1 else { return .refused(failure(nil)) }
      guard let started = PQgetResult(connection) else { return .refused(failure(nil)) }
      let start = PostgresResult(started)
      guard PQresultStatus(started) == PGRES_COPY_IN else {
        let error = failure(started)
        while let rest = PQgetResult(connection) { PQclear(rest) }
        return .refused(error)
      }
      _ = start
      let data = rows.finished()
      let put = data.withUnsafeBytes { bytes in
        PQputCopyData(
          connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
          Int32(clamping: bytes.count))
      }
      // Before the end of the data is sent, the server can only abort the COPY.
      guard put == 1 else { return .refused(failure(nil)) }
      guard PQputCopyEnd(connection, nil) == 1 else { return .unknown([]) }
      var answers: [PostgresResult] = []
      for isCommit in [false, true] {
        guard let result = PQgetResult(connection) else { return .unknown(answers) }
        let answer = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
          if isCommit && answer.command != "COMMIT" {
            return .refused(.unavailable(place, "the server rolled the orders back"))
          }
          answers.append(answer)
        default:
          let fromServer = PQresultErrorField(result, PostgresConnection.sqlStateField) != nil
          if isLost && (isCommit || !fromServer) || isCommit && endsSession(result) {
            return .unknown(answers)
          }
          let error = failure(result)
          while let rest = PQgetResult(connection) { PQclear(rest) }
          return .refused(error)
        }
      }
      while let rest = PQgetResult(connection) { PQclear(rest) }
      return .committed(answers)
    }

    /// Runs one query and hands each row to `visit` as it arrives (libpq's single-row mode),
    /// so memory does not grow with the rows. After an error the rest is read and dropped.
    func stream(
      _ sql: String, _ parameters: [PostgresParameter],
      _ visit: (PostgresResult) throws -> Void
    ) throws {
      let sent = PostgresConnection.withParameters(parameters) { values, lengths, formats in
        PQsendQueryParams(connection, sql, Int32(values.count), nil, values, lengths, formats, 0)
      }
      guard sent == 1 else { throw failure(nil) }
      PQsetSingleRowMode(connection)
      var stopped: (any Error)?
      while let result = PQgetResult(connection) {
        let row = PostgresResult(result)
        guard stopped == nil else { continue }
        switch PQresultStatus(result) {
        case PGRES_SINGLE_TUPLE:
          do { try visit(row) } catch { stopped = error }
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
          break
        default:
          stopped = failure(result)
        }
      }
      if let stopped { throw stopped }
    }

    private func check(_ result: OpaquePointer?) throws(PostgresError) -> PostgresResult {
      guard let result else { throw failure(nil) }
      let wrapped = PostgresResult(result)
      switch PQresultStatus(result) {
      case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return wrapped
      default: throw failure(result)
      }
    }

    /// What went wrong, from the result's message or else the connection's.
    private func failure(_ result: OpaquePointer?) -> PostgresError {
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
