import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The fast path of a batch into PostgreSQL (``PostgresPricedBatch``: priced from the bytes,
/// sent in chunks, the next group read while the server stores the last) against the plain
/// one, quiet and loud: the same input, catalog and clock give the same rows, the same reports
/// and messages, and the same outcome, whichever groups the fast path takes and which it
/// leaves, and where the server refuses a group.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresPricedBatchTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)
  let lines = PricedBatchTests()

  struct Run: Equatable {
    let rows: String
    let errors: String
    /// What a loud report printed; empty for a quiet one.
    let output: String
    /// How many lines were not placed, or why the batch stopped and after which order.
    let outcome: String
  }

  /// `input` placed by a batch in a new database (made by `setUp`, when given), read from a
  /// file in groups of at most `groupLines` lines.
  /// With how many groups went the fast way.
  func run(
    fast: Bool, loud: Bool, input: String, groupLines: Int, setUp: String? = nil,
    at time: Timestamp? = nil
  ) throws -> (Run, fastGroups: Int) {
    let server = try PostgresServer.shared.get()
    let name = try server.makeDatabase()
    if let setUp { try server.sql(setUp, database: name) }
    let store = PostgresOrders(uri: server.tcpURI(name))
    let folder = try TemporaryFolder()
    let path = try folder.write("in", input)
    let source = BatchInput(
      descriptor: try Descriptor.open(FilePath(path), .readStream), name: "in",
      groupLines: groupLines)
    #expect(source.readsAhead)
    let errors = BufferOutput()
    let output = BufferOutput()
    let report: any PricedReport =
      loud ? TextReport(output: output) : QuietReport(errors: errors)
    let clock = FixedClock(time: time ?? self.time)
    let catalog = lines.catalog
    let placeOrder = PlaceOrder(catalog: catalog, orders: store, clock: clock, report: report)
    let priced = PostgresPricedBatch(
      input: source, catalog: catalog, store: store, clock: clock, report: report,
      placeOrder: placeOrder)
    let batch =
      fast
      ? PlaceBatch(groups: priced) : PlaceBatch(source: source, placeOrder: placeOrder)
    let outcome: String
    do {
      outcome = "rejected \(try batch.run())"
    } catch let stopped as BatchStopped {
      outcome =
        "stopped after \(stopped.lastReported.map(String.init) ?? "none"): "
        + "\(stopped.cause)".replacingOccurrences(of: name, with: "DB")
    }
    let rows = try server.sql(
      "SELECT number, placed_at, items, total, payable, ref, voids FROM shop_orders "
        + "ORDER BY number", database: name)
    return (
      Run(rows: rows, errors: errors.text, output: output.text, outcome: outcome),
      priced.fastGroups
    )
  }

  /// Mostly good lines, in groups of 40 to 200 (some below a COPY's 64, left to the plain
  /// way), with every other kind of line now and then.
  @Test(arguments: [false, true])
  func batchesOfEveryKindPlaceAlikeEitherWay(loud: Bool) throws {
    var random = SplitMix(seed: loud ? 35 : 36)
    var fastGroups = 0
    for round in 0..<6 {
      let count = Int.random(in: 300...900, using: &random)
      let input =
        (0..<count).map { _ in
          // Round 0 only good carts without refs; later rounds some of every kind.
          let odd = round > 0 && Int.random(in: 0..<200, using: &random) == 0
          var line = lines.randomLine(&random, good: !odd)
          if !odd, line.hasPrefix("@"), Int.random(in: 0..<100, using: &random) > 0 {
            line = String(line.drop { $0 != "\t" }.dropFirst())
          }
          return line
        }.joined(separator: "\n") + (Bool.random(using: &random) ? "\n" : "")
      let groupLines = Int.random(in: 40...200, using: &random)
      let (plain, none) = try run(
        fast: false, loud: loud, input: input, groupLines: groupLines)
      let (fast, taken) = try run(fast: true, loud: loud, input: input, groupLines: groupLines)
      #expect(fast == plain, "round \(round)")
      #expect(loud == !plain.output.isEmpty)
      #expect(plain.outcome.hasPrefix("rejected"), "\(plain.outcome)")
      #expect(none == 0)
      fastGroups += taken
    }
    // Both ways were compared: groups went the fast way (11 with these seeds), the rest (a ref,
    // an odd line, fewer than 64 lines) the plain way.
    #expect(fastGroups >= 10)
  }

  /// A `CHECK` the server applies to one order of a middle group: both ways save and report
  /// the groups before it, nothing of it or after it, and stop with the same message.
  @Test(arguments: [false, true])
  func aGroupTheServerRefusesStopsBothWaysAlike(loud: Bool) throws {
    var random = SplitMix(seed: 37)
    let input =
      (0..<700).map { _ in
        var line = lines.randomLine(&random, good: true)
        if line.hasPrefix("@") { line = String(line.drop { $0 != "\t" }.dropFirst()) }
        return line
      }.joined(separator: "\n") + "\n"
    let setUp =
      "CREATE TABLE shop_orders (\(PostgresTableTests.fiveColumns)ref text UNIQUE, "
      + "voids bigint UNIQUE, CHECK (number <> 1350))"
    let (plain, _) = try run(
      fast: false, loud: loud, input: input, groupLines: 100, setUp: setUp)
    let (fast, taken) = try run(
      fast: true, loud: loud, input: input, groupLines: 100, setUp: setUp)
    #expect(fast == plain)
    #expect(taken == 3)
    #expect(plain.outcome.hasPrefix("stopped after 1300: "), "\(plain.outcome)")
    #expect(plain.outcome.contains("check constraint"), "\(plain.outcome)")
    #expect(plain.rows.split(separator: "\n").count == 300)
  }

  /// The session ends inside the COMMIT of a middle group, after it was sent: both ways
  /// report the groups before it, none of it, and stop with the same unconfirmed outcome (75,
  /// naming its numbers and the last order reported), never sending it again.
  @Test(arguments: [false, true])
  func aCommitWithNoAnswerStopsBothWaysAlikeWith75AndReportsNoneOfItsGroup(loud: Bool) throws {
    var random = SplitMix(seed: 38)
    let input =
      (0..<700).map { _ in
        var line = lines.randomLine(&random, good: true)
        if line.hasPrefix("@") { line = String(line.drop { $0 != "\t" }.dropFirst()) }
        return line
      }.joined(separator: "\n") + "\n"
    // As ``PostgresFaults/dropAtCommit``, for the third group of 100 only.
    let setUp =
      "CREATE TABLE shop_orders (\(PostgresTableTests.fiveColumns)ref text UNIQUE, "
      + "voids bigint UNIQUE); "
      + PostgresFaults.dropAtCommit.replacingOccurrences(
        of: "FOR EACH ROW EXECUTE", with: "FOR EACH ROW WHEN (NEW.number = 1250) EXECUTE")
    let (plain, _) = try run(
      fast: false, loud: loud, input: input, groupLines: 100, setUp: setUp)
    let (fast, taken) = try run(
      fast: true, loud: loud, input: input, groupLines: 100, setUp: setUp)
    #expect(fast == plain)
    #expect(taken >= 2, "the fast way took the groups before")
    #expect(
      plain.outcome.hasPrefix("stopped after 1200: the orders database 'DB'"), "\(plain.outcome)")
    #expect(plain.outcome.contains("orders 1201…1300"), "\(plain.outcome)")
    #expect(plain.outcome.contains("unknown"), "\(plain.outcome)")
    #expect(plain.outcome.contains("the last order this command reported is 1200"))
    // Reported: the groups before, and none of the one whose COMMIT had no answer.
    #expect(plain.output.split(separator: "\n").count == (loud ? 200 : 0))
    #expect(!plain.output.contains("order 1201 "))
    // Saved whole or not at all, and never twice: the batch did not send it again.
    let saved = plain.rows.split(separator: "\n").count
    #expect(saved == 200 || saved == 300, "\(saved)")
    #expect(fast.rows.split(separator: "\n").count == saved)
  }

  /// A clock past PostgreSQL's last timestamp: both ways refuse the first group with the same
  /// message, the fast one after its COPY began, and save nothing.
  @Test func aTimeOutOfPostgreSQLsRangeIsRefusedAlike() throws {
    let input = (0..<150).map { "sku-\($0 % 50)=\($0 % 7 + 1)" }.joined(separator: "\n")
    let far = Timestamp(secondsSince1970: 9_300_000_000_000)
    let (plain, _) = try run(fast: false, loud: true, input: input, groupLines: 100, at: far)
    let (fast, taken) = try run(fast: true, loud: true, input: input, groupLines: 100, at: far)
    #expect(fast == plain)
    #expect(taken == 0)
    #expect(plain.outcome.contains("out of PostgreSQL's range"), "\(plain.outcome)")
    #expect(plain.rows.isEmpty || plain.rows == "\n", "\(plain.rows)")
  }
}
