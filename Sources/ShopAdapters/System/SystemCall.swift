import ShopConventions

// The seam to the C library and its one rule for interrupted calls: `retrying` calls again
// on EINTR and turns any other failure into a `SystemError` with its errno. The files beside
// it (descriptors, mapped files, file status, paths, clocks, waiting, byte search) each call
// the C library for their own job by that rule; Process.swift is the seam to the process
// itself, and the PostgreSQL store alone calls libpq.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The calls on paths, memory, clocks and the machine, each in a file of its job.
public enum System {}

/// Calls `body` until it is not interrupted; a negative result is the call's failure.
func retrying<Result: BinaryInteger>(
  _ call: String, _ body: () -> Result
) throws(SystemError) -> Result {
  while true {
    let result = body()
    if result >= 0 { return result }
    if errno != EINTR { throw SystemError(call) }
  }
}

// The C calls under names of their own: inside `Descriptor`, `open` and `read` mean its own.
func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

func systemRead(_ raw: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(raw, buffer, count)
}

func systemRename(_ old: UnsafePointer<CChar>, _ new: UnsafePointer<CChar>) -> Int32 {
  rename(old, new)
}

func systemWrite(_ raw: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(raw, buffer, count)
}

extension FilePath {
  /// Calls `body` with the path as a C string; the caller has checked it holds no NUL.
  func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    var bytes = self.bytes.map { CChar(bitPattern: $0) }
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return body("") }
      return body(base)
    }
  }
}
