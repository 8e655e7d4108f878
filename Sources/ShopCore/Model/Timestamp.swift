/// An instant, in whole seconds since 1970-01-01T00:00:00Z; formatting it is an adapter's job.
public struct Timestamp: Equatable, Hashable, Sendable {
  public let secondsSince1970: Int64

  public init(secondsSince1970: Int64) {
    self.secondsSince1970 = secondsSince1970
  }
}
