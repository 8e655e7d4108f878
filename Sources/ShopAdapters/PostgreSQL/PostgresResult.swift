import ShopConventions
import ShopCore

/// One libpq result, freed with it.
final class PostgresResult {
  private let result: OpaquePointer
  private let pq: LibPQ

  init(_ result: OpaquePointer, _ pq: LibPQ) {
    self.result = result
    self.pq = pq
  }

  deinit {
    pq.clear(result)
  }

  var rows: Int { Int(pq.ntuples(result)) }

  /// The command tag, such as `COMMIT`, or `ROLLBACK` for a COMMIT of a failed transaction.
  var command: String { LibPQ.text(pq.cmdStatus(result)) }

  /// The rows the command says it inserted or copied, or nil when it says none.
  var affectedRows: Int? { Int(LibPQ.text(pq.cmdTuples(result))) }

  /// The field's text (valid while this result lives), or nil for NULL.
  func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
    let (row, column) = (Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
    guard row < pq.ntuples(result), column < pq.nfields(result),
      pq.getisnull(result, row, column) == 0, let value = pq.getvalue(result, row, column)
    else { return nil }
    let length = Int(pq.getlength(result, row, column))
    return UnsafeBufferPointer(
      start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: length)
  }

  /// The field as text (invalid UTF-8 repaired: for catalog names and types), or nil for NULL.
  func text(_ row: Int, _ column: Int) -> String? {
    bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The field as a decimal integer, or nil when it is NULL or not one that fits in `Int`.
  func integer(_ row: Int, _ column: Int) -> Int? {
    bytes(row, column).flatMap(PostgresResult.integerText.value)
  }

  private static let integerText = DecimalInteger(
    sign: .minus, leadingZeros: .allowed, range: Int.min...Int.max)
}
