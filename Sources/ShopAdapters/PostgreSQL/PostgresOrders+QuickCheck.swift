import ShopCore

// The fast path of the table check, for the first transaction of a session (every `place`).
//
// The full check (``PostgresOrders/schemaFits``, tested by the numbering INSERT itself) costs a
// new session about 7 ms of server time: planning a query of some twenty subqueries,
// functions and operators over a cold catalog cache. These five plain queries read the same
// catalog rows for about 1.5 ms, under the table's lock, in the round trip that carries the
// transaction's opening anyway; `shop` accepts only the table exactly as it makes it. Anything
// else (an extra column, a collation it does not know, a second relation named like the
// table) is not refused here but rolled back and checked the plain way, which refuses or
// accepts it and says why: so this path can only be stricter than the full check, never
// laxer (`theQuickCheckAcceptsOnlyWhatTheFullCheckAccepts`).
extension PostgresOrders {
  /// The catalog rows of the table `to_regclass` finds, in five answers: its kind,
  /// persistence and how many relations of the database have its name; its columns; its
  /// indexes; its triggers; its rules. Asked after the lock, which keeps every one of them
  /// as read until COMMIT (DDL on the table waits for it). `serverVersion` is libpq's
  /// `PQserverVersion`: `indnullsnotdistinct` came in PostgreSQL 15.
  static func quickCheckQueries(serverVersion: Int) -> [PostgresConnection.Statement] {
    let relation = "pg_catalog.to_regclass('\(table)')"
    let nullsNotDistinct = serverVersion >= 150_000 ? "i.indnullsnotdistinct" : "false"
    return [
      "SELECT c.relkind, c.relpersistence, (SELECT pg_catalog.count(*) "
        + "FROM pg_catalog.pg_class n WHERE n.relname = '\(table)') "
        + "FROM pg_catalog.pg_class c WHERE c.oid = \(relation)",
      "SELECT a.attnum, a.attname, a.atttypid, a.atttypmod, a.attnotnull, a.attgenerated, "
        + "a.attidentity, a.attcollation, a.atthasdef FROM pg_catalog.pg_attribute a "
        + "WHERE a.attrelid = \(relation) AND a.attnum > 0 AND NOT a.attisdropped",
      "SELECT i.indkey, i.indisprimary, i.indisunique, i.indisvalid, "
        + "i.indpred IS NULL AND i.indexprs IS NULL, i.indcollation, \(nullsNotDistinct) "
        + "FROM pg_catalog.pg_index i WHERE i.indrelid = \(relation)",
      "SELECT t.tgtype FROM pg_catalog.pg_trigger t "
        + "WHERE t.tgrelid = \(relation) AND NOT t.tgisinternal",
      "SELECT r.ev_type FROM pg_catalog.pg_rewrite r WHERE r.ev_class = \(relation)",
    ].map { PostgresConnection.Statement(sql: $0) }
  }

  /// Collations that compare byte for byte whatever the server: the database's default
  /// (which PostgreSQL requires to be deterministic), `C` and `POSIX`.
  private static let plainCollations: Set<String> = ["100", "950", "951"]

  /// What the quick check learnt of a table it found to be plainly `shop`'s.
  struct PlainTable {
    /// It has `voids` (a table made before voids has not).
    let hasVoids: Bool
  }

  /// Whether the answers of ``quickCheckQueries(serverVersion:)`` show exactly the table
  /// `shop` makes: the six columns as it declares them and no other, or those and `voids`;
  /// `number` alone the primary key; `ref` unique on its own (NULLs distinct, no predicate, a
  /// plain collation); `voids` unique on its own, with no default; a plain permanent table
  /// that is the only relation of its name in the database (so none in a schema the role may
  /// not use hides it), no BEFORE INSERT row trigger, no INSERT rule. Nil for anything else,
  /// which the full check then judges.
  static func plainlyShops(_ answers: [PostgresResult]) -> PlainTable? {
    guard answers.count == 5 else { return nil }
    let (table, columns, indexes, triggers, rules) =
      (answers[0], answers[1], answers[2], answers[3], answers[4])
    guard table.rows == 1, table.text(0, 0) == "r", table.text(0, 1) == "p",
      table.text(0, 2) == "1",
      columns.rows == schema.count + 1 || columns.rows == schema.count + 2
    else { return nil }
    var numbers: [String: String] = [:]  // name: attnum
    for row in 0..<columns.rows {
      guard let name = columns.text(row, 1), let number = columns.text(row, 0),
        numbers[name] == nil
      else { return nil }
      let expected: (oid: UInt32, notNull: Bool)
      if name == "ref" {
        guard let collation = columns.text(row, 7), plainCollations.contains(collation) else {
          return nil
        }
        expected = (textOID, false)
      } else if name == "voids" {
        // No default: `place` leaves the column out, and a filled one makes a void of it.
        guard columns.text(row, 8) == "f" else { return nil }
        expected = (int8OID, false)
      } else if let column = schema.first(where: { $0.name == name }) {
        expected = (column.oid, true)
      } else {
        return nil
      }
      guard columns.text(row, 2) == String(expected.oid), columns.text(row, 3) == "-1",
        columns.text(row, 4) == (expected.notNull ? "t" : "f"), columns.text(row, 5) == "",
        columns.text(row, 6) == ""
      else { return nil }
      numbers[name] = number
    }
    guard let number = numbers["number"], let ref = numbers["ref"] else { return nil }
    let voids = numbers["voids"]
    guard columns.rows == schema.count + (voids == nil ? 1 : 2) else { return nil }
    var primaryKeys: [String] = []
    var refUnique = false
    var voidsUnique = false
    for row in 0..<indexes.rows {
      if indexes.text(row, 1) == "t" { primaryKeys.append(indexes.text(row, 0) ?? "") }
      // Unique and valid, of that column alone, no predicate or expression, NULLs distinct.
      guard indexes.text(row, 2) == "t", indexes.text(row, 3) == "t",
        indexes.text(row, 4) == "t", indexes.text(row, 6) == "f"
      else { continue }
      if indexes.text(row, 0) == ref, let collation = indexes.text(row, 5),
        plainCollations.contains(collation)
      {
        refUnique = true
      }
      // An int8 key has no collation.
      if let voids, indexes.text(row, 0) == voids, indexes.text(row, 5) == "0" {
        voidsUnique = true
      }
    }
    guard primaryKeys == [number], refUnique, voids == nil || voidsUnique else { return nil }
    // tgtype's bits: 1 a row trigger, 2 BEFORE, 4 INSERT.
    for row in 0..<triggers.rows {
      guard let type = triggers.integer(row, 0), type & 7 != 7 else { return nil }
    }
    guard (0..<rules.rows).allSatisfy({ rules.text($0, 0) != "3" }) else { return nil }
    return PlainTable(hasVoids: voids != nil)
  }
}
