import ShopConventions
import ShopCore

extension PostgresOrders {
  /// A table made before refs holds no order with a ref: no order.
  public func order(
    referenced reference: Reference, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    try order(
      where: "ref = $1", PostgresParameter(text: Array(reference.text.utf8)), visit,
      byReference: true)
  }

  /// The one order `condition` selects, after the checks every reader makes first; when none
  /// is there, `none` may say why it is an error rather than no order. No table, or with
  /// `byReference` a table without `ref`, holds none.
  private func order(
    where condition: String, _ parameter: PostgresParameter, _ visit: (Order) throws -> Void,
    byReference: Bool = false, none: (PostgresConnection) throws -> Void = { _ in }
  ) throws -> Bool {
    let found = try withExistingTable(missing: nil) {
      connection -> (PostgresPlace, PostgresResult)? in
      try prepareToRead(on: connection, numbering: true)
      if byReference && !hasReference { return nil }
      let result = try connection.run(
        "SELECT \(readColumns) WHERE \(condition)", [parameter], needs: Needs.select)
      if result.rows == 0 { try none(connection) }
      return (connection.place, result)
    }
    guard let (place, result) = found, result.rows > 0 else { return false }
    try visit(try Self.order(in: result, 0, place: place))
    return true
  }

  // MARK: - Reading

  // Internal, not private: PostgresOrders+History.swift reads through these.
  // The seconds are floored, never rounded, and the last column says whether that lost a
  // fraction, which shop never writes.

  /// The columns with `reference` for `ref`; with `voids`, the row's `voids` and the void
  /// that took it back (the row whose `voids` is its number, found through the unique
  /// index), else NULL for both.
  static func columns(reference: String, voids: Bool) -> String {
    let marks =
      voids
      ? "\(table).voids, (SELECT v.number FROM \(table) AS v WHERE v.voids = \(table).number) AS voided_by"
      : "NULL::pg_catalog.int8 AS voids, NULL::pg_catalog.int8 AS voided_by"
    return
      "number, CASE WHEN isfinite(placed_at) THEN floor(extract(epoch FROM placed_at))::pg_catalog.int8 END, "
      + "items, total, payable, \(reference), date_trunc('second', placed_at) = placed_at, "
      + "\(marks) FROM \(table)"
  }

  /// ``columns`` as readers read the checked table: one made before refs has no `ref`, and
  /// its orders none; one made before voids no `voids`, and no void.
  var readColumns: String {
    Self.columns(reference: hasReference ? "ref" : "NULL::pg_catalog.text", voids: hasVoids)
  }

  /// Before every read: checks the table is `shop`'s (once), and with `numbering`, the
  /// numbers a writer would continue, as `place` does, so readers and writers agree. One
  /// round trip.
  func prepareToRead(on connection: PostgresConnection, numbering: Bool) throws {
    var statements: [PostgresConnection.Statement] = []
    if !schemaChecked { statements.append(.init(sql: Self.schemaQuery)) }
    if numbering {
      statements.append(.init(sql: "SELECT \(Numbering.columns)", needs: Needs.select))
    }
    guard !statements.isEmpty else { return }
    let answers = try connection.run(statements)
    if !schemaChecked, let description = answers.first {
      try takeSchema(description, writing: false, place: connection.place)
    }
    if numbering, let last = answers.last {
      try Numbering(last, from: 0, place: connection.place).check(connection.place)
    }
  }

  public func readAll(_ visit: (Order) throws -> Void) throws {
    try withExistingTable(missing: ()) { connection in
      // The listing checks every number, so no separate numbering check.
      try prepareToRead(on: connection, numbering: false)
      try readAll(on: connection, visit)
    }
  }

  private func readAll(
    on connection: PostgresConnection,
    _ visit: (Order) throws -> Void
  ) throws {
    var previous: Int?
    try connection.stream("SELECT \(readColumns) ORDER BY number", [], needs: Needs.select) {
      row in
      let order = try Self.order(in: row, 0, place: connection.place)
      try Self.check(order.number, after: previous, place: connection.place)
      previous = order.number
      try visit(order)
    }
  }

