// The seam to the running process: the arguments and environment it was started with, its
// standard descriptors, its signals and its exit. Only main.swift calls these.

import CProcess

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What the operating system handed this process, and what must be set up before anything else.
public enum RunningProcess {
  /// The words after the program's name, as bytes, exactly as the process was given them:
  /// from start-up itself, never from /proc (which may be missing, or need a descriptor that a
  /// `ulimit -n` leaves none of), and never repaired into valid UTF-8, which would change a path.
  public static func arguments() -> [[UInt8]] {
    guard let argv = shop_process_argv() else { return [] }
    var words: [[UInt8]] = []
    let count = Int(shop_process_argc())
    guard count > 1 else { return [] }
    words.reserveCapacity(count - 1)
    for index in 1..<count {
      guard let word = argv[index] else { break }
      words.append(bytes(of: word))
    }
    return words
  }

  /// The value of variable `name` as the bytes it holds; nil when unset. Read from the
  /// environment start-up passed, as `getenv` would.
  public static func environmentValue(_ name: String) -> [UInt8]? {
    guard let value = getenv(name) else { return nil }
    return bytes(of: value)
  }

  private static func bytes(of text: UnsafePointer<CChar>) -> [UInt8] {
    let raw = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
    return Array(UnsafeBufferPointer(start: raw, count: strlen(text)))
  }

  /// Makes sure descriptors 0, 1 and 2 are open, holding a closed one on /dev/null, so no
  /// file opened later can take its number (and receive reports or errors meant for it).
  /// - Returns: which of the three were closed.
  public static func secureStandardDescriptors() -> StandardDescriptors {
    func secure(_ raw: Int32) -> Bool {
      guard fcntl(raw, F_GETFD) < 0, errno == EBADF else { return false }
      // open returns the lowest free number: this one, since the lower ones are open.
      let held = open("/dev/null", raw == 0 ? O_RDONLY : O_WRONLY)
      if held >= 0, held != raw {
        _ = dup2(held, raw)
        _ = close(held)
      }
      return true
    }
    let input = secure(0)
    let output = secure(1)
    _ = secure(2)
    return StandardDescriptors(inputWasClosed: input, outputWasClosed: output)
  }

  /// Signals that would end the process without a word become failed calls with an errno: a
  /// reader that goes away (SIGPIPE, then EPIPE), and a file-size limit (`ulimit -f`: SIGXFSZ,
  /// then EFBIG), so each takes the path of any failed write and says what was saved.
  public static func ignoreFatalSignals() {
    _ = signal(SIGPIPE, SIG_IGN)
    _ = signal(SIGXFSZ, SIG_IGN)
    // Memory a command can't get is an exit status of its own (71), not a crash.
    shop_exit_71_when_out_of_memory()
  }

  public static func exit(_ status: Int32) -> Never {
    #if canImport(Darwin)
      Darwin.exit(status)
    #elseif canImport(Glibc)
      Glibc.exit(status)
    #elseif canImport(Musl)
      Musl.exit(status)
    #endif
  }
}

/// Which standard descriptors `shop` found closed when it started.
public struct StandardDescriptors: Equatable, Sendable {
  public let inputWasClosed: Bool
  public let outputWasClosed: Bool
}
