import ShopCore

/// The voids of the order log: a void is a line of the same sequence, after the order it takes
/// back (``OrderLayout/void``). A reader that lists orders finds the voids that follow them in
/// its own snapshot, so an order is marked as its void was when the read began; the writer
/// finds them under its lock, so two voids of one order never both land.
extension FileOrders {
  /// For each order voided by a void on the lines from `start` to the end of `snapshot`, the
  /// void's number. Only lines that may be voids are parsed (those holding `voids`, or an
  /// escape that could spell it), so the cost is one pass of `memmem` over the lines. Two
  /// voids of one order, or a void of a void met here, are a file `shop` did not write.
  /// `upToAFault`: a line that is not a record, or such a void, ends the search instead of
  /// throwing, for a full listing, which lists the lines before it and then stops there: the
  /// fault is returned, with where it is, for the listing to throw when it gets there.
  func voids(in snapshot: Snapshot, from start: Int) throws -> [Int: Int] {
    try voids(in: snapshot, from: start, upToAFault: false).voided
  }

  func voids(in snapshot: Snapshot, from start: Int, upToAFault: Bool) throws -> (
    voided: [Int: Int], fault: (offset: Int, error: FileError)?
  ) {
    var fault: (offset: Int, error: FileError)?
    var found: [Int: Int] = [:]
    var at = start
    var voidNumbers: Set<Int> = []
    do {
      try snapshot.lines(from: start, firstLine: start == 0 ? 1 : nil) { offset, line, bytes in
        at = offset
        let raw = UnsafeRawBufferPointer(bytes)
        // Where a fault is, once this line passed: the next line (one too long to read).
        let next = offset + bytes.count + 1
        guard System.contains("voids", in: raw) || System.contains("\\", in: raw) else {
          at = next
          return true
        }
        let (record, _) = try parse(bytes, line: line, at: offset, in: snapshot)
        guard let voided = record.voids else {
          at = next
          return true
        }
        if let earlier = found[voided] ?? (voidNumbers.contains(voided) ? voided : nil) {
          let lineNumber = try line ?? snapshot.file.lineNumber(at: offset)
          let what =
            earlier == voided
            ? "void \(record.number) takes back \(voided), which is a void"
            : "void \(record.number) takes back order \(voided), which void \(earlier) took back"
          throw FileError.badData(path, line: lineNumber, reason: what)
        }
        found[voided] = record.number
        voidNumbers.insert(record.number)
        at = next
        return true
      }
    } catch let error as FileError {
      guard upToAFault, case .badData = error else { throw error }
      fault = (at, error)
    }
    return (found, fault)
  }

  /// Records the void `draft` under the lock that numbers orders: what the core's rule
  /// (``VoidOutcome/plan(_:target:holding:)``) decides from the order it names and the record
  /// that holds its ref, both found in the locked file; else the void, appended as an order
  /// is (numbered, stamped, synced, its ref indexed).
  public func void(_ draft: Draft) throws(FileError) -> VoidOutcome {
    // No file holds no order: a void that finds none makes no file or folder either.
    let exists: Bool
    do { exists = try System.identity(of: path) != nil } catch { throw .unreadable(path, error) }
    if !exists, let number = draft.voids { return .noOrder(number) }
    var decided: VoidOutcome?
    let placements = try placing { file throws(FileError) in
      try appendVoid(draft, to: file, decided: &decided)
    }
    if let decided { return decided }
    guard let placement = placements.first else {
      throw .unreadable(path, .shortRead)
    }
    switch placement {
    case .placed(let void): return .voided(void)
    case .alreadyPlaced(let held), .conflict(let held):
      // The rule found no record of its ref: only a concurrent void of it can be.
      guard let reference = draft.reference else { return .voided(held) }
      return held.voids == draft.voids ? .alreadyVoid(held) : .conflict(reference, held)
    }
  }

  private func appendVoid(_ draft: Draft, to file: LineFile, decided: inout VoidOutcome?)
    throws(FileError) -> Appended
  {
    let fileEnd = try file.size()
    let ends = try self.ends(of: file, size: fileEnd).checked(in: file, writing: true)
    let snapshot = Snapshot(file: file, ends: ends)
    var target: Order?
    var holding: Order?
    do {
      if let number = draft.voids, number >= Order.firstNumber,
        let last = ends.last?.number, number <= last
      {
        let start = try firstLine(in: snapshot) { $0.number >= number }
        if start < snapshot.end {
          let (bytes, _) = try snapshot.line(at: start)
          let found = try bytes.withUnsafeBufferPointer { line throws(FileError) in
            try parse(line, line: nil, at: start, in: snapshot).0
          }
          try checkNeighbours(of: found, at: start, in: snapshot)
          if found.number == number {
            target = found.voided(by: try voids(in: snapshot, from: start)[number])
          }
        }
      }
      if let reference = draft.reference {
        if case .whole(let order) = ends.tail, order.reference == reference {
          holding = order
        } else {
          let opened = try openReferences(in: file, end: ends.linesEnd ?? 0)
          if let (order, start) = try opened.index.located(reference, in: opened.orders) {
            try checkNeighbours(of: order, at: start, in: snapshot)
            holding = order
          }
        }
      }
    } catch {
      // Its reads and parses throw only FileErrors.
      throw error as? FileError ?? .unreadable(path, .shortRead)
    }
    if let outcome = VoidOutcome.plan(draft, target: target, holding: holding) {
      decided = outcome
      return Appended(placements: [], lastNumber: nil, restore: fileEnd) {}
    }
    return try append([draft], to: file)
  }
}