  /// Counts, and checks the count against the numbers: 1001… with no gap means the last
  /// number is 1000 + the count.
  public func count() throws -> Int {
    let counted = try withExistingTable(missing: nil) {
      connection -> (PostgresPlace, PostgresResult)? in
      try prepareToRead(on: connection, numbering: false)
      let result = try connection.run(
        "SELECT count(*), coalesce(min(number), 1001), coalesce(max(number), 1000) "
          + "FROM \(Self.table)", [], needs: Needs.select)
      return (connection.place, result)
    }
    guard let (place, result) = counted else { return 0 }
    guard let count = result.integer(0, 0), let first = result.integer(0, 1),
      let last = result.integer(0, 2)
    else { throw PostgresError.badData(place, "the count is not a number") }
    try Self.checkCount(count, first: first, last: last, place: place)
    return count
  }

  /// 1001… with no gap means the smallest number is 1001 and the largest 1000 + the count
  /// (the primary key forbids a repeat); else 65, in words that fit the count.
  static func checkCount(_ count: Int, first: Int, last: Int, place: PostgresPlace) throws {
    guard first != Order.firstNumber || last != Order.firstNumber - 1 + count else { return }
    let orders =
      count == 1
      ? "1 order, numbered \(first)" : "\(count) orders run from \(first) to \(last)"
    throw PostgresError.badData(place, "\(orders): a gap or a number before 1001")
  }

  /// The newest `count` orders, oldest first, streamed (single-row mode), so memory does not
  /// grow with `count`. The numbering is checked first as a writer checks it; then each row
  /// must follow the one before it. The first row needs no check of its own: either it is
  /// the first order (1001, checked), or rows come before it and so all `count` came.
  public func last(_ count: Int, _ visit: (Order) throws -> Void)
    throws
  {
    guard count > 0 else { return }
    try withExistingTable(missing: ()) { connection in
      try prepareToRead(on: connection, numbering: true)
      var previous: Int?
      try connection.stream(
        "SELECT * FROM (SELECT \(readColumns) ORDER BY number DESC LIMIT $1) AS last "
          + "ORDER BY number", [PostgresParameter(count)], needs: Needs.select
      ) { row in
        let order = try Self.order(in: row, 0, place: connection.place)
        if previous != nil {
          try Self.check(order.number, after: previous, place: connection.place)
        }
        previous = order.number
        try visit(order)
      }
    }
  }

  public func order(
    numbered number: Int, _ visit: (Order) throws -> Void
  ) throws -> Bool {
    try order(where: "number = $1", PostgresParameter(number), visit) { connection in
      try checkNoGap(at: number, on: connection)
    }
  }

  /// A number no row has is "no order" only past the last: below it, the rows around it do
  /// not follow each other, a gap the file store reports at its line too. One round trip,
  /// only when the number is not found.
  func checkNoGap(at number: Int, on connection: PostgresConnection) throws {
    guard number >= Order.firstNumber else { return }
    let around = try connection.run(
      "SELECT (SELECT max(number) FROM \(Self.table) WHERE number < $1), "
        + "(SELECT min(number) FROM \(Self.table) WHERE number > $1)",
      [PostgresParameter(number)], needs: Needs.select)
    guard around.rows > 0, around.text(0, 1) != nil else { return }
    guard let next = around.integer(0, 1) else {
      throw PostgresError.badData(connection.place, "an order number is not a number")
    }
    let previous = around.integer(0, 0)
    if around.text(0, 0) != nil, previous == nil {
      throw PostgresError.badData(connection.place, "an order number is not a number")
    }
    try Self.check(next, after: previous, place: connection.place)
  }

