import ShopConventions

// Who holds a file's write lock, as Linux tells in /proc: for a reader's message, never for a
// decision. Elsewhere, and where /proc can't say, nobody is named.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process that holds an exclusive `flock` on a file, as far as the system tells.
public struct LockHolder: Equatable, Sendable {
  public let pid: Int32
  /// Its command name (`/proc/PID/comm`), when it can be read, escaped as a message shows
  /// text from outside (any process may name itself with control characters).
  public let command: String?
  /// Stopped by a signal (Ctrl-Z, `kill -STOP`) or a debugger: it will not let go by itself.
  public let stopped: Bool
}

extension System {
  /// The holder of the exclusive `flock` on `file`, from `/proc/locks`; nil when there is none
  /// now, when the system does not say (no `/proc`, another PID namespace), or not on Linux.
  static func writeLockHolder(of file: FileIdentity) -> LockHolder? {
    #if os(Linux)
      guard
        let table = procBytes("/proc/locks", limit: 1 << 22).map({
          String(decoding: $0, as: UTF8.self)
        })
      else { return nil }
      // `st_dev` as glibc encodes it, split as the kernel prints it: "major:minor:inode".
      let major = (file.device >> 8) & 0xfff | (file.device >> 32) & ~0xfff
      let minor = file.device & 0xff | (file.device >> 12) & ~0xff
      var exact: [Int32] = []
      var byInode: [Int32] = []
      for line in table.split(separator: "\n") {
        // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"; a waiter's line has "->" first.
        let fields = line.split(separator: " ")
        guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE",
          let pid = Int32(fields[4]), pid > 0
        else { continue }
        let place = fields[5].split(separator: ":")
        guard place.count == 3, UInt64(place[2]) == file.inode else { continue }
        byInode.append(pid)
        if UInt64(place[0], radix: 16) == major, UInt64(place[1], radix: 16) == minor {
          exact.append(pid)
        }
      }
      // Some file systems (btrfs subvolumes) report another device than `stat` gives: one
      // write lock on a file of this inode is then the one that blocks this reader.
      let pids = exact.isEmpty ? byInode : exact
      guard pids.count == 1, let pid = pids.first else { return nil }
      let command = procBytes("/proc/\(pid)/comm", limit: 64).map {
        TerminalText.escaped($0.prefix { $0 != UInt8(ascii: "\n") })
      }
      // "4242 (shop) T ...": the state follows the last ')', as the name may hold one.
      var stopped = false
      if let stat = procBytes("/proc/\(pid)/stat", limit: 4096).map({
        String(decoding: $0, as: UTF8.self)
      }),
        let close = stat.lastIndex(of: ")")
      {
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        stopped = state == "T" || state == "t"
      }
      return LockHolder(pid: pid, command: command, stopped: stopped)
    #else
      return nil
    #endif
  }

  /// The bytes of a `/proc` file, read to its end (its size says nothing), up to `limit`.
  private static func procBytes(_ path: String, limit: Int) -> [UInt8]? {
    guard let file = try? Descriptor.open(FilePath(path), .read) else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < limit {
      let got = chunk.withUnsafeMutableBytes { buffer in
        try? file.read(into: UnsafeMutableRawBufferPointer(buffer))
      }
      guard let got, got > 0 else { break }
      bytes += chunk[..<got]
    }
    return bytes
  }
}
