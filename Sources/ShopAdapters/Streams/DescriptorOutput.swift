import Glibc

/// A ``ByteOutput`` onto an open file descriptor (standard output or error), buffered until
/// ``flush()``: a million report lines cost a few system calls, not a million.
public final class DescriptorOutput: ByteOutput {
  private let descriptor: Int32
  private let name: String
  private var buffer: [UInt8] = []

  /// `name` says which output failed in error messages, e.g. "standard output".
  public init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.name = name
    buffer.reserveCapacity(1 << 16)
  }

  public func write(_ bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
  }

  public func flush() throws {
    guard !buffer.isEmpty else { return }
    let failure = buffer.withUnsafeBytes { FileSystem.writeAll(descriptor, $0) }
    buffer.removeAll(keepingCapacity: true)
    if let failure { throw FileError.cannotWrite(path: name, errno: failure) }
  }
}