  private static func check(_ number: Int, after previous: Int?, place: PostgresPlace) throws {
    guard !Order.isNumber(number, after: previous) else { return }
    // Wraps only after Int.max, which no row can follow.
    let expected = previous.map { $0 &+ 1 } ?? Order.firstNumber
    throw PostgresError.badData(
      place,
      number < expected
        ? "order \(number) comes where \(expected) should: a repeat or a number before 1001"
        : previous == nil
          // No order comes before it: the words of every other reader (``Numbering``).
          ? "order \(number) is the first order: numbers start at \(Order.firstNumber)"
          : Numbering.gap(number, after: expected &- 1)
    )
  }

  /// The order in `row`, checked as strictly as a line of the orders file.
  static func order(in result: PostgresResult, _ row: Int, place: PostgresPlace) throws
    -> Order
  {
    guard let number = result.integer(row, 0) else {
      throw PostgresError.badData(place, "an order number is not a number")
    }
    func bad(_ reason: String) -> PostgresError {
      .badData(place, "order \(number): \(reason)")
    }
    do { try Order.checkStored(number: number) } catch { throw bad("the number is below 1001") }
    guard let total = result.integer(row, 3), let payable = result.integer(row, 4) else {
      throw bad("total or payable is missing")
    }
    guard let seconds = result.integer(row, 1) else { throw bad("placed_at is not a finite time") }
    guard result.text(row, 6) == "t" else {
      throw bad("placed_at has a fraction of a second, which shop never writes")
    }
    var reference: Reference?
    if let text = result.bytes(row, 5) {
      guard let valid = Reference(text) else { throw bad("the ref is not a valid ref") }
      reference = valid
    }
    if result.text(row, 7) != nil {
      return try void(
        in: result, row, number: number, seconds: seconds, reference: reference,
        bad: bad)
    }
    guard let text = result.bytes(row, 2) else { throw bad("no items") }
    var parser = JSONParser(bytes: text)
    guard case .array(let items) = parser.document(), !items.isEmpty else {
      throw bad("items is not a list of items")
    }
    var lines: [OrderLine] = []
    lines.reserveCapacity(items.count)
    for item in items {
      guard case .object(let item) = item, case .string(let sku) = item["sku"],
        SKU.isValid(sku), case .integer(let quantity) = item["quantity"],
        (1...Cart.maximumQuantity).contains(quantity),
        case .integer(let price) = item["price"], price >= 0
      else { throw bad("an item is not {\"sku\", \"quantity\", \"price\"}") }
      lines.append(OrderLine(sku: sku, quantity: quantity, price: price))
    }
    // The orders file can only hold the years 0000 to 9999; neither store writes others.
    guard UTCTime.seconds.contains(Int64(seconds)) else {
      throw bad("placed_at is outside the years 0000 to 9999")
    }
    let voidedBy: Int?
    if result.text(row, 8) != nil {
      guard let by = result.integer(row, 8) else { throw bad("its void's number is not a number") }
      voidedBy = by
    } else {
      voidedBy = nil
    }
    do {
      return try Order(
        stored: number, lines: lines, total: total, payable: payable,
        placedAt: Timestamp(secondsSince1970: Int64(seconds)), reference: reference
      ).voided(by: voidedBy)
    } catch {
      if case .repeatedSKU = error { throw bad(error.reason) }
      throw bad("total or payable does not match the items")
    }
  }

  /// The void in `row`: items `[]`, totals 0, and an earlier order's number in `voids`, as
  /// only `shop void` writes it; nothing else is a void.
  private static func void(
    in result: PostgresResult, _ row: Int, number: Int, seconds: Int, reference: Reference?,
    bad: (String) -> PostgresError
  ) throws -> Order {
    guard let voids = result.integer(row, 7) else { throw bad("voids is not a number") }
    guard result.integer(row, 3) == 0, result.integer(row, 4) == 0,
      result.bytes(row, 2).map({ Array($0) }) == Array("[]".utf8)
    else { throw bad("a void holds items or totals") }
    guard result.text(row, 8) == nil else { throw bad("a void is taken back by another void") }
    do {
      return try Order(
        storedVoid: number, voids: voids,
        placedAt: Timestamp(secondsSince1970: Int64(seconds)), reference: reference)
    } catch {
      throw bad("it voids \(voids), which is not an earlier order")
    }
  }
}
