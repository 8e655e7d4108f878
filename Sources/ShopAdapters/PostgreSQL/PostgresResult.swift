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
      guard let bytes = bytes(row, column), !bytes.isEmpty else { return nil }
      var value = 0
      var digits = bytes[...]
      let negative = digits.first == UInt8(ascii: "-")
      if negative { digits = digits.dropFirst() }
      guard !digits.isEmpty else { return nil }
      for byte in digits {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let digit = Int(byte - UInt8(ascii: "0"))
        let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowB) =
          negative
          ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
        if overflowA || overflowB { return nil }
        value = sum
      }
      return value
    }
  }
#endif
