import ShopCore

/// The real time of day, in whole seconds.
public struct SystemClock: WallClock {
  public init() {}

  public func now() -> Timestamp {
    Timestamp(secondsSince1970: System.secondsSince1970())
  }
}
