/// Where bytes go, whole: a descriptor, or a test's buffer.
public protocol ByteSink: AnyObject {
  /// Writes every byte, or throws what the write failed with.
  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError)
}

/// Where bytes come from as they arrive: a pipe, a terminal, a file, or a test's buffer.
public protocol ByteSource: AnyObject {
  /// Reads what one read gives into `buffer`; 0 at the end of input.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int
  /// True when a read would not wait: more input has already arrived.
  func hasInputWaiting() -> Bool
  /// True when no read ever waits for a writer (a regular file): reading ahead holds back
  /// nothing another program waits for.
  var neverWaits: Bool { get }
}

extension ByteSource {
  /// A source is taken to wait for its writer unless it says otherwise.
  public var neverWaits: Bool { false }
}

extension Descriptor: ByteSink, ByteSource {
  public var neverWaits: Bool { regularFile != nil }
}
