import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A throwaway pgbouncer in front of a ``PostgresServer``, in a private folder, on a free
/// port of 127.0.0.1: its default configuration but for where it listens, the server it
/// passes to, trust for the `postgres` role, and `pool_mode`. Stopped when it goes away.
public final class PgBouncer {
  /// Debian's package `pgbouncer` installs it here.
  public static let binary = "/usr/sbin/pgbouncer"

  public let port: Int
  public let mode: String
  private let folder: String
  private let server: PostgresServer

  /// Starts pgbouncer in `mode` (`session`, `transaction` or `statement`), with `settings`
  /// (`name = value` lines) added to its section. It refuses to run as root: as root it runs
  /// as the server's user, as the server does.
  public init(in front: PostgresServer, mode: String, settings: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: PgBouncer.binary) else {
      throw ServerError("no \(PgBouncer.binary): install the package pgbouncer")
    }
    server = front
    self.mode = mode
    // Its own folder: the server's goes with the server, which may be the shared one,
    // removed only at exit, and the pid file must outlive nothing that stops it.
    var template = Array((NSTemporaryDirectory() + "shop-pgbouncer-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw ServerError("mkdtemp failed") }
    folder = String(cString: made)
    port = try PostgresServer.freePort()
    let config = [
      "[databases]",
      "* = host=127.0.0.1 port=\(front.port)",
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      "listen_port = \(port)",
      "unix_socket_dir = \(folder)",
      "auth_type = trust",
      "auth_file = \(folder)/users.txt",
      "pool_mode = \(mode)",
      "logfile = \(folder)/pgbouncer.log",
      "pidfile = \(folder)/pgbouncer.pid",
    ]
    try (config + settings).joined(separator: "\n").appending("\n")
      .write(toFile: folder + "/pgbouncer.ini", atomically: true, encoding: .utf8)
    try "\"postgres\" \"\"\n".write(
      toFile: folder + "/users.txt", atomically: true, encoding: .utf8)
    if getuid() == 0 { try PostgresServer.shell(#"chown -R postgres "$0""#, [folder]) }
    try front.command([PgBouncer.binary, "-d", folder + "/pgbouncer.ini"])
    // -d returns once it forked; it listens before that.
    for _ in 0..<100 {
      if (try? server.sql("SELECT 1", database: "postgres", port: port)) != nil { return }
      usleep(50_000)
    }
    throw ServerError("pgbouncer did not start: see \(folder)/pgbouncer.log")
  }

  deinit {
    stop()
  }

  public func uri(_ database: String) -> String {
    "postgresql://postgres@127.0.0.1:\(port)/\(database)"
  }

  /// Stops it at once (SIGTERM), waits until it is gone, and removes its folder. Call it
  /// when done (`defer`): a test's last use of it may come long before its scope ends.
  public func stop() {
    guard let text = try? String(contentsOfFile: folder + "/pgbouncer.pid", encoding: .utf8),
      let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return }
    kill(pid, SIGTERM)
    for _ in 0..<50 where kill(pid, 0) == 0 { usleep(20_000) }
    // pgbouncer may outlive SIGTERM while its server is away: then it is killed.
    if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    try? FileManager.default.removeItem(atPath: folder)
  }
}
