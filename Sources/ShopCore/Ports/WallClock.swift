/// The time an order is placed. A port, so tests can fix it and the core reads no clock.
public protocol WallClock {
  func now() -> Timestamp
}
