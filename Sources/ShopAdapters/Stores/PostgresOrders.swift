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
  /// Before its first use of the table, each command checks the table is the one `shop` makes
  /// (``schema``), and every writer and cheap reader checks the numbering it continues or
  /// reads from (``Numbering``), so what `place` accepts `orders` accepts.
  public final class PostgresOrders: Orders, OrderHistory {
    /// The table, created on first use.
    static let table = "shop_orders"

    /// A column `shop` reads and writes: all are NOT NULL.
    struct Column {
      let name: String
      /// As `format_type` spells it.
      let type: String
      var primaryKey = false

      var declaration: String { "\(type) NOT NULL" + (primaryKey ? " PRIMARY KEY" : "") }
    }

    /// The columns checked by name, type, NOT NULL and primary key. Other columns may exist
    /// (a later version may add one): `shop` leaves them to their defaults.
    static let schema = [
      Column(name: "number", type: "bigint", primaryKey: true),
      Column(name: "placed_at", type: "timestamp with time zone"),
      Column(name: "items", type: "jsonb"),
      Column(name: "total", type: "bigint"),
      Column(name: "payable", type: "bigint"),
    ]

    /// The privileges each statement needs, for the message when one is missing.
    enum Needs {
      static let select = "SELECT on table \(table)"
      static let lock =
        "UPDATE (or DELETE or TRUNCATE) on table \(table): LOCK TABLE … IN EXCLUSIVE MODE, "
        + "which keeps the numbers free of gaps, takes it (shop never updates a row)"
      static let insert = "SELECT and INSERT on table \(table)"
      static let copy = "INSERT on table \(table)"
      static let create =
        "CREATE on the schema to create table \(table) (or create it first, as the README shows)"
      static let addReference =
        "to own table \(table) to add its ref column (or add it first, as the README shows)"
    }

    private let uri: String
    private var opened: PostgresConnection?
    /// The table was found to be `shop`'s on this connection: checked once per command.
    private var schemaChecked = false
    /// The last order this store saved and confirmed, so reported: for the 75 message.
    private var lastSaved: Int?

    /// Touches nothing yet: the connection is made, and the table created, on first use.
    public init(uri: String) {
      self.uri = uri
    }

    public func save(_ drafts: [Draft]) throws -> [Order] {
      guard !drafts.isEmpty else { return [] }
      let saved = try withTable { connection in try save(drafts, on: connection) }
      if let last = saved.last { lastSaved = last.number }
      return saved
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

    // MARK: - What a table must be

    /// One row per column of the table: name, type, NOT NULL, whether it alone is the
    /// primary key. No row when there is no table.
    static let schemaQuery = """
      SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, \(primaryKeyTest)
      FROM pg_attribute a
      WHERE a.attrelid = to_regclass('\(table)') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum
      """

    private static let primaryKeyTest = """
      coalesce(a.attnum::text = (SELECT i.indkey::text FROM pg_index i \
      WHERE i.indrelid = a.attrelid AND i.indisprimary), false)
      """

    /// The same test in SQL, so a one-round-trip INSERT writes nothing into a foreign table
    /// before `shop` has read the answer of ``schemaQuery``.
    static let schemaFits: String = {
      let rows = schema.map { "('\($0.name)', '\($0.type)', true, \($0.primaryKey))" }
      return """
        (SELECT count(*) FROM pg_attribute a
        WHERE a.attrelid = to_regclass('\(table)') AND a.attnum > 0 AND NOT a.attisdropped
          AND (a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull,
            \(primaryKeyTest)) IN (VALUES \(rows.joined(separator: ", ")))) = \(schema.count)
        """
    }()

    /// Why the table described by `result` (``schemaQuery``'s answer) is not `shop`'s; nil when
    /// it is, or when there is no table yet.
    static func schemaProblem(_ result: PostgresResult) -> String? {
      guard result.rows > 0 else { return nil }
      var found: [String: (type: String, notNull: Bool, primaryKey: Bool)] = [:]
      for row in 0..<result.rows {
        guard let name = result.text(row, 0), let type = result.text(row, 1) else { continue }
        found[name] = (type, result.text(row, 2) == "t", result.text(row, 3) == "t")
      }
      var problems: [String] = []
      for column in schema {
        guard let have = found[column.name] else {
          problems.append("no column \(column.name) (\(column.declaration))")
          continue
        }
        var wrong: [String] = []
        if have.type != column.type { wrong.append("of type \(have.type)") }
        if !have.notNull { wrong.append("nullable") }
        if have.primaryKey != column.primaryKey {
          wrong.append(column.primaryKey ? "not the primary key" : "the primary key")
        }
        if !wrong.isEmpty {
          problems.append(
            "column \(column.name) is \(wrong.joined(separator: ", ")) where shop expects "
              + column.declaration)
        }
      }
      guard !problems.isEmpty else { return nil }
      return "table \(table) is not the one shop makes: " + problems.joined(separator: "; ")
        + "; nothing was written"
    }

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
            ? "order \(last) follows \(previous): orders \(previous &+ 1)…\(last &- 1) are missing"
            : "order \(last) is there twice"
        }
        return last == Order.firstNumber ? nil : "order \(last) is the only order but not 1001"
      }

      func check(_ place: PostgresPlace) throws {
        if let problem { throw PostgresError.badData(place, problem) }
      }
    }

    // MARK: - Writing

    /// The server numbers the rows after the last order, and answers the numbering it
    /// continued and how many rows it inserted. The INSERT is a statement after the LOCK, and
    /// under READ COMMITTED each statement takes a new snapshot, so it sees every order
    /// committed before the lock was granted; nobody else can insert until COMMIT. It inserts
    /// nothing when the numbering (or, before the table was checked, the table) is not
    /// `shop`'s, so nothing is written before `shop` has read why.
    private static func insertNumbered(checkingSchema: Bool) -> String {
      """
      WITH last AS (SELECT \(Numbering.columns)),
      saved AS (
        INSERT INTO \(table) (number, placed_at, items, total, payable)
        SELECT coalesce(last.number, \(Order.firstNumber - 1)) + u.o, to_timestamp(u.t), u.i, u.s, u.p
        FROM last, unnest($1::int8[], $2::jsonb[], $3::int8[], $4::int8[])
          WITH ORDINALITY AS u(t, i, s, p, o)
        WHERE \(Numbering.fitsSQL)\(checkingSchema ? " AND " + schemaFits : "")
        RETURNING 1
      )
      SELECT last.first, last.number, last.previous, (SELECT count(*) FROM saved) FROM last
      """
    }

    /// LOCK, the INSERT and COMMIT sent together: one round trip for the group. Before the
    /// table was checked, the INSERT tests it in SQL; only when it inserted nothing, or failed,
    /// does a second trip ask the catalog why, so a `place` into a good table pays one
    /// catalog query, inside its one round trip.
    private func insert(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
      let checking = !schemaChecked
      let outcome = connection.runInOneTrip([
        .init(sql: "LOCK TABLE \(Self.table) IN EXCLUSIVE MODE", needs: Needs.lock),
        .init(
          sql: Self.insertNumbered(checkingSchema: checking), parameters: columns(of: drafts),
          needs: Needs.insert),
      ])
      let place = connection.place
      // The answers are LOCK's, then the INSERT's.
      switch outcome {
      case .committed(let answers):
        guard answers.count == 2, let inserted = answers[1].integer(0, 3) else {
          throw PostgresError.badData(place, "the last order number is not a number")
        }
        let numbering = try Numbering(answers[1], from: 0, place: place)
        if inserted == drafts.count {
          if checking { schemaChecked = true }
          return try Self.numbered(drafts, after: numbering.last ?? Order.firstNumber - 1)
        }
        // Nothing was inserted: the server found the table or its numbering is not shop's.
        if checking { try checkSchema(on: connection) }
        try numbering.check(place)
        throw PostgresError.badData(
          place,
          "the server inserted \(inserted) of \(drafts.count) orders: the table's "
            + "numbering or columns are not shop's")
      case .refused(let error, _):
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        // A foreign table's types can make the INSERT itself fail: say why, if that is why.
        if checking && !connection.isLost && error.sqlState != "42P01" {
          do {
            try checkSchema(on: connection)
          } catch let foreign as PostgresError where foreign.status == .dataError {
            throw foreign
          } catch {}  // The catalog can't say: the refusal itself is the message.
        }
        throw error
      case .unknown(let answers, let why):
        // An answer that never comes leaves the outcome unknown, which is not the same as
        // failed: the orders must not be reported, nor said to be unsaved.
        let last =
          answers.count == 2
          ? (try? Numbering(answers[1], from: 0, place: place))?.last ?? Order.firstNumber - 1
          : nil
        throw PostgresError.unconfirmed(
          place, first: last.map { $0 &+ 1 }, count: drafts.count, lastReported: lastSaved,
          why: why)
      }
    }

    /// Asks the catalog whether the table is `shop`'s: 65 naming the columns when not.
    private func checkSchema(on connection: PostgresConnection) throws {
      let description = try connection.run(Self.schemaQuery)
      if let problem = Self.schemaProblem(description) {
        throw PostgresError.badData(connection.place, problem)
      }
      if description.rows > 0 { schemaChecked = true }
    }

    /// Begins a transaction, checks the table the first time, takes the lock and reads the
    /// numbering, checked: the read is its own statement after the lock, so it sees every
    /// order committed before the lock was granted.
    private func lockAndReadNumbering(on connection: PostgresConnection) throws -> Numbering {
      let place = connection.place
      let checking = !schemaChecked
      var statements: [PostgresConnection.Statement] = [.init(sql: "BEGIN")]
      if checking { statements.append(.init(sql: Self.schemaQuery)) }
      statements += [
        .init(sql: "LOCK TABLE \(Self.table) IN EXCLUSIVE MODE", needs: Needs.lock),
        .init(sql: "SELECT \(Numbering.columns)", needs: Needs.select),
      ]
      let answers = try connection.run(statements)
      if checking, answers.count > 1 {
        if let problem = Self.schemaProblem(answers[1]) {
          throw PostgresError.badData(place, problem)
        }
        if answers[1].rows > 0 { schemaChecked = true }
      }
      guard let last = answers.last else {
        throw PostgresError.badData(place, "the last order number is not a number")
      }
      let numbering = try Numbering(last, from: 0, place: place)
      try numbering.check(place)
      return numbering
    }

    /// The lock is taken before the numbering is read (``lockAndReadNumbering(on:)``). Then
    /// the rows go by COPY, and COMMIT follows them in the same query string.
    private func copy(_ drafts: [Draft], on connection: PostgresConnection) throws -> [Order] {
      var rows = PostgresCopyRows(capacity: 120 * drafts.count)
      let orders: [Order]
      let place = connection.place
      do {
        let numbering = try lockAndReadNumbering(on: connection)
        orders = try Self.numbered(drafts, after: numbering.last ?? Order.firstNumber - 1)
        var json: [UInt8] = []
        for order in orders {
          rows.startRow(fields: 5)
          rows.append(order.number)
          guard rows.appendTimestamp(secondsSince1970: order.placedAt.secondsSince1970) else {
            throw PostgresError.badData(
              place, "order \(order.number): the time is out of PostgreSQL's range")
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
      switch connection.copyThenCommit(sql, rows, needs: Needs.copy) {
      case .committed:
        return orders
      case .refused(let error, _):
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      case .unknown(_, let why):
        throw PostgresError.unconfirmed(
          place, first: orders.first?.number, count: orders.count, lastReported: lastSaved,
          why: why)
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
        let numbering = try lockAndReadNumbering(on: connection)
        let lastNumber = numbering.last
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
        else { throw OrdersFull(last: lastNumber ?? 0) }
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
      switch connection.copyThenCommit(sql, rows, needs: Needs.copy) {
      case .committed:
        if let last = plan.new.last { lastSaved = last.number }
        return plan.placements
      case .refused(let error, _):
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      case .unknown(_, let why):
        let unconfirmed = PostgresError.unconfirmed(
          connection.place, first: plan.new.first?.number, count: plan.new.count,
          lastReported: lastSaved, why: why)
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

    // Internal, not private: PostgresOrders+History.swift reads through these.
    static let columns =
      "number, CASE WHEN isfinite(placed_at) THEN extract(epoch FROM placed_at)::int8 END, "
      + "items, total, payable, ref FROM \(table)"

    /// Before a read: checks the table is `shop`'s (once), and with `numbering`, the numbers a
    /// writer would continue, as `place` does, so readers and writers agree. One round trip.
    private func prepareToRead(on connection: PostgresConnection, numbering: Bool) throws {
      var statements: [PostgresConnection.Statement] = []
      if !schemaChecked { statements.append(.init(sql: Self.schemaQuery)) }
      if numbering {
        statements.append(.init(sql: "SELECT \(Numbering.columns)", needs: Needs.select))
      }
      guard !statements.isEmpty else { return }
      let answers = try connection.run(statements)
      if !schemaChecked, let description = answers.first {
        if let problem = Self.schemaProblem(description) {
          throw PostgresError.badData(connection.place, problem)
        }
        if description.rows > 0 { schemaChecked = true }
      }
      if numbering, let last = answers.last {
        try Numbering(last, from: 0, place: connection.place).check(connection.place)
      }
    }

    public func readAll(_ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
      try withTable { connection in
        // The listing checks every number, so no separate numbering check.
        try prepareToRead(on: connection, numbering: false)
        try readAll(on: connection, visit)
      }
    }

    private func readAll(
      on connection: PostgresConnection,
      _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
    ) throws {
      var expected = Order.firstNumber
      try connection.stream("SELECT \(Self.columns) ORDER BY number", [], needs: Needs.select) {
        row in
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
        try prepareToRead(on: connection, numbering: false)
        let result = try connection.run(
          "SELECT count(*), coalesce(min(number), 1001), coalesce(max(number), 1000) "
            + "FROM \(Self.table)", [], needs: Needs.select)
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

    /// The newest `count` orders, oldest first, streamed (single-row mode), so memory does not
    /// grow with `count`. The numbering is checked first as a writer checks it; then each row
    /// must follow the one before it. The first row needs no check of its own: either it is
    /// the first order (1001, checked), or rows come before it and so all `count` came.
    public func last(_ count: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void)
      throws
    {
      guard count > 0 else { return }
      try withTable { connection in
        try prepareToRead(on: connection, numbering: true)
        var expected: Int?
        try connection.stream(
          "SELECT * FROM (SELECT \(Self.columns) ORDER BY number DESC LIMIT $1) AS last "
            + "ORDER BY number", [PostgresParameter(count)], needs: Needs.select
        ) { row in
          let order = try Self.order(in: row, 0, place: connection.place)
          if let expected {
            try Self.check(order.number, expected: expected, place: connection.place)
          }
          expected = order.number &+ 1
          try visit(order, nil)
        }
      }
    }

    public func order(
      numbered number: Int, _ visit: (Order, UnsafeBufferPointer<UInt8>?) throws -> Void
    ) throws -> Bool {
      let (connection, result) = try withTable { connection in
        try prepareToRead(on: connection, numbering: true)
        let result = try connection.run(
          "SELECT \(Self.columns) WHERE number = $1", [PostgresParameter(number)],
          needs: Needs.select)
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
    static func order(in result: PostgresResult, _ row: Int, place: PostgresPlace) throws
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
    func withTable<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
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
      // `ref` is nullable, so it is not among the checked columns; a table made before refs
      // gets it here, the first time a statement finds it missing.
      let columns = Self.schema.map { "  \($0.name) \($0.declaration)" } + ["  ref text UNIQUE"]
      try connection.run([
        .init(sql: "BEGIN"), .init(sql: "SELECT pg_advisory_xact_lock(\(Self.schemaLock))"),
        .init(
          sql: "CREATE TABLE IF NOT EXISTS \(Self.table) (\n"
            + columns.joined(separator: ",\n") + "\n)", needs: Needs.create),
        .init(
          sql: "ALTER TABLE \(Self.table) ADD COLUMN IF NOT EXISTS ref text UNIQUE",
          needs: Needs.addReference),
        .init(sql: "COMMIT"),
      ])
    }

    /// The advisory lock key for creating the table: "shop" in ASCII.
    private static let schemaLock = 0x7368_6F70
  }
#endif
