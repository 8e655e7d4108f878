// Waiting on a socket with a deadline, for the PostgreSQL store; pausing, for a reader that
// waits for a lock with a deadline.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension System {
  /// What a socket became ready for while ``waitFor(_:reading:writing:until:)`` waited.
  public struct Readiness: Equatable, Sendable {
    public var readable = false
    public var writable = false
    /// The deadline passed first.
    public var timedOut = false
  }

  /// Waits until `socket` is readable (or writable, as asked), or until `deadline`
  /// (``monotonicMilliseconds()``) passes. An error or hang-up counts as ready: the caller's
  /// next read or write says what it was.
  public static func waitFor(
    _ socket: Int32, reading: Bool, writing: Bool, until deadline: Int64
  ) -> Readiness {
    var events: Int16 = 0
    if reading { events |= Int16(POLLIN) }
    if writing { events |= Int16(POLLOUT) }
    while true {
      let left = deadline - monotonicMilliseconds()
      guard left > 0 else { return Readiness(timedOut: true) }
      var request = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&request, 1, Int32(clamping: left))
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 { continue }  // The deadline is checked again above.
      let failed = ready < 0 || request.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
      return Readiness(
        readable: failed || request.revents & Int16(POLLIN) != 0,
        writable: failed || request.revents & Int16(POLLOUT) != 0)
    }
  }

  /// Whether `socket` has something to read (or an error or hang-up) right now, without
  /// waiting.
  public static func isReadable(_ socket: Int32) -> Bool {
    while true {
      var request = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, 0)
      if ready < 0 && errno == EINTR { continue }
      return ready != 0
    }
  }

  /// Sleeps for `milliseconds` (a signal may end it early: callers check their deadline).
  static func pause(milliseconds: Int) {
    var time = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    _ = nanosleep(&time, nil)
  }
}
