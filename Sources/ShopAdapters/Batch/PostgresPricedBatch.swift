import ShopConventions
import ShopCore

/// The fast path of `shop batch` into PostgreSQL, fenced in this file: a group of plain carts
/// without refs is priced from the input's bytes (``PricedBatch/Group``), its rows go by COPY
/// in chunks (``PostgresOrders/send(count:encode:)``), and while the server stores them the
/// next group is read and priced, when the input is a regular file (``BatchInput/readsAhead``).
/// Only then does COMMIT go (``PostgresOrders/commit(_:)``), and only once it is confirmed are
/// the group's orders reported. Nothing of the next group is sent before that, so what a
/// failure leaves is what the plain way leaves: every group before it saved and reported, the
/// failed one not reported (69: not saved; 75: unknown), nothing after it sent. A group with
/// any other line (an unknown SKU, a mistake, a ref), or smaller than a COPY's
/// (``PostgresOrders/copyFrom``), is placed the plain way, by the ``PlaceOrder`` the root wired
/// to the same catalog, store and report. A differential test keeps the two ways equal: the
/// table's rows, the reports, the errors.
public final class PostgresPricedBatch: BatchGroups {
  private let input: BatchInput
  private let store: PostgresOrders
  private let clock: any WallClock
  private let placeOrder: PlaceOrder
  private let report: any PricedReport
  /// The group being placed, and the one read ahead; their storage is reused.
  private var group: PricedBatch.Group
  private var ahead: PricedBatch.Group
  /// What was read ahead into ``ahead`` while the last group was stored, to place next.
  private var readAhead: PricedBatch.Group.Read?
  /// Reading ahead failed: thrown once the group stored meanwhile is reported.
  private var readFailure: (any Error)?
  /// How many groups went the fast way, for the tests that compare ways.
  private(set) var fastGroups = 0

  /// `placeOrder` is the plain way, built by the root from the same `catalog`, `store`,
  /// `clock` and `report`: this adapter builds no use case of its own.
  public init(
    input: BatchInput, catalog: any Catalog, store: PostgresOrders, clock: any WallClock,
    report: any PricedReport, placeOrder: PlaceOrder
  ) {
    self.input = input
    self.store = store
    self.clock = clock
    self.report = report
    self.placeOrder = placeOrder
    self.group = PricedBatch.Group(catalog: catalog)
    self.ahead = PricedBatch.Group(catalog: catalog)
  }

  public func placeNext() throws -> PlaceOrder.GroupResult? {
    if let readFailure {
      self.readFailure = nil
      throw readFailure
    }
    let read: PricedBatch.Group.Read
    if let readAhead {
      swap(&group, &ahead)
      read = readAhead
      self.readAhead = nil
    } else {
      read = try group.read(input)
    }
    switch read {
    case .end: return nil
    case .plain(let requests): return try placeOrder.place(requests)
    case .priced: break
    }
    guard group.count >= PostgresOrders.copyFrom, !group.hasReferences else {
      return try placeOrder.place(group.requests())
    }
    let now = clock.now()
    let sent = try store.send(count: group.count) { [group] first, orders, rows in
      group.appendCopyRows(numberedFrom: first, placedAt: now, orders: orders, to: &rows)
    }
    if input.readsAhead {
      do {
        readAhead = try ahead.read(input) { sent.sendWhatFits() }
      } catch {
        readFailure = error
      }
    }
    let last = try store.commit(sent)
    fastGroups += 1
    if report.tellsPlaced { try tell(group, last: last) }
    return PlaceOrder.GroupResult(rejected: 0, lastNumber: last)
  }

  /// The reports of a group committed, numbered up to `last`, as ``PlaceOrder`` gives them:
  /// every order, then one flush; a flush that fails says the group was saved.
  private func tell(_ group: PricedBatch.Group, last: Int) throws {
    let first = last - (group.count - 1)
    group.forEachPayable { index, payable in
      report.placed(number: first + index, payable: payable)
    }
    do {
      try report.flush()
    } catch {
      throw ReportFailed(cause: error, lastSaved: last)
    }
  }
}
