// The seam to libpq, loaded at run time: only a command that connects to a postgres:// store
// loads it and its libraries (OpenSSL, Kerberos, LDAP…), so every other command starts as a
// static binary does. libpq's API is declared here, so building needs no libpq headers. libpq
// retries its own reads and writes on EINTR; the waits around it are System.waitFor's, which
// retries poll.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// libpq's functions that `shop` calls, found by name in the library the root names. Loaded
/// once per connection; the library stays loaded for the process (OpenSSL does not unload).
final class LibPQ {
  typealias Connection = OpaquePointer
  typealias Answer = OpaquePointer
  typealias Text = UnsafeMutablePointer<CChar>
  typealias CStrings = UnsafePointer<UnsafePointer<CChar>?>

  /// The Debian package that holds libpq, for the message when it can't be loaded.
  static let package = "libpq5"
  /// libpq's soname: its ABI has kept this name since PostgreSQL 8.2.
  static let standardName = "libpq.so.5"

  /// ConnStatusType.
  static let connectionOK = Int32(0)
  static let connectionBad = Int32(1)
  /// PGTransactionStatusType's PQTRANS_IDLE: connected, and in no transaction block.
  static let transactionIdle = Int32(0)
  /// PostgresPollingStatusType.
  enum Polling: Int32 {
    case failed = 0
    case reading, writing, ok, active
  }
  /// ExecStatusType.
  enum Status: Int32 {
    case emptyQuery = 0
    case commandOK, tuplesOK, copyOut, copyIn, badResponse, nonfatalError
    case fatalError, copyBoth, singleTuple, pipelineSync, pipelineAborted
  }

