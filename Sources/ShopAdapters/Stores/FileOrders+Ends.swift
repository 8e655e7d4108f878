import ShopCore

// MARK: - The ends of the file: the one rule readers and writers share

extension FileOrders {
  /// What the start and the end of an orders file say, read at constant cost: the first line
  /// must be order 1001, the last complete line an order that follows the one before it, and
  /// the bytes after the last newline (the tail) one of three things. Nothing, a prefix of the
  /// line `shop` writes for the next number (a write that never finished: readers skip it,
  /// the next writer cuts it), or that whole line but its newline (a write that finished
  /// but for it, and may have been reported: readers list it, the next writer completes it).
  /// Anything else is a file `shop` did not write, refused by readers and writers alike.
  struct Ends {
    enum Tail {
      case none
      case torn(start: Int)
      case whole(Order)
    }

    /// Where the file stops being an order log, and why; the offset is in the line at fault.
    struct Fault {
      let offset: Int
      let reason: String
    }

    /// The end of the last line with a newline (0: there is none); nil when the tail was too
    /// long to find it.
    let linesEnd: Int?
    /// The order on the last line with a newline.
    let lastLine: Order?
    let tail: Tail
    let size: Int
    let fault: Fault?

    /// The last order in the file.
    var last: Order? {
      if case .whole(let order) = tail { return order }
      return lastLine
    }

    /// Where readers stop.
    var readableEnd: Int {
      if case .whole = tail { return size }
      return linesEnd ?? 0
    }

    /// These ends, or the fault they found as the error of `file`'s path at its line.
    func checked(in file: LineFile, writing: Bool) throws(FileError) -> Ends {
      guard let fault else { return self }
      throw .badData(
        file.path, line: try file.lineNumber(at: fault.offset),
        reason: fault.reason + (writing ? "; nothing was changed" : ""))
    }
  }

  /// Reads the ends of `file`, `size` bytes long. Faults are returned, not thrown, so a full
  /// listing can list the lines before one; read errors are thrown.
  func ends(of file: LineFile, size: Int) throws(FileError) -> Ends {
    func fault(_ offset: Int, _ reason: String, linesEnd: Int? = nil) -> Ends {
      Ends(
        linesEnd: linesEnd, lastLine: nil, tail: .none, size: size,
        fault: Ends.Fault(offset: offset, reason: reason))
    }
    // No line shop writes is longer than the bound, so neither is a torn tail.
    let floor = max(0, size - file.lineBound - 1)
    let lastNewline = try file.newline(before: size, notBefore: floor)
    if lastNewline == nil, floor > 0 {
      // A full listing reads up to `floor` and stops at the long line, or at this fault,
      // whose offset is in that line: the lines before it are listed first.
      return fault(floor, file.tooLong, linesEnd: floor)
    }
    let linesEnd = lastNewline.map { $0 + 1 } ?? 0

    var lastLine: Order?
    if let lastNewline {
      let (start, bytes) = try file.line(endingAt: lastNewline)
      guard let bytes else { return fault(start, file.tooLong, linesEnd: linesEnd) }
      let last: Order
      do { last = try OrderJSON.order(from: bytes) } catch {
        return fault(
          start, "the last order is unreadable (\(error.reason))", linesEnd: linesEnd)
      }
      if start == 0 {
        if last.number != Order.firstNumber {
          return fault(0, FileOrders.misnumbered(last.number, after: nil), linesEnd: linesEnd)
        }
      } else {
        // The line before must be the order before: constant cost, two lines from the end.
        let (previousStart, previousBytes) = try file.line(endingAt: start - 1)
        guard let previousBytes else {
          return fault(previousStart, file.tooLong, linesEnd: linesEnd)
        }
        let previous: Order
        do { previous = try OrderJSON.order(from: previousBytes) } catch {
          return fault(previousStart, "not an order: \(error.reason)", linesEnd: linesEnd)
        }
        guard Order.isNumber(last.number, after: previous.number) else {
          return fault(
            start, FileOrders.misnumbered(last.number, after: previous.number),
            linesEnd: linesEnd)
        }
        // And the first line must be order 1001: one more read, at the start.
        if previousStart > 0, let first = try firstLineFault(of: file, linesEnd: linesEnd) {
          return fault(first.offset, first.reason, linesEnd: linesEnd)
        }
        if previousStart == 0, previous.number != Order.firstNumber {
          return fault(0, FileOrders.misnumbered(previous.number, after: nil), linesEnd: linesEnd)
        }
      }
      lastLine = last
    }

    guard linesEnd < size else {
      return Ends(linesEnd: linesEnd, lastLine: lastLine, tail: .none, size: size, fault: nil)
    }
    let tail = size - linesEnd == 1 ? "1 byte" : "\(size - linesEnd) bytes"
    let foreign =
      "the file ends in \(tail) without a newline that \(size - linesEnd == 1 ? "is" : "are") "
      + "neither an order nor the start of one shop writes"
    guard let next = Order.number(after: lastLine?.number) else {
      return fault(linesEnd, foreign, linesEnd: linesEnd)
    }
    var chunks = file.chunks(from: linesEnd, to: size)
    var match = OrderJSON.lineStart(of: &chunks, number: next)
    if let failure = chunks.failure { throw .unreadable(file.path, failure) }
    if match == .other {
      // Not an order's start: perhaps a void's, which the same rule takes.
      var voidChunks = file.chunks(from: linesEnd, to: size)
      match = OrderJSON.lineStart(of: &voidChunks, number: next, void: true)
      if let failure = voidChunks.failure { throw .unreadable(file.path, failure) }
    }
    switch match {
    case .prefix:
      return Ends(
        linesEnd: linesEnd, lastLine: lastLine, tail: .torn(start: linesEnd), size: size,
        fault: nil)
    case .wholeLine, .other:
      // A whole order in any layout, but only the next one, and only when it could be one:
      // the tail is read whole (it is within the bound) only if it starts and ends as one.
      var tail: [UInt8] = []
      var couldBeOne = match == .wholeLine
      if !couldBeOne, try file.byte(at: linesEnd) == UInt8(ascii: "{") {
        couldBeOne = try file.byte(at: size - 1) == UInt8(ascii: "}")
      }
      if couldBeOne {
        tail = [UInt8](repeating: 0, count: size - linesEnd)
        try file.read(into: &tail, at: linesEnd)
      }
      guard !tail.isEmpty, let order = try? OrderJSON.order(from: tail) else {
        return fault(linesEnd, foreign, linesEnd: linesEnd)
      }
      guard order.number == next else {
        return fault(
          linesEnd, FileOrders.misnumbered(order.number, after: lastLine?.number),
          linesEnd: linesEnd)
      }
      return Ends(
        linesEnd: linesEnd, lastLine: lastLine, tail: .whole(order), size: size, fault: nil)
    }
  }

