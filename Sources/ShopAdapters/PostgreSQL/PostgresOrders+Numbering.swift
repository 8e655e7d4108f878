import ShopCore

extension PostgresOrders {
  /// The numbers a writer continues from, read at constant cost through the primary key's
  /// index: the first, the last and the one before it.
  struct Numbering {
    let first: Int?
    let last: Int?
    let previous: Int?

    /// The three as columns of one row, each a scalar subquery.
    static let columns = """
      (SELECT min(number) FROM \(table)) AS first, \
      (SELECT number FROM \(table) ORDER BY number DESC LIMIT 1) AS number, \
      (SELECT number FROM \(table) ORDER BY number DESC OFFSET 1 LIMIT 1) AS previous
      """

    /// ``problem`` in SQL, over a relation `last` with columns `first`, `number`, `previous`.
    static let fitsSQL = """
      (last.first IS NULL OR last.first = \(Order.firstNumber) AND \
      (last.previous IS NULL AND last.number = \(Order.firstNumber) \
      OR last.number = last.previous + 1))
      """

    init(_ result: PostgresResult, from column: Int, place: PostgresPlace) throws {
      func number(_ offset: Int) throws -> Int? {
        guard result.text(0, column + offset) != nil else { return nil }
        guard let value = result.integer(0, column + offset) else {
          throw PostgresError.badData(place, "an order number is not a number")
        }
        return value
      }
      first = try number(0)
      last = try number(1)
      previous = try number(2)
    }

    /// Order `number` follows `previous` with numbers missing between them.
    static func gap(_ number: Int, after previous: Int) -> String {
      // Both come from rows, so neither is past Int.max and the gap holds a number.
      let missing =
        number &- previous == 2
        ? "order \(previous &+ 1) is missing" : "orders \(previous &+ 1)…\(number &- 1) are missing"
      return "order \(number) follows \(previous): \(missing)"
    }

    /// Why these numbers can't be continued, naming the order; nil when they can. The same
    /// rule as ``fitsSQL``.
    var problem: String? {
      guard let first else { return nil }
      guard first == Order.firstNumber else {
        return "order \(first) is the first order: numbers start at \(Order.firstNumber)"
      }
      guard let last else { return "the last order number is not a number" }
      if let previous {
        guard last != previous &+ 1 else { return nil }
        return last > previous
          ? Self.gap(last, after: previous)
          : "order \(last) is there twice"
      }
      return last == Order.firstNumber ? nil : "order \(last) is the only order but not 1001"
    }

    func check(_ place: PostgresPlace) throws {
      if let problem { throw PostgresError.badData(place, problem) }
    }
  }
}
