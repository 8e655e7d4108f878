/// The time an order is placed. A port, so tests can fix it and the core reads no clock.
public protocol WallClock {
  /// The time now, read once per command or per batch group: every order of a group is
  /// stamped with it (a store may raise it, by ``Timestamp/stamped(notBefore:)``).
  func now() -> Timestamp
}
