import ShopCore

// A group sent in two halves, for a batch that prices its next group while the server stores
// this one (``PostgresPricedBatch``): ``send(count:encode:)`` does what ``copy(_:on:)`` does up
// to the last row, and ``commit(_:)`` the rest. Nothing is saved before ``commit(_:)`` has
// COMMIT confirmed, and what each half refuses, and how, is what ``copy(_:on:)`` refuses.
extension PostgresOrders {
  /// A group whose rows are on their way to the server, in an open transaction holding the
  /// table's lock: nothing of it is saved yet.
  struct SentGroup {
    fileprivate let connection: PostgresConnection
    /// The number of its first order.
    let first: Int
    let count: Int

    /// Sends what the socket takes now of the rows libpq holds, without waiting, so the
    /// server goes on storing while the caller works.
    func sendWhatFits() {
      connection.sendWhatFits()
    }
  }

  /// Orders a chunk of rows holds: the server stores one while the next is made.
  static let chunkOrders = 1024

  /// Takes the lock and reads the numbering, checked (``lockAndReadNumbering(on:)``); starts
  /// a COPY and hands libpq the group's `count` rows, ``chunkOrders`` at a time as `encode`
  /// appends them (given the number of the group's first order and the indices of the
  /// orders to append; false when their time is out of PostgreSQL's range). Returns before
  /// the COPY ends, with the rows perhaps still in libpq.
  func send(
    count: Int, encode: (_ first: Int, _ orders: Range<Int>, inout PostgresCopyRows) -> Bool
  ) throws -> SentGroup {
    try withTable { connection in
      let place = connection.place
      var copying = false
      do {
        let numbering = try lockAndReadNumbering(on: connection)
        let last = numbering.last ?? Order.firstNumber - 1
        // As ``Order/numbered(_:after:)``: every number of the group fits in an `Int`.
        guard last <= Int.max - count else { throw OrdersFull(last: last) }
        if let refused = connection.startCopy(Self.copySQL, needs: Needs.copy) { throw refused }
        copying = true
        var start = 0
        var rows = PostgresCopyRows(capacity: 120 * min(count, Self.chunkOrders))
        while start < count {
          let end = min(count, start + Self.chunkOrders)
          guard encode(last + 1, start..<end, &rows) else {
            throw PostgresError.badData(
              place, "order \(last + 1 + start): the time is out of PostgreSQL's range")
          }
          guard connection.queueCopy(rows.taken(final: end == count)) else {
            throw connection.timedOut
              ? PostgresError.unavailable(place, connection.lostReason) : connection.failure(nil)
          }
          start = end
        }
        return SentGroup(connection: connection, first: last + 1, count: count)
      } catch {
        if copying && !connection.isLost { connection.abortCopy() }
        if !connection.isLost { _ = try? connection.run("ROLLBACK") }
        throw error
      }
    }
  }

  /// Ends the COPY of `group`, and commits it once the server says it copied every row.
  /// - Returns: the number of its last order, saved and confirmed.
  /// - Throws: as ``copy(_:on:)``: refused (nothing saved, rolled back), or unconfirmed.
  func commit(_ group: SentGroup) throws -> Int {
    let connection = group.connection
    switch connection.endCopyThenCommit(count: group.count, needs: Needs.copy) {
    case .committed:
      let last = group.first + (group.count - 1)
      lastSaved = last
      return last
    case .refused(let error, _):
      if !connection.isLost { _ = try? connection.run("ROLLBACK") }
      throw error
    case .unknown(_, let why):
      throw PostgresError.unconfirmed(
        connection.place, first: group.first, count: group.count, lastReported: lastSaved,
        why: why)
    }
  }
}
