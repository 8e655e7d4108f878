import ShopAdapters

/// A report's output captured in memory.
final class BufferOutput: ByteOutput {
  private(set) var written: [UInt8] = []
  private(set) var flushed = 0
  var text: String { String(decoding: written, as: UTF8.self) }

  func write(_ bytes: UnsafeRawBufferPointer) { written.append(contentsOf: bytes) }
  func flush() throws { flushed += 1 }
}
