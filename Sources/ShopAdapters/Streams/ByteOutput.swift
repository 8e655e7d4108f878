/// Where reports and listings write their text. The root hands them a real one (standard
/// output); tests hand them a buffer.
public protocol ByteOutput: AnyObject {
  /// Takes `bytes`; they may stay buffered until ``flush()``.
  func write(_ bytes: UnsafeRawBufferPointer)
  /// Delivers everything written so far, or throws a ``ShopCore/ShopError`` saying why not.
  func flush() throws
  /// Delivers everything written so far and then `bytes`, as `write` and then
  /// ``flush()`` do; an output may send `bytes` from where they lie, without a copy.
  func deliver(_ bytes: UnsafeRawBufferPointer) throws
}

extension ByteOutput {
  public func deliver(_ bytes: UnsafeRawBufferPointer) throws {
    write(bytes)
    try flush()
  }

  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  public func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }
}
