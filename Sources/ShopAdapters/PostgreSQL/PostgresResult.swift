#if PostgreSQL
  import CLibPQ
  import ShopCore

  /// One libpq result, freed with it.
  final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
      self.result = result
    }

    deinit {
      PQclear(result)
    }

    var rows: Int { Int(PQntuples(result)) }

    /// The command tag, such as `COMMIT`, or `ROLLBACK` for a COMMIT of a failed transaction.
    var command: String { String(cString: PQcmdStatus(result)) }

    /// The field's text (valid while this result lives), or nil for NULL.
    func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
      let (row, column) = (Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
      guard row < PQntuples(result), column < PQnfields(result),
        PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column)
      else { return nil }
      let length = Int(PQgetlength(result, row, column))
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
#endif
