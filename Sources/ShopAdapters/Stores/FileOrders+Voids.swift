import ShopCore

/// The voids of the order log: a void is a line of the same sequence, after the order it takes
/// back (``OrderLayout/void``). A reader that lists orders finds the voids that follow them in
/// its own snapshot, so an order is marked as its void was when the read began; the writer
/// finds them under its lock, so two voids of one order never both land.
extension FileOrders {
  /// For each order voided by a void on the lines from `start` to the end of `snapshot`, the
  /// void's number. Only lines that may be voids are parsed (those holding `voids`, or an
  /// escape that could spell it), found by a search over each buffer of whole lines read, so
  /// the cost is about one pass of `memchr` over the file. Two voids of one order, or a void
  /// of a void met here, are a file `shop` did not write.
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
    // Where a fault is: the line being read, or the next one (one too long to read).
    var at = start
    var voidNumbers: Set<Int> = []
    func record(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
      let (record, _) = try parse(bytes, line: nil, at: offset, in: snapshot)
      guard let voided = record.voids else { return }
      if let earlier = found[voided] ?? (voidNumbers.contains(voided) ? voided : nil) {
        let lineNumber = try snapshot.file.lineNumber(at: offset)
        let what =
          earlier == voided
          ? "void \(record.number) takes back \(voided), which is a void"
          : "void \(record.number) takes back order \(voided), which void \(earlier) took back"
        throw FileError.badData(path, line: lineNumber, reason: what)
      }
      found[voided] = record.number
      voidNumbers.insert(record.number)
    }
    do {
      try snapshot.file.spans(from: start, to: snapshot.end, unterminated: snapshot.unterminated) {
        spanStart, span in
        let raw = UnsafeRawBufferPointer(span)
        // The next `voids` and the next escape at or after `from`, searched again only once
        // passed, so a span is searched about once for each.
        var nextWord: Int? = -1
        var nextEscape: Int? = -1
        var from = 0  // The start of a line.
        while from < span.count {
          if let word = nextWord, word < from {
            nextWord = System.firstIndex(
              of: "voids", in: UnsafeRawBufferPointer(rebasing: raw[from...])
            )
            .map { from + $0 }
          }
          if let escape = nextEscape, escape < from {
            nextEscape = System.firstIndex(
              of: UInt8(ascii: "\\"), in: UnsafeRawBufferPointer(rebasing: raw[from...])
            )
            .map { from + $0 }
          }
          let hit = min(nextWord ?? span.count, nextEscape ?? span.count)
          guard hit < span.count else { break }
          let head = UnsafeRawBufferPointer(rebasing: raw[from..<hit])
          let lineStart =
            System.lastIndex(of: OrderLayout.lineEnd, in: head).map { from + $0 + 1 } ?? from
          let tail = UnsafeRawBufferPointer(rebasing: raw[hit...])
          let lineEnd =
            System.firstIndex(of: OrderLayout.lineEnd, in: tail).map { hit + $0 } ?? span.count
          at = spanStart + lineStart
          try record(UnsafeBufferPointer(rebasing: span[lineStart..<lineEnd]), at: at)
          from = lineEnd + 1
        }
        at = spanStart + span.count
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
