/// Where a report's text goes. The root hands reports a real one (standard output); tests hand
/// them a buffer.
public protocol ByteOutput: AnyObject {
  /// Takes `bytes`; they may stay buffered until ``flush()``.
  func write(_ bytes: UnsafeRawBufferPointer)
  /// Delivers everything written so far.
  func flush() throws
}

extension ByteOutput {
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  public func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }
}
