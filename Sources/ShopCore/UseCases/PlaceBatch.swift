/// The use case of `shop batch`: places every group of requests a source gives, in order.
public struct PlaceBatch {
  /// The next group placed, or nil at the end of input.
  private let placeNext: () throws -> PlaceOrder.GroupResult?

  /// The plain way: each of the source's groups of requests placed by the use case.
  public init(source: any RequestSource, placeOrder: PlaceOrder) {
    placeNext = {
      guard let group = try source.nextGroup() else { return nil }
      return try placeOrder.place(group)
    }
  }

  /// Groups placed another way than one ``Request`` at a time, such as an adapter that prices
  /// a file's lines straight from its bytes; the outcome must be the same.
  public init(groups: any BatchGroups) {
    placeNext = groups.placeNext
  }

  /// Places groups until the source ends.
  /// - Returns: how many requests were not placed.
  /// - Throws: ``BatchStopped`` when the input, the store or the report fails: the groups
  ///   before it are saved and reported, nothing of the failed group is reported (or, when the
  ///   report itself failed, ``ReportFailed`` says which order was saved last), and the error
  ///   says which order was reported last.
  public func run() throws -> Int {
    var rejected = 0
    var lastReported: Int?
    do {
      while let placed = try placeNext() {
        rejected += placed.rejected
        lastReported = placed.lastNumber ?? lastReported
      }
    } catch {
      throw BatchStopped(cause: error, lastReported: lastReported)
    }
    return rejected
  }
}

/// A batch that stopped part way: the cause, and the last order it reported, so the user
/// knows what was saved.
public struct BatchStopped: Error {
  public let cause: any Error
  /// The number of the last order this batch reported; nil when it reported none.
  public let lastReported: Int?
}
