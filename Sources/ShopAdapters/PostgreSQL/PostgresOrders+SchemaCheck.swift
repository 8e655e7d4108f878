import ShopConventions
import ShopCore

// The answers to the catalog queries of PostgresOrders+Schema.swift: why a table is not
// `shop`'s, in words, and what each command does about it.
extension PostgresOrders {
  /// How a refusal of the table ends: a writer wrote nothing; a reader (which never writes)
  /// read no order from it.
  static func refusalEnd(writing: Bool) -> String {
    writing ? "nothing was written" : "no order was read from it"
  }

  /// Why the table described by `result` (``schemaQuery``'s answer) is not `shop`'s; nil when
  /// it is, or when there is no table yet. `writing` says how the message ends.
  static func schemaProblem(_ result: PostgresResult, writing: Bool) -> String? {
    guard result.rows > 0 else { return nil }
    var found: [String: (row: Int, notNull: Bool, primaryKey: Bool)] = [:]
    var problems: [String] = []
    for row in 0..<result.rows {
      guard let name = result.text(row, 0) else { continue }
      found[name] = (row, result.text(row, 2) == "t", result.text(row, 3) == "t")
      if name == "ref", let problem = referenceProblem(result, row) {
        problems.append(problem)
      }
      if name == "voids", let problem = voidsProblem(result, row) {
        problems.append(problem)
      }
      let shops = name == "ref" || name == "voids" || schema.contains { $0.name == name }
      if !shops && result.text(row, 15) == "t" {
        problems.append(
          "column \(name) is NOT NULL with no default, and shop sends only its own columns: "
            + "every insert would be refused (give it a default, or make it nullable)")
      }
      if shops, let computed = result.text(row, 6) {
        problems.append(
          computed == "identity"
            ? "column \(name) is GENERATED ALWAYS AS IDENTITY, which refuses the values shop "
              + "sends"
            : "column \(name) is generated (GENERATED ALWAYS AS …): the server would keep its "
              + "own value instead of the one shop sends")
      }
    }
    for column in schema {
      guard let have = found[column.name] else {
        problems.append("no column \(column.name) (\(column.declaration))")
        continue
      }
      var wrong: [String] = []
      if !isType(column.oid, result, have.row) {
        wrong.append("of type \(typeName(result, have.row))")
      }
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
    problems += tableProblems(result, 0, from: 7)
    guard !problems.isEmpty else { return nil }
    return "table \(table) is not the one shop makes: " + problems.joined(separator: "; ")
      + "; " + refusalEnd(writing: writing)
  }

  /// Whether the table described by `result` (``schemaQuery``'s answer, with rows) has `ref`:
  /// a table made before refs has not, and readers read its orders as having none.
  static func hasReference(_ result: PostgresResult) -> Bool {
    (0..<result.rows).contains { result.text($0, 0) == "ref" }
  }

  /// Whether the table described by `result` has `voids`: one made before voids has not, and
  /// readers read its rows as orders none took back.
  static func hasVoids(_ result: PostgresResult) -> Bool {
    (0..<result.rows).contains { result.text($0, 0) == "voids" }
  }

  /// What is wrong with the `voids` column described in `row`, or nil.
  private static func voidsProblem(_ result: PostgresResult, _ row: Int) -> String? {
    var wrong: [String] = []
    if !isType(int8OID, result, row) { wrong.append("of type \(typeName(result, row))") }
    if result.text(row, 2) == "t" { wrong.append("NOT NULL") }
    if result.text(row, 4) != "t" { wrong.append("not unique on its own") }
    // A generated one is named apart, as for every column shop sends.
    if result.text(row, 16) == "t" && result.text(row, 6) == nil {
      wrong.append(Self.voidsFilled)
    }
    guard !wrong.isEmpty else { return nil }
    return "column voids is \(wrong.joined(separator: ", ")) where shop expects "
      + voidsDeclaration
  }

  /// `voids` with a DEFAULT or an identity, in the words of a problem: `place` leaves the
  /// column out, so the server would fill it, and every order placed would read as a void.
  static let voidsFilled =
    "filled by the server when an insert leaves it out (a DEFAULT or an identity: every "
    + "order placed would read as a void)"

  /// What is wrong with the `ref` column described in `row`, or nil.
  private static func referenceProblem(_ result: PostgresResult, _ row: Int) -> String? {
    var wrong: [String] = []
    let text = isType(textOID, result, row)
    if !text { wrong.append("of type \(typeName(result, row))") }
    if result.text(row, 2) == "t" { wrong.append("NOT NULL") }
    if result.text(row, 4) != "t" { wrong.append("not unique on its own") }
    if text && result.text(row, 5) != "t" {
      wrong.append("of a nondeterministic collation")
    }
    guard !wrong.isEmpty else { return nil }
    return "column ref is \(wrong.joined(separator: ", ")) where shop expects "
      + referenceDeclaration
  }

  /// Whether the column in `row` of ``schemaQuery``'s answer is of pg_catalog's type `oid`,
  /// without a modifier (`timestamptz(3)` is not shop's `timestamptz`).
  private static func isType(_ oid: UInt32, _ result: PostgresResult, _ row: Int) -> Bool {
    result.text(row, 12) == String(oid) && result.text(row, 13) == "-1"
  }

  /// The type of the column in `row` of ``schemaQuery``'s answer as a message names it:
  /// `format_type`'s words, and the schema of a type that is not pg_catalog's (a domain
  /// `public.jsonb` is spelled `jsonb` when `public` comes first on the search path).
  private static func typeName(_ result: PostgresResult, _ row: Int) -> String {
    let type = result.text(row, 1) ?? "unknown"
    guard let schema = result.text(row, 14), schema != "pg_catalog" else { return type }
    return "\(type) (from schema \(TerminalText.quoted(schema.utf8)))"
  }

  /// The table-wide problems in `row` of a result whose columns from `column` on are
  /// ``tableQuery``'s.
  static func tableProblems(_ result: PostgresResult, _ row: Int, from column: Int) -> [String] {
    var problems: [String] = []
    if let kind = result.text(row, column), kind != "r" {
      let kinds = ["p": "a partitioned table", "v": "a view", "m": "a materialized view"]
      problems.append("it is \(kinds[kind] ?? "a relation of kind '\(kind)'"), not a plain table")
    }
    switch result.text(row, column + 1) {
    case "u":
      problems.append(
        "it is UNLOGGED: a crash of the server empties it, losing every order reported into it")
    case "t":
      problems.append(
        "it is a temporary table (a search_path starting with pg_temp?): the server drops it "
          + "when the session ends, with every order reported into it")
    case nil, "p": break
    case let other?: problems.append("its persistence is '\(other)', not a permanent table's")
    }
    if let triggers = result.text(row, column + 2) {
      problems.append(
        "it has BEFORE INSERT row triggers (\(triggers)), which can change or skip the rows "
          + "shop inserts")
    }
    if let rules = result.text(row, column + 3) {
      problems.append("it has INSERT rules (\(rules)), which can change what an INSERT does")
    }
    return problems
  }

  /// Asks the catalog whether the table is `shop`'s: 65 naming the columns when not.
  func checkSchema(on connection: PostgresConnection, writing: Bool) throws {
    try takeSchema(try connection.run(Self.schemaQuery), writing: writing, place: connection.place)
  }

  /// Checks ``schemaQuery``'s answer: 69 when the table meant is in a schema the role may not
  /// use; 65 naming the columns when the table is not `shop`'s; else, when there is a table,
  /// notes it checked and whether it has `ref` and `voids`.
  func takeSchema(_ description: PostgresResult, writing: Bool, place: PostgresPlace) throws {
    // The table found is not the one meant when the one meant is in a schema the role may
    // not use: that is the error, whatever the table found is like.
    if description.rows > 0, let schema = description.text(0, 11) {
      throw Self.hidden(in: schema, place: place)
    }
    if let problem = Self.schemaProblem(description, writing: writing) {
      throw PostgresError.badData(place, problem)
    }
    if description.rows > 0 {
      schemaChecked = true
      hasReference = Self.hasReference(description)
      hasVoids = Self.hasVoids(description)
    }
  }

  /// Checks ``tableQuery``'s answer: 65 naming what the table has that `shop`'s does not.
  static func checkTable(_ result: PostgresResult, place: PostgresPlace) throws {
    var problems = tableProblems(result, 0, from: 0)
    if result.text(0, 4) == "t" {
      problems.append("column voids is \(voidsFilled) (shop expects \(voidsDeclaration))")
    }
    guard !problems.isEmpty else { return }
    throw PostgresError.badData(
      place,
      "table \(table) is not the one shop makes: " + problems.joined(separator: "; ")
        + "; " + refusalEnd(writing: true))
  }
}