  let conninfoParse:
    @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Text?>?) -> OpaquePointer?
  let conninfo: @convention(c) (Connection?) -> OpaquePointer?
  let conninfoFree: @convention(c) (OpaquePointer?) -> Void
  let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
  let connectStartParams: @convention(c) (CStrings?, CStrings?, Int32) -> Connection?
  let connectPoll: @convention(c) (Connection?) -> Int32
  let status: @convention(c) (Connection?) -> Int32
  let transactionStatus: @convention(c) (Connection?) -> Int32
  let socket: @convention(c) (Connection?) -> Int32
  let finish: @convention(c) (Connection?) -> Void
  let db: @convention(c) (Connection?) -> Text?
  let host: @convention(c) (Connection?) -> Text?
  let port: @convention(c) (Connection?) -> Text?
  let errorMessage: @convention(c) (Connection?) -> Text?
  let parameterStatus: @convention(c) (Connection?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?
  let setnonblocking: @convention(c) (Connection?, Int32) -> Int32
  let setNoticeReceiver:
    @convention(c) (
      Connection?, (@convention(c) (UnsafeMutableRawPointer?, Answer?) -> Void)?,
      UnsafeMutableRawPointer?
    ) -> OpaquePointer?
  let flush: @convention(c) (Connection?) -> Int32
  let consumeInput: @convention(c) (Connection?) -> Int32
  let isBusy: @convention(c) (Connection?) -> Int32
  let getResult: @convention(c) (Connection?) -> Answer?
  let sendQuery: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Int32
  let sendQueryParams:
    @convention(c) (
      Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?, CStrings?,
      UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> Int32
  let setSingleRowMode: @convention(c) (Connection?) -> Int32
  let enterPipelineMode: @convention(c) (Connection?) -> Int32
  let exitPipelineMode: @convention(c) (Connection?) -> Int32
  let pipelineSync: @convention(c) (Connection?) -> Int32
  let sendFlushRequest: @convention(c) (Connection?) -> Int32
  let putCopyData: @convention(c) (Connection?, UnsafePointer<CChar>?, Int32) -> Int32
  let putCopyEnd: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Int32
  let clear: @convention(c) (Answer?) -> Void
  let resultStatus: @convention(c) (Answer?) -> Int32
  let resultErrorMessage: @convention(c) (Answer?) -> Text?
  let resultErrorField: @convention(c) (Answer?, Int32) -> Text?
  let cmdStatus: @convention(c) (Answer?) -> Text?
  let cmdTuples: @convention(c) (Answer?) -> Text?
  let ntuples: @convention(c) (Answer?) -> Int32
  let nfields: @convention(c) (Answer?) -> Int32
  let getisnull: @convention(c) (Answer?, Int32, Int32) -> Int32
  let getvalue: @convention(c) (Answer?, Int32, Int32) -> Text?
  let getlength: @convention(c) (Answer?, Int32, Int32) -> Int32
  let serverVersion: @convention(c) (Connection?) -> Int32

  /// Loads `name` (a soname, found as the dynamic loader finds any) and every function above.
  /// - Throws: ``PostgresError`` 69 naming the library, why, and the package to install.
  init(loading name: String) throws(PostgresError) {
    guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      throw LibPQ.missing(name, LibPQ.loaderError())
    }
    func find<Function>(_ symbol: String, _: Function.Type = Function.self)
      throws(PostgresError) -> Function
    {
      // Pipeline mode came in libpq 14: an older one loads but can't serve.
      guard let address = dlsym(library, symbol) else {
        throw LibPQ.missing(name, "it has no \(symbol) (shop needs libpq 14 or later)")
      }
      return unsafeBitCast(address, to: Function.self)
    }
    conninfoParse = try find("PQconninfoParse")
    conninfo = try find("PQconninfo")
    conninfoFree = try find("PQconninfoFree")
    freemem = try find("PQfreemem")
    connectStartParams = try find("PQconnectStartParams")
    connectPoll = try find("PQconnectPoll")
    status = try find("PQstatus")
    transactionStatus = try find("PQtransactionStatus")
    socket = try find("PQsocket")
    finish = try find("PQfinish")
    db = try find("PQdb")
    host = try find("PQhost")
    port = try find("PQport")
    errorMessage = try find("PQerrorMessage")
    parameterStatus = try find("PQparameterStatus")
    setnonblocking = try find("PQsetnonblocking")
    setNoticeReceiver = try find("PQsetNoticeReceiver")
    flush = try find("PQflush")
    consumeInput = try find("PQconsumeInput")
    isBusy = try find("PQisBusy")
    getResult = try find("PQgetResult")
    sendQuery = try find("PQsendQuery")
    sendQueryParams = try find("PQsendQueryParams")
    setSingleRowMode = try find("PQsetSingleRowMode")
    enterPipelineMode = try find("PQenterPipelineMode")
    exitPipelineMode = try find("PQexitPipelineMode")
    pipelineSync = try find("PQpipelineSync")
    sendFlushRequest = try find("PQsendFlushRequest")
    putCopyData = try find("PQputCopyData")
    putCopyEnd = try find("PQputCopyEnd")
    clear = try find("PQclear")
    resultStatus = try find("PQresultStatus")
    resultErrorMessage = try find("PQresultErrorMessage")
    resultErrorField = try find("PQresultErrorField")
    cmdStatus = try find("PQcmdStatus")
    cmdTuples = try find("PQcmdTuples")
    ntuples = try find("PQntuples")
    nfields = try find("PQnfields")
    getisnull = try find("PQgetisnull")
    getvalue = try find("PQgetvalue")
    getlength = try find("PQgetlength")
    serverVersion = try find("PQserverVersion")
  }

  static func missing(_ name: String, _ why: String) -> PostgresError {
    PostgresError(
      status: .unavailable,
      message: "the orders are in PostgreSQL, and this machine can't load libpq (\(name): "
        + "\(why)): install the package \(package) (`apt install \(package)` on Debian or Ubuntu)")
  }

  private static func loaderError() -> String {
    guard let text = dlerror() else { return "not found" }
    return String(cString: text)
  }

  /// An answer's status; nil for one this declaration does not know.
  func status(of answer: Answer?) -> Status? { Status(rawValue: resultStatus(answer)) }

  /// A PQconninfoOption list, read and freed: each keyword and its value (nil when unset);
  /// nil for no list. Read by offset, as libpq lays it out: six `char *` fields (keyword
  /// first, value fourth), then an `int`, padded to a pointer's alignment.
  func options(_ list: OpaquePointer?) -> [(keyword: String, value: String?)]? {
    guard let list else { return nil }
    defer { conninfoFree(list) }
    let pointer = MemoryLayout<UnsafeRawPointer>.stride
    let stride = 6 * pointer + MemoryLayout<Int>.stride
    var read: [(keyword: String, value: String?)] = []
    var entry = UnsafeRawPointer(list)
    while let keyword = entry.load(as: Text?.self) {
      let value = entry.load(fromByteOffset: 3 * pointer, as: Text?.self)
      read.append((String(cString: keyword), value.map { String(cString: $0) }))
      entry += stride
    }
    return read
  }

  /// A C string libpq returned, empty for none.
  static func text(_ text: Text?) -> String { text.map { String(cString: $0) } ?? "" }
}
