import ShopTestSupport
import Testing

@testable import ShopAdapters

/// A result's integers as they were read before the decimal readers were made one.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresResultTests {
  @Test func anIntegerIsAnOptionalMinusAndDigitsThatFitInt() throws {
    let server = try PostgresServer.shared.get()
    let connection = try PostgresConnection(
      uri: server.tcpURI(try server.makeDatabase()), library: PostgresOrders.standardLibrary)
    let fields: [(String, Int?)] = [
      ("'42'", 42), ("'-42'", -42), ("'-0'", 0), ("'007'", 7), ("'-007'", -7),
      ("'\(Int.max)'", Int.max), ("'\(Int.min)'", Int.min), ("'9223372036854775808'", nil),
      ("'-9223372036854775809'", nil), ("'+5'", nil), ("''", nil), ("'-'", nil),
      ("' 5'", nil), ("'5 '", nil), ("'1.0'", nil), ("NULL", nil), ("12345::bigint", 12345),
    ]
    let result = try connection.run("SELECT " + fields.map(\.0).joined(separator: ", "))
    for (column, field) in fields.enumerated() {
      #expect(result.integer(0, column) == field.1, "\(field.0)")
    }
  }
}
