#if PostgreSQL
  import ShopCore

  /// Orders in a PostgreSQL table, shared by any number of processes on any number of machines.
  ///
  /// `save` numbers and inserts a group in one transaction that holds an exclusive lock on the
  /// table from reading the last number to the commit, so numbers never repeat and never skip
  /// (a sequence would skip on a rollback). A small group goes in one round trip, numbered by
  /// the server; a large one by binary COPY. `synchronous_commit` is on: when COMMIT is
  /// confirmed, the orders are on the server's disk.
  ///
  ///     number bigint primary key, placed_at timestamptz, items jsonb, total bigint, payable bigint
  public final class PostgresOrders: Orders, OrderHistory {
    /// The table, created on first use.
    static let table = "shop_orders"

    private let uri: String
    private var opened: PostgresConnection?

    /// Touches nothing yet: the connection is made, and the table created, on first use.
    public init(uri: String) {
      self.uri = uri
    }

    public func save(_ drafts: [Draft]) throws -> [Order] {
      guard !drafts.isEmpty else { return [] }
      return try withTable { connection in try save(drafts, on: connection) }
    }

    /// A group without refs is saved as before; one with refs by ``placeReferenced(_:on:)``.
    public func place(_ drafts: [Draft]) throws -> [Placement] {
      guard drafts.contains(where: { $0.reference != nil }) else {
        return try save(drafts).map { .placed($0) }
      }
      return try withTable { connection in try placeReferenced(drafts, on: connection) }
    }

    /// Groups smaller than this go in one round trip, from arrays; larger ones by COPY, whose
    /// multi-row inserts write far less WAL per row, for two round trips.
    static let copyFrom = 64

    private func save(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
      drafts.count < Self.copyFrom
        ? try insert(drafts, on: connection) : try copy(drafts, on: connection)
    }

    /// The server numbers the rows after the last order, and answers that last number. The
    /// INSERT is a statement after the LOCK, and under READ COMMITTED each statement takes a
    /// new snapshot, so its `max(number)` sees every order committed before the lock was
    /// granted; nobody else can insert until COMMIT.
    private static let insertNumbered = """
      WITH last AS (SELECT coalesce(max(number), 1000) AS number FROM \(table)),
      saved AS (
        INSERT INTO \(table) (number, placed_at, items, total, payable)
        SELECT last.number + u.o, to_timestamp(u.t), u.i, u.s, u.p
        FROM last, unnest($1::int8[], $2::jsonb[], $3::int8[], $4::int8[])
          WITH ORDINALITY AS u(t, i, s, p, o)
      )
      SELECT number FROM last
      """

    /// LOCK, the INSERT and COMMIT sent together: one round trip for the group.
    private func insert(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
      let outcome = connection.runInOneTrip([
        .init(sql: "LOCK TABLE \(Self.table) IN EXCLUSIVE MODE"),
        .init(sql: Self.insertNumbered, parameters: columns(of: drafts)),
      ])
      // The answers are LOCK's, then the INSERT's: the number before the group's.
      func last(_ answers: [PostgresResult]) -> Int? {
        answers.count == 2 ? answers[1].integer(0, 0) : nil
      }
      switch outcome {
      case .committed(let answers):
        guard let last = last(answers) else {
          throw PostgresError.badData(connection.place, "the last order number is not a number")
        }
        return try Self.numbered(drafts, after: last)
      case .refused(let error):
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      case .unknown(let answers):
        // An answer that never comes leaves the outcome unknown, which is not the same as
        // failed: the orders must not be reported, nor said to be unsaved.
        throw PostgresError.unconfirmed(
          connection.place, first: last(answers).map { $0 &+ 1 }, count: drafts.count)
      }
    }

    /// The lock is taken before the last number is read, and that read is its own statement,
    /// so it sees every order committed before the lock was granted. Then the rows go by COPY,
    /// and COMMIT follows them in the same query string.
    private func copy(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
      var rows = PostgresCopyRows(capacity: 120 * drafts.count)
      let orders: [Order]
      do {
        let last = try connection.run(
          "BEGIN; LOCK TABLE \(Self.table) IN EXCLUSIVE MODE; "
            + "SELECT coalesce(max(number), 1000) FROM \(Self.table)")
        guard let lastNumber = last.integer(0, 0) else {
          throw PostgresError.badData(connection.place, "the last order number is not a number")
        }
        orders = try Self.numbered(drafts, after: lastNumber)
        var json: [UInt8] = []
        for order in orders {
          rows.startRow(fields: 5)
          rows.append(order.number)
          guard rows.appendTimestamp(secondsSince1970: order.placedAt.secondsSince1970) else {
            throw PostgresError.badData(
              connection.place, "order \(order.number): the time is out of PostgreSQL's range")
          }
          json.removeAll(keepingCapacity: true)
          OrderJSON.appendItems(order.lines, to: &json)
          rows.appendJSONB(json)
          rows.append(order.total)
          rows.append(order.payable)
        }
      } catch {
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      }
      let sql =
        "COPY \(Self.table) (number, placed_at, items, total, payable) FROM STDIN (FORMAT binary)"
      switch connection.copyThenCommit(sql, rows) {
      case .committed:
        return orders
      case .refused(let error):
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      case .unknown:
        throw PostgresError.unconfirmed(
          connection.place, first: orders.first?.number, count: orders.count)
      }
    }

    /// Under the same lock as the numbering: reads the last number and the orders that hold
    /// the group's refs, lets the core's rule decide, then sends only the new orders by COPY,
    /// COMMIT in the same query string. The unique `ref` column refuses a second order for a
    /// ref even from a writer that did not take the lock.
    private func placeReferenced(_ drafts: [Draft], on connection: PostgresConnection) throws
      -> [Placement]
    {
      let plan: (placements: [Placement], new: [Order])
      var rows = PostgresCopyRows(capacity: 140 * drafts.count)
      do {
        let last = try connection.run(
          "BEGIN; LOCK TABLE \(Self.table) IN EXCLUSIVE MODE; "
            + "SELECT coalesce(max(number), 1000) FROM \(Self.table)")
        guard let lastNumber = last.integer(0, 0) else {
          throw PostgresError.badData(connection.place, "the last order number is not a number")
        }
        // Refs are letters, digits and -_.:/, so each goes quoted into the array's text form
        // as it is; the array is a parameter, never SQL text.
        var list = Array("{".utf8)
        for (index, reference) in drafts.compactMap(\.reference).enumerated() {
          if index > 0 { list.append(UInt8(ascii: ",")) }
          list.append(UInt8(ascii: "\""))
          list.append(contentsOf: reference.text.utf8)
          list.append(UInt8(ascii: "\""))
        }
        list.append(UInt8(ascii: "}"))
        let held = try connection.run(
          "SELECT \(Self.columns) WHERE ref = ANY($1::text[])", [PostgresParameter(text: list)])
        var existing: [Reference: Order] = [:]
        for row in 0..<held.rows {
          let order = try Self.order(in: held, row, place: connection.place)
          if let reference = order.reference { existing[reference] = order }
        }
        guard let planned = Placement.plan(drafts, after: lastNumber, existing: { existing[$0] })
        else { throw OrdersFull(last: .max) }
        plan = planned
        if plan.new.isEmpty {
          _ = try connection.run("ROLLBACK")
          return plan.placements
        }
        var json: [UInt8] = []
        for order in plan.new {
          rows.startRow(fields: 6)
          rows.append(order.number)
          guard rows.appendTimestamp(secondsSince1970: order.placedAt.secondsSince1970) else {
            throw PostgresError.badData(
              connection.place, "order \(order.number): the time is out of PostgreSQL's range")
          }
          json.removeAll(keepingCapacity: true)
          OrderJSON.appendItems(order.lines, to: &json)
          rows.appendJSONB(json)
          rows.append(order.total)
          rows.append(order.payable)
          rows.appendText(order.reference?.text)
        }
      } catch {
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      }
      let sql =
        "COPY \(Self.table) (number, placed_at, items, total, payable, ref) FROM STDIN "
        + "(FORMAT binary)"
      switch connection.copyThenCommit(sql, rows) {
      case .committed:
        return plan.placements
      case .refused(let error):
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      case .unknown:
        let unconfirmed = PostgresError.unconfirmed(
          connection.place, first: plan.new.first?.number, count: plan.new.count)
        guard plan.new.allSatisfy({ $0.reference != nil }) else { throw unconfirmed }
        // Every order of the group has a ref: placing them again can't place any twice.
        throw PostgresError(
          status: .temporaryFailure,
          message: unconfirmed.message.replacing(
            /; check with .*$/, with: "; their refs make it safe to run the same command again"))
      }
    }

    public func order(
      referenced reference: Reference, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
    ) throws -> Bool {
      let (connection, result) = try withTable { connection in
        let result = try connection.run(
          "SELECT \(Self.columns) WHERE ref = $1",
          [PostgresParameter(text: Array(reference.text.utf8))])
        return (connection, result)
      }
      guard result.rows > 0 else { return false }
      try visit(try Self.order(in: result, 0, place: connection.place), nil)
      return true
    }

    /// The drafts as orders numbered on from `last`.
    private static func numbered(_ drafts: [Draft], after last: Int) throws -> [Order] {
      var orders: [Order] = []
      orders.reserveCapacity(drafts.count)
      var previous = last
      for draft in drafts {
        guard let number = Order.number(after: previous) else { throw OrdersFull(last: previous) }
        orders.append(Order(number: number, draft: draft))
        previous = number
      }
      return orders
    }

    /// The four arrays the INSERT reads, in the binary format: nothing to quote or escape.
    private func columns(of drafts: [Draft]) -> [PostgresParameter] {
      var times = PostgresArray(elementType: PostgresArray.int8, capacity: 12 * drafts.count)
      var items = PostgresArray(elementType: PostgresArray.jsonb, capacity: 100 * drafts.count)
      var totals = PostgresArray(elementType: PostgresArray.int8, capacity: 12 * drafts.count)
      var payables = PostgresArray(elementType: PostgresArray.int8, capacity: 12 * drafts.count)
      var json: [UInt8] = []
      for draft in drafts {
        times.append(Int(draft.placedAt.secondsSince1970))
        totals.append(draft.total)
        payables.append(Order.payable(total: draft.total))
        json.removeAll(keepingCapacity: true)
        OrderJSON.appendItems(draft.lines, to: &json)
        items.appendJSONB(json)
      }
      return [times.parameter, items.parameter, totals.parameter, payables.parameter]
    }

    // MARK: - Reading

    private static let columns =
      "number, CASE WHEN isfinite(placed_at) THEN extract(epoch FROM placed_at)::int8 END, "
      + "items, total, payable, ref FROM \(table)"

    public func readAll(_ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
      try withTable { connection in try readAll(on: connection, visit) }
    }

    private func readAll(
      on connection: PostgresConnection,
      _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
    ) throws {
      var expected = Order.firstNumber
      try connection.stream("SELECT \(Self.columns) ORDER BY number", []) { row in
        let order = try Self.order(in: row, 0, place: connection.place)
        try Self.check(order.number, expected: expected, place: connection.place)
        expected = order.number &+ 1  // Wraps only after Int.max, which no row can follow.
        try visit(order, nil)
      }
    }

    /// Counts, and checks the count against the numbers: 1001… with no gap means the last
    /// number is 1000 + the count.
    public func count() throws -> Int {
      let (connection, result) = try withTable { connection in
        let result = try connection.run(
          "SELECT count(*), coalesce(min(number), 1001), coalesce(max(number), 1000) "
            + "FROM \(Self.table)")
        return (connection, result)
      }
      guard let count = result.integer(0, 0), let first = result.integer(0, 1),
        let last = result.integer(0, 2)
      else { throw PostgresError.badData(connection.place, "the count is not a number") }
      guard first == Order.firstNumber, last == Order.firstNumber - 1 + count else {
        throw PostgresError.badData(
          connection.place,
          "\(count) orders run from \(first) to \(last): a gap or a number before 1001")
      }
      return count
    }

    public func last(_ count: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void)
      throws
    {
      guard count > 0 else { return }
      let (connection, result) = try withTable { connection in
        let result = try connection.run(
          "SELECT * FROM (SELECT \(Self.columns) ORDER BY number DESC LIMIT $1) AS last "
            + "ORDER BY number",
          [PostgresParameter(count)])
        return (connection, result)
      }
      var orders: [Order] = []
      orders.reserveCapacity(result.rows)
      for row in 0..<result.rows {
        orders.append(try Self.order(in: result, row, place: connection.place))
      }
      // Fewer than asked means these are all the orders, so they start at 1001.
      var expected = orders.count < count ? Order.firstNumber : (orders.first?.number ?? 0)
      for order in orders {
        try Self.check(order.number, expected: expected, place: connection.place)
        expected = order.number &+ 1
      }
      for order in orders { try visit(order, nil) }
    }

    public func order(
      numbered number: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
    ) throws -> Bool {
      let (connection, result) = try withTable { connection in
        let result = try connection.run(
          "SELECT \(Self.columns) WHERE number = $1", [PostgresParameter(number)])
        return (connection, result)
      }
      guard result.rows > 0 else { return false }
      try visit(try Self.order(in: result, 0, place: connection.place), nil)
      return true
    }

    private static func check(_ number: Int, expected: Int, place: PostgresPlace) throws {
      guard number != expected else { return }
      throw PostgresError.badData(
        place,
        number < expected
          ? "order \(number) comes where \(expected) should: a repeat or a number before 1001"
          : "order \(number) follows \(expected &- 1): orders \(expected)…\(number &- 1) are missing"
      )
    }

    /// The order in `row`, checked as strictly as a line of the orders file.
    private static func order(in result: PostgresResult, _ row: Int, place: PostgresPlace) throws
      -> Order
    {
      guard let number = result.integer(row, 0) else {
        throw PostgresError.badData(place, "an order number is not a number")
      }
      func bad(_ reason: String) -> PostgresError {
        .badData(place, "order \(number): \(reason)")
      }
      guard number >= Order.firstNumber else { throw bad("the number is below 1001") }
      guard let seconds = result.integer(row, 1), let total = result.integer(row, 3),
        let payable = result.integer(row, 4)
      else { throw bad("placed_at, total or payable is missing") }
      guard let text = result.bytes(row, 2) else { throw bad("no items") }
      var parser = JSONParser(bytes: text)
      guard case .array(let items) = parser.document(), !items.isEmpty else {
        throw bad("items is not a list of items")
      }
      var lines: [OrderLine] = []
      lines.reserveCapacity(items.count)
      for item in items {
        guard case .object(let item) = item, case .string(let sku) = item["sku"],
          SKU.isValid(sku), case .integer(let quantity) = item["quantity"], quantity > 0,
          case .integer(let price) = item["price"], price >= 0
        else { throw bad("an item is not {\"sku\", \"quantity\", \"price\"}") }
        lines.append(OrderLine(sku: sku, quantity: quantity, price: price))
      }
      // The orders file can only hold the years 0000 to 9999; neither store writes others.
      guard UTCTime.seconds.contains(Int64(seconds)) else {
        throw bad("placed_at is outside the years 0000 to 9999")
      }
      var reference: Reference?
      if let text = result.bytes(row, 5) {
        guard let valid = Reference(text) else { throw bad("the ref is not a valid ref") }
        reference = valid
      }
      guard
        let draft = Draft(
          lines: lines, placedAt: Timestamp(secondsSince1970: Int64(seconds)),
          reference: reference),
        draft.total == total, Order.payable(total: total) == payable
      else { throw bad("total or payable does not match the items") }
      return Order(number: number, draft: draft)
    }

    // MARK: - The connection

    /// Runs `body` on the connection; when the table does not exist yet, creates it and runs
    /// `body` again. Costs nothing once the table is there.
    private func withTable<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
      let connection = try connect()
      do {
        return try body(connection)
      } catch let error as PostgresError
        where error.sqlState == "42P01" || error.sqlState == "42703"
      {  // undefined_table; undefined_column: a table made before refs
        _ = try? connection.run("ROLLBACK")
        try createTable(on: connection)
        return try body(connection)
      }
    }

    private func connect() throws -> PostgresConnection {
      if let opened { return opened }
      let connection = try PostgresConnection(uri: uri)
      opened = connection
      return connection
    }

    /// Under a lock, so two first users don't race on CREATE TABLE.
    private func createTable(on connection: PostgresConnection) throws {
      try connection.run(
        """
        BEGIN;
        SELECT pg_advisory_xact_lock(\(Self.schemaLock));
        CREATE TABLE IF NOT EXISTS \(Self.table) (
          number bigint PRIMARY KEY,
          placed_at timestamptz NOT NULL,
          items jsonb NOT NULL,
          total bigint NOT NULL,
          payable bigint NOT NULL,
          ref text UNIQUE
        );
        ALTER TABLE \(Self.table) ADD COLUMN IF NOT EXISTS ref text UNIQUE;
        COMMIT
        """)
    }

    /// The advisory lock key for creating the table: "shop" in ASCII.
    private static let schemaLock = 0x7368_6F70
  }
#endif
