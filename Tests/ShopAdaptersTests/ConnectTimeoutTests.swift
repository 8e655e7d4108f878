import Testing

@testable import ShopAdapters

/// The bound on connecting to PostgreSQL: the URI's, else `$PGCONNECT_TIMEOUT`, else what
/// libpq settled on (a service file's), else 10 s; a value that is no positive number falls
/// through, and none passes a day.
struct ConnectTimeoutTests {
  @Test(
    arguments: [
      ("5", "2", "60", 5), (nil, "2", "60", 2), (nil, nil, "60", 60), (nil, nil, nil, 10),
      ("0", "2", "0", 2), ("-1", nil, "60", 60), ("abc", "0", "7", 7), ("1.5", "x", nil, 10),
      (nil, "", "-3", 10), ("86401", nil, nil, 86_400), ("99999999999999999999", "3", nil, 3),
      (nil, "9223372036854775807", nil, 86_400),
    ] as [(String?, String?, String?, Int)])
  func eachPlaceIsTakenInTurnWhenItHoldsAPositiveNumber(
    uri: String?, variable: String?, settled: String?, seconds: Int
  ) {
    #expect(
      PostgresConnection.connectTimeout(uri: uri, variable: variable, settled: settled)
        == seconds)
  }
}
