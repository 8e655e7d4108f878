import Glibc
import ShopCore

/// The real time of day, in whole seconds.
public struct SystemClock: WallClock {
  public init() {}

  public func now() -> Timestamp {
    Timestamp(secondsSince1970: Int64(time(nil)))
  }
}
