import ShopCore
import ShopTestSupport
import Testing

/// Ranges of time (the start in, the end out) and the stamping rule that keeps a store's times
/// in order: raised to the order before by at most ``Timestamp/maximumRaise``, else kept.
struct TimeRuleTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func at(_ offset: Int64) -> Timestamp {
    Timestamp(secondsSince1970: time.secondsSince1970 + offset)
  }

  /// Every offset around a range's two ends.
  @Test func aRangeHoldsEveryTimeFromItsStartUpToButNotItsEnd() {
    let range = TimeRange(since: at(0), until: at(10))
    for offset in Int64(-3)...13 {
      #expect(range.contains(at(offset)) == (0..<10).contains(offset), "offset \(offset)")
    }
    let fromOnly = TimeRange(since: at(0), until: nil)
    let untilOnly = TimeRange(since: nil, until: at(0))
    for offset in Int64(-2)...2 {
      #expect(fromOnly.contains(at(offset)) == (offset >= 0))
      #expect(untilOnly.contains(at(offset)) == (offset < 0))
      #expect(TimeRange.all.contains(at(offset)))
    }
  }

  /// A range whose end is its start, or before it, holds nothing, at any time.
  @Test(arguments: [Int64(0), -1, -86400])
  func aRangeEndingAtOrBeforeItsStartIsEmpty(length: Int64) {
    let range = TimeRange(since: at(0), until: at(length))
    for offset in Int64(-86401)...1 where offset % 7 == 0 || offset >= -2 {
      #expect(!range.contains(at(offset)), "offset \(offset)")
    }
    #expect(!range.isAll)
  }

  /// Consecutive ranges never share an order: each time is in exactly one of them.
  @Test func consecutiveRangesShareNoTime() {
    let cuts = [Int64(0), 1, 86400, 86401, 90000].map(at)
    let ranges =
      [TimeRange(since: nil, until: cuts[0])]
      + zip(cuts, cuts.dropFirst()).map { TimeRange(since: $0, until: $1) }
      + [TimeRange(since: cuts.last, until: nil)]
    for offset in Int64(-5)...90005 where offset % 97 == 0 || offset <= 2 || offset > 86398 {
      let holding = ranges.filter { $0.contains(at(offset)) }
      #expect(holding.count == 1, "offset \(offset)")
    }
  }

  @Test func theExtremesOfTimeAreInOpenRangesOnly() {
    let earliest = Timestamp(secondsSince1970: .min)
    let latest = Timestamp(secondsSince1970: .max)
    #expect(TimeRange.all.contains(earliest) && TimeRange.all.contains(latest))
    #expect(TimeRange(since: earliest, until: nil).contains(latest))
    #expect(!TimeRange(since: nil, until: latest).contains(latest))
    #expect(TimeRange(since: nil, until: latest).contains(earliest))
  }

  /// The raise: none before the first order, none when the clock is at or after the order
  /// before, raised up to the bound, kept beyond it.
  @Test(
    arguments: [
      (nil, 0), (-1, 0), (-300, 0), (0, 0), (1, 1), (2, 2), (299, 299), (300, 300), (301, 0),
      (3600, 0), (86400 * 365 * 8000, 0),
    ] as [(Int64?, Int64)])
  func aTimeIsRaisedToThePreviousByAtMostTheBound(previous: Int64?, raisedBy: Int64) {
    #expect(Timestamp.maximumRaise == 300)
    let stamped = time.stamped(notBefore: previous.map(at))
    #expect(stamped == at(raisedBy), "previous at \(previous.map(String.init) ?? "none")")
  }

  /// At the ends of `Int64` the difference is computed without overflow.
  @Test func theRaiseNeverOverflows() {
    let earliest = Timestamp(secondsSince1970: .min)
    let latest = Timestamp(secondsSince1970: .max)
    #expect(earliest.stamped(notBefore: latest) == earliest)
    #expect(latest.stamped(notBefore: earliest) == latest)
    let nearEarliest = Timestamp(secondsSince1970: .min + 300)
    #expect(earliest.stamped(notBefore: nearEarliest) == nearEarliest)
    let pastBound = Timestamp(secondsSince1970: .min + 301)
    #expect(earliest.stamped(notBefore: pastBound) == earliest)
  }

  /// A draft raised keeps everything but its time: items, total, ref, what it voids.
  @Test func aStampedDraftKeepsAllButItsTime() throws {
    let order = try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: 2, price: 30)], placedAt: time,
        reference: Reference("web-1")))
    let void = Draft(voiding: 1001, placedAt: time, reference: Reference("undo-1"))
    for draft in [order, void] {
      let raised = draft.stamped(notBefore: at(42))
      #expect(raised.placedAt == at(42))
      #expect(raised.lines == draft.lines && raised.total == draft.total)
      #expect(raised.reference == draft.reference && raised.voids == draft.voids)
      #expect(draft.stamped(notBefore: at(301)) == draft)
    }
  }

  /// In one group, each draft is stamped no earlier than the one before it, so a group whose
  /// clock went back a little keeps its times in order, and one that went back far keeps its
  /// own.
  @Test func aPlanStampsEachDraftAfterTheOneBeforeIt() throws {
    func draft(_ offset: Int64) throws -> Draft {
      try #require(
        Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: at(offset)))
    }
    let drafts = try [0, -10, 5, -1000, -999].map(draft)
    let plan = try #require(Placement.plan(drafts, after: 1004, placedAt: at(100)) { _ in nil })
    #expect(plan.new.map(\.placedAt) == [100, 100, 100, -1000, -999].map(at))
    #expect(plan.new.map(\.number) == [1005, 1006, 1007, 1008, 1009])
  }

  /// The default range of a history reads by filtering, so times out of order are found.
  @Test func theDefaultRangeFindsOrdersWhateverTheOrderOfTheirTimes() throws {
    let offsets: [Int64] = [50, 10, 10, 90, -400, 10, 60]
    let orders = try offsets.enumerated().map { index, offset in
      Order(
        number: 1001 + index,
        draft: try #require(
          Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: at(offset))))
    }
    let history = FakeHistory(orders)
    for (since, until) in [(10, 11), (10, 60), (-400, 10), (0, 100), (10, 10), (60, 10)] {
      let range = TimeRange(since: at(Int64(since)), until: at(Int64(until)))
      var read: [Int] = []
      try history.orders(in: range, last: nil) { read.append($0.number) }
      let expected = orders.filter { range.contains($0.placedAt) }.map(\.number)
      #expect(read == expected, "\(since)..<\(until)")
      for last in [0, 1, 2, -1] {
        var newest: [Int] = []
        try history.orders(in: range, last: last) { newest.append($0.number) }
        #expect(newest == Array(expected.suffix(max(0, last))))
      }
    }
  }

  /// The ring that keeps the newest N: every limit around the number of orders added.
  @Test func theNewestOrdersAreTheLastAddedOldestFirst() throws {
    let orders = try (0..<9).map { index in
      Order(
        number: 1001 + index,
        draft: try #require(
          Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: at(0))))
    }
    for limit in [-1, 0, 1, 2, 3, 8, 9, 10, 100] {
      var newest = NewestOrders(keeping: limit)
      for order in orders { newest.add(order) }
      var kept: [Int] = []
      newest.visit { kept.append($0.number) }
      #expect(kept == orders.suffix(max(0, limit)).map(\.number), "limit \(limit)")
    }
  }

  /// A day is the UTC day: midnight to midnight, before 1970 as after.
  @Test func aDayStartsAtItsMidnightUTC() {
    let midnight: Int64 = 1_795_996_800
    for offset in [Int64(0), 1, 43200, 86399] {
      #expect(
        Summary.day(of: Timestamp(secondsSince1970: midnight + offset)).secondsSince1970 == midnight
      )
      #expect(
        Summary.day(of: Timestamp(secondsSince1970: -86400 + offset)).secondsSince1970 == -86400)
    }
    #expect(Summary.day(of: Timestamp(secondsSince1970: 0)).secondsSince1970 == 0)
    #expect(Summary.day(of: Timestamp(secondsSince1970: -1)).secondsSince1970 == -86400)
  }

  /// The earliest and latest times there are still have a day, never an overflow.
  @Test func theDayOfTheExtremesOfTimeDoesNotOverflow() {
    let earliest = Summary.day(of: Timestamp(secondsSince1970: .min))
    #expect(earliest.secondsSince1970 <= Int64.min + 86399)
    let latest = Summary.day(of: Timestamp(secondsSince1970: .max))
    #expect(latest.secondsSince1970 <= Int64.max && Int64.max - latest.secondsSince1970 < 86400)
  }
}

/// A history of given orders that gives only `readAll`: every other form is the port's default.
final class FakeHistory: OrderHistory {
  let orders: [Order]

  init(_ orders: [Order]) {
    self.orders = orders
  }

  func readAll(_ visit: (Order) throws -> Void) throws {
    for order in orders { try visit(order) }
  }
}
