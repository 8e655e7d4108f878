import ShopConventions

/// The one rule of the orders file's `flock`, for its writers and its readers.
///
/// A writer holds the exclusive lock from reading the file's ends to the sync of what it
/// appended (one group: a `place`, one group of a batch, a void), and may cut back what it
/// wrote while it holds it (a failed write or sync, a file replaced under it). A reader takes
/// the shared lock only to see where the last complete line ends, and reads up to there
/// without it: no write is half done then, and those bytes never change.
///
/// A writer waits for the lock as long as it takes: a busy store is a reason to wait, never to
/// fail. A read command waits at most its ``ReadWait`` bound, says after a second whom it waits
/// for, and then gives up with ``FileError/busy(_:seconds:holder:)`` (75: nothing was read).
extension LineFile {
  /// How long after a reader starts waiting it says so.
  static let noticeMilliseconds = 1000

  /// Takes the exclusive lock, waiting as long as it takes.
  func lockToWrite() throws(FileError) {
    do { try descriptor.lockExclusive() } catch { throw .cannotWrite(path, error) }
  }

  /// Takes the shared lock, waiting as `wait` says; `told` is set once a notice was written,
  /// so a command that reads several times tells only once. Returns false when the file
  /// system has no locks (`ENOLCK`, some network file systems): the file is read without.
  func lockToRead(_ wait: ReadWait, told: inout Bool) throws(FileError) -> Bool {
    switch wait {
    case .untilFree:
      return (try? descriptor.lockShared()) != nil
    case .atMost(let seconds, let notice):
      let start = System.monotonicMilliseconds()
      let limit = Int64(seconds) * 1000
      var pause = 1
      while true {
        do {
          if try descriptor.tryLockShared() { return true }
        } catch {
          return false
        }
        let waited = System.monotonicMilliseconds() - start
        if waited >= limit {
          let holder = (try? identity()).flatMap { System.writeLockHolder(of: $0) }
          throw .busy(path, seconds: seconds, holder: holder)
        }
        if !told, waited >= LineFile.noticeMilliseconds {
          told = true
          let holder = (try? identity()).flatMap { System.writeLockHolder(of: $0) }
          notice.write(ReadWait.notice(path, seconds: seconds, holder: holder) + "\n")
          try? notice.flush()
        }
        // Short pauses: a busy writer lets go between groups only briefly, and a reader
        // that slept through every gap would give up on a store that is only busy.
        System.pause(milliseconds: min(pause, Int(limit - waited)))
        pause = min(pause * 2, 4)
      }
    }
  }
}

/// How long a reader of an orders file waits for a writer's lock (``LineFile/lockToRead``).
public enum ReadWait {
  /// As long as it takes, silently: the reads a command that places makes.
  case untilFree
  /// At most `seconds` (0: not at all), saying on `notice` after a second whom it waits for.
  case atMost(seconds: Int, notice: any ByteOutput)

  /// The bound when nothing chooses another.
  public static let defaultSeconds = 30
  /// The largest bound, a day, as a PostgreSQL store's `shop_timeout`.
  public static let maximumSeconds = 86_400

  /// The line a waiting reader writes: which file, who holds it, how long it will wait.
  static func notice(_ path: FilePath, seconds: Int, holder: LockHolder?) -> String {
    "Note: waiting for \(path): \(LockHolder.described(holder)) holds its write lock; "
      + "giving up after \(seconds) s (SHOP_TIMEOUT)" + LockHolder.advice(holder)
  }
}

extension LockHolder {
  /// "another process (pid 4242, shop, stopped)", or "another process" when none is known.
  static func described(_ holder: LockHolder?) -> String {
    guard let holder else { return "another process" }
    let parts =
      ["pid \(holder.pid)"] + [holder.command].compactMap { $0 }
      + (holder.stopped ? ["stopped"] : [])
    return "another process (\(parts.joined(separator: ", ")))"
  }

  /// What to do about a holder that is stopped, which will never let go by itself.
  static func advice(_ holder: LockHolder?) -> String {
    guard let holder, holder.stopped else { return "" }
    return "; it is stopped: resume it (fg, or kill -CONT \(holder.pid))"
  }
}
