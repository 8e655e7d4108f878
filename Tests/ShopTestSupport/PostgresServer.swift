import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A throwaway PostgreSQL server in a private folder: trust auth, a free TCP port on
/// 127.0.0.1 and a Unix socket in the folder. Stopped and removed when it goes away.
public final class PostgresServer: Sendable {
  /// The folder of `initdb`, `pg_ctl` and `psql`: the newest /usr/lib/postgresql/N/bin.
  public static let binaries: String? = {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    let newest = versions.compactMap(Int.init).sorted().reversed().first { version in
      FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb")
    }
    return newest.map { "\(root)/\($0)/bin" }
  }()

  /// The PostgreSQL suites run when asked for, with `SHOP_TEST_POSTGRESQL=1`; asked for on a
  /// machine without a server, they fail (``init()`` throws), never skip.
  public static let wanted = ProcessInfo.processInfo.environment["SHOP_TEST_POSTGRESQL"] == "1"

  /// One server for every test that only needs a database of its own; started on first use.
  public static let shared: Result<PostgresServer, any Error> = {
    let started = Result { try PostgresServer() }
    if case .success = started { atexit { try? PostgresServer.shared.get().remove() } }
    return started
  }()

  public let folder: String
  public let socketFolder: String
  public let port: Int
  private let bin: String
  private let data: String
  private let asRoot: Bool

