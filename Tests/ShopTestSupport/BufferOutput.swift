import ShopAdapters
import ShopCore

/// A report's output captured in memory.
public final class BufferOutput: ByteOutput {
  public private(set) var written: [UInt8] = []
  public private(set) var flushed = 0
  public var text: String { String(decoding: written, as: UTF8.self) }

  public init() {}

  public func write(_ bytes: UnsafeRawBufferPointer) { written.append(contentsOf: bytes) }
  public func flush() throws { flushed += 1 }
}

/// A standard stream's writes captured in memory; `failure` makes every write fail with it
/// (a full disk, a reader gone), as a descriptor's would, or with `limit`, every write that
/// would take the bytes written past it.
public final class BufferSink: ByteSink {
  public private(set) var written: [UInt8] = []
  public var failure: SystemError?
  public let limit: Int?
  public var text: String { String(decoding: written, as: UTF8.self) }

  public init(failure: SystemError? = nil, limit: Int? = nil) {
    self.failure = failure
    self.limit = limit
  }

  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    if let failure, limit.map({ written.count + bytes.count > $0 }) ?? true { throw failure }
    written.append(contentsOf: bytes)
  }
}

/// Standard input from memory, handed out at most `chunk` bytes a read.
public final class BufferSource: ByteSource {
  private let bytes: [UInt8]
  private let chunk: Int
  private var offset = 0

  public init(_ bytes: [UInt8], chunk: Int = 1 << 16) {
    self.bytes = bytes
    self.chunk = max(1, chunk)
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    let count = min(buffer.count, chunk, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes[offset..<(offset + count)].withUnsafeBytes { source in
      buffer.copyMemory(from: source)
    }
    offset += count
    return count
  }

  public func hasInputWaiting() -> Bool { offset < bytes.count }
}
