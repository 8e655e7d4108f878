import ShopCore

/// The real time of day, in whole seconds.
public struct SystemClock: WallClock, CustomStringConvertible {
  public init() {}

  public var description: String { "system clock (UTC)" }

  public func now() -> Timestamp {
    Timestamp(secondsSince1970: System.secondsSince1970())
  }
}