  /// A new server; with `primary`, its standby: a copy by `pg_basebackup -R`, which streams
  /// the primary's changes and answers reads only, until ``promote()``.
  public init(standbyOf primary: PostgresServer? = nil) throws {
    guard let bin = PostgresServer.binaries else { throw ServerError("no server binaries") }
    var template = Array((NSTemporaryDirectory() + "shop-pg-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw ServerError("mkdtemp failed") }
    self.bin = bin
    folder = String(cString: made)
    socketFolder = folder
    data = folder + "/data"
    asRoot = getuid() == 0
    port = try PostgresServer.freePort()
    // initdb refuses root: the server runs as the postgres user, who must reach the folder.
    if asRoot { try PostgresServer.shell(#"chown postgres "$0" && chmod 755 "$0""#, [folder]) }
    if let primary {
      try command([
        "\(bin)/pg_basebackup", "-D", data, "-R", "-h", "127.0.0.1", "-p", "\(primary.port)",
        "-U", "postgres", "--no-sync",
      ])
    } else {
      try command(["\(bin)/initdb", "-D", data, "--auth=trust", "--no-sync", "-U", "postgres"])
    }
    try start()
  }

  deinit {
    remove()
  }

  /// Stops the server and deletes its folder.
  public func remove() {
    try? stop()
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Starts the server and waits until it accepts connections (about 3 s from cold).
  public func start() throws {
    let options = "-k \(socketFolder) -p \(port) -c listen_addresses=127.0.0.1"
    try command([
      "\(bin)/pg_ctl", "-D", data, "-l", folder + "/log", "-o", options, "-w", "start",
    ])
  }

  /// Stops it the way an administrator would: sessions are ended, their transactions rolled back.
  public func stop() throws {
    try command(["\(bin)/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"])
  }

  /// Stops it as a crash or a power cut would: every process killed, nothing flushed that
  /// was not; the next start recovers from the WAL.
  public func stopImmediately() throws {
    try command(["\(bin)/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"])
  }

  /// Makes a standby the primary, and waits until it takes writes.
  public func promote() throws {
    try command(["\(bin)/pg_ctl", "-D", data, "-w", "promote"])
  }

  public func tcpURI(_ database: String) -> String {
    "postgresql://postgres@127.0.0.1:\(port)/\(database)"
  }

  public func socketURI(_ database: String) -> String {
    "postgresql:///\(database)?host=\(socketFolder)&port=\(port)&user=postgres"
  }

  /// A new, empty database with a name no other test uses.
  public func makeDatabase() throws -> String {
    let name = "shop_" + UUID().uuidString.lowercased().filter { $0.isLetter || $0.isNumber }
    _ = try sql("CREATE DATABASE \(name)", database: "postgres")
    return name
  }

  /// Waits until no other session is connected to `database`, up to 30 s.
  public func waitForNoSessions(_ database: String) throws {
    for _ in 0..<300 {
      let others = try sql(
        "SELECT count(*) FROM pg_stat_activity "
          + "WHERE datname = '\(database)' AND pid <> pg_backend_pid()", database: database)
      if others == "0\n" { return }
      usleep(100_000)
    }
    throw ServerError("sessions still open on \(database)")
  }

  /// Waits until a new session sees `setting` as `value`: `pg_reload_conf()` only signals the
  /// server, which may still fork a session with the old setting a moment later.
  public func waitForSetting(_ setting: String, _ value: String, database: String) throws {
    for _ in 0..<300 {
      if try sql("SHOW \(setting)", database: database) == value + "\n" { return }
      usleep(20_000)
    }
    throw ServerError("\(setting) is still not '\(value)' in a new session")
  }

  /// Runs `text` with psql and returns its unaligned, tuples-only output; `port`, another
  /// port in front of this server (a pooler's).
  @discardableResult
  public func sql(_ text: String, database: String, port: Int? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "\(bin)/psql")
    process.arguments = [
      "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
      "\(port ?? self.port)", "-U",
      "postgres", "-d", database, "-c", text,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Bounded: a statement waiting on a synchronous standby that is gone would wait forever.
    let bound = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: bound)
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    bound.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw ServerError("psql failed: \(text)")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Asks `condition` every 50 ms until it holds (an error counts as not yet); throws naming
  /// `what` after `seconds`, so a test waiting for a server fails rather than hangs.
  public static func wait(
    for what: String, within seconds: Double = 60, _ condition: () throws -> Bool
  ) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while (try? condition()) != true {
      guard Date() < deadline else { throw ServerError("still waiting for \(what)") }
      usleep(50_000)
    }
  }

  /// Runs a server command as the server's user, through a shell that first closes every
  /// inherited descriptor: a postmaster holding the test's pipes would hang the test run.
  func command(_ arguments: [String]) throws {
    let argv = asRoot ? ["runuser", "-u", "postgres", "--"] + arguments : arguments
    try PostgresServer.shell(
      #"max=$(ulimit -n); [ "$max" -gt 4096 ] && max=4096; "#
        + #"for ((n = 3; n < max; n++)); do eval "exec $n>&-"; done; "#
        + #"exec "$@" </dev/null >>"$0/commands.log" 2>&1"#, [folder] + argv)
  }

  static func shell(_ script: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ServerError("failed: \(arguments.joined(separator: " "))")
    }
  }

  /// A socket on 127.0.0.1 that listens but never accepts: the kernel completes a client's
  /// connection, and then nothing ever answers it. Close it with `close`.
  public static func silentListener() throws -> (socket: Int32, port: Int) {
    let (socket, port) = try boundSocket()
    guard listen(socket, 16) == 0 else {
      close(socket)
      throw ServerError("can't listen")
    }
    return (socket, port)
  }

  /// The process id of the server's session for `shop` in `database` (the one connected
  /// with application_name `shop`), for stopping it with SIGSTOP.
  public func shopBackend(_ database: String) throws -> pid_t {
    let text = try sql(
      "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' "
        + "AND application_name = 'shop'", database: database)
    let pids = text.split(separator: "\n").compactMap { pid_t($0) }
    guard pids.count == 1, let pid = pids.first else {
      throw ServerError("not one shop session on \(database): \(text)")
    }
    return pid
  }

  /// Creates shop's table, as its first writer would, behind shop's back: readers create none.
  public func createShopTable(database: String) throws {
    try sql(
      "CREATE TABLE shop_orders (number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, "
        + "items jsonb NOT NULL, total bigint NOT NULL, payable bigint NOT NULL, ref text UNIQUE)",
      database: database)
  }

  /// Inserts rows numbered `numbers`, each a valid order of one pen, behind shop's back.
  public func insertOrders(_ numbers: [Int], database: String) throws {
    for number in numbers {
      try sql(
        "INSERT INTO shop_orders (number, placed_at, items, total, payable) VALUES (\(number), "
          + #"'2026-11-30T06:06:43Z', '[{"sku":"pen","quantity":1,"price":30}]', 30, 30)"#,
        database: database)
    }
  }

  /// A port nothing listens on now: bind to port 0 and ask which one the kernel gave.
  static func freePort() throws -> Int {
    let (socket, port) = try boundSocket()
    close(socket)
    return port
  }

  /// A TCP socket bound to 127.0.0.1 at a port the kernel chose, and that port.
  private static func boundSocket() throws -> (socket: Int32, port: Int) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ServerError("socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
      }
    }
    guard bound else {
      close(socket)
      throw ServerError("no free port")
    }
    return (socket, Int(UInt16(bigEndian: address.sin_port)))
  }
}

/// Faults a test can install in a database.
public enum PostgresFaults {
  /// Ends the session from inside COMMIT, after the client sent it: the client never hears
  /// whether its orders were saved. `DROP TRIGGER shop_drop_at_commit ON shop_orders` undoes it.
  public static let dropAtCommit = """
    CREATE FUNCTION shop_drop_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); RETURN NULL; END $$;
    CREATE CONSTRAINT TRIGGER shop_drop_at_commit AFTER INSERT ON shop_orders
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shop_drop_at_commit();
    """
}

public struct ServerError: Error, CustomStringConvertible {
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