  /// The fault of a first line that is not order 1001, if it is not.
  private func firstLineFault(of file: LineFile, linesEnd: Int) throws(FileError) -> Ends.Fault? {
    guard let newline = try file.newline(after: -1, before: min(linesEnd, file.lineBound + 1))
    else { return Ends.Fault(offset: 0, reason: file.tooLong) }
    var bytes = [UInt8](repeating: 0, count: newline)
    try file.read(into: &bytes, at: 0)
    let first: Order
    do { first = try OrderJSON.order(from: bytes) } catch {
      return Ends.Fault(offset: 0, reason: "not an order: \(error.reason)")
    }
    guard first.number == Order.firstNumber else {
      return Ends.Fault(offset: 0, reason: FileOrders.misnumbered(first.number, after: nil))
    }
    return nil
  }

  /// Order `number` must follow `previous` (nil: it is the first order) by one.
  func checkNumber(_ number: Int, after previous: Int?, line: Int) throws(FileError) {
    guard !Order.isNumber(number, after: previous) else { return }
    throw .badData(path, line: line, reason: FileOrders.misnumbered(number, after: previous))
  }

  static func misnumbered(_ number: Int, after previous: Int?) -> String {
    previous.map { "order \(number) follows order \($0): numbers must go up by one" }
      ?? "the first order is \(number), not \(Order.firstNumber)"
  }

  // MARK: - The numbering beside one line

  /// The order found on the line at `start` must be the only one of its number: it follows
  /// the line before it, and the next line follows it.
  func checkNeighbours(of order: Order, at start: Int, in snapshot: Snapshot)
    throws(FileError)
  {
    try checkFollows(order.number, at: start, in: snapshot)
    try checkFollowed(order, next: try snapshot.line(at: start).1, in: snapshot)
  }

  /// The line at `next`, unless the snapshot ends there, must follow `order` by one.
  func checkFollowed(_ order: Order, next: Int, in snapshot: Snapshot)
    throws(FileError)
  {
    guard next < snapshot.end else { return }
    let (after, _) = try snapshot.line(at: next)
    let following = try after.withUnsafeBufferPointer { line throws(FileError) in
      try parse(line, line: nil, at: next, in: snapshot).0.number
    }
    // The line's number only for the error: counting it reads the file up to there.
    guard !Order.isNumber(following, after: order.number) else { return }
    try checkNumber(following, after: order.number, line: snapshot.file.lineNumber(at: next))
  }

  /// The order on the line that starts at `start` must follow the line before it by one.
  func checkFollows(_ number: Int, at start: Int, in snapshot: Snapshot)
    throws(FileError)
  {
    var previous: Int? = nil
    if start > 0 {
      let (before, bytes) = try snapshot.file.line(endingAt: start - 1)
      guard let bytes else {
        let line = try snapshot.file.lineNumber(at: start) - 1
        throw FileError.badData(path, line: line, reason: snapshot.file.tooLong)
      }
      previous = try bytes.withUnsafeBufferPointer { line throws(FileError) in
        try parse(line, line: nil, at: before, in: snapshot).0.number
      }
    }
    guard !Order.isNumber(number, after: previous) else { return }
    try checkNumber(number, after: previous, line: try snapshot.file.lineNumber(at: start))
  }
}
