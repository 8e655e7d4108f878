import ShopCore

/// A ``ByteOutput`` onto a standard stream (a descriptor, or a test's sink), buffered until
/// ``flush()``: a million report lines cost a few system calls, not a million.
public final class DescriptorOutput: ByteOutput {
  /// What a reader that goes away (`| head -1`) means for the command writing.
  public enum ReaderGone {
    /// An error (exit 74): reports of saved orders were not delivered.
    case isAnError
    /// The end of the command, successfully: a listing has nobody left to list for.
    case endsTheCommand
  }

  private let descriptor: any ByteSink
  private let name: String
  private let readerGone: ReaderGone
  private var buffer: [UInt8] = []

  /// `name` says which output failed in error messages, e.g. "standard output".
  public init(descriptor: any ByteSink, name: String, readerGone: ReaderGone = .isAnError) {
    self.descriptor = descriptor
    self.name = name
    self.readerGone = readerGone
    buffer.reserveCapacity(1 << 16)
  }

  public func write(_ bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
  }

  public func flush() throws(StreamError) {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    let sent = buffer.withUnsafeBytes { bytes in
      Result { () throws(StreamError) in try send(bytes) }
    }
    try sent.get()
  }

  /// With nothing buffered, `bytes` are written from where they lie: a listing of stored
  /// lines hands on whole buffers of them.
  public func deliver(_ bytes: UnsafeRawBufferPointer) throws(StreamError) {
    guard buffer.isEmpty else {
      write(bytes)
      return try flush()
    }
    try send(bytes)
  }

  private func send(_ bytes: UnsafeRawBufferPointer) throws(StreamError) {
    do {
      try descriptor.writeAll(bytes)
    } catch  where error.isBrokenPipe && readerGone == .endsTheCommand {
      throw .readerWentAway
    } catch {
      throw .cannotWrite(name: name, error)
    }
  }
}
