/// What became of one order request.
public enum Outcome: Equatable, Sendable {
  /// Saved, durably, under its number.
  case placed(Order)
  /// Its reference was already placed with the same items, as this order: nothing new saved.
  case alreadyPlaced(Order)
  /// Its reference is this order, which has other items: refused, nothing saved.
  case conflict(Reference, Order)
  /// Refused: these SKUs are not in the catalog (each once, in the order given). Nothing saved.
  /// `suggestions` maps each unknown SKU close to one the catalog sells to that one (`pne` to
  /// `pen`); an unknown SKU with nothing close is not in it.
  case unknown([String], suggestions: [String: String] = [:])
  /// Refused: the total does not fit in `Int`. Nothing saved.
  case tooLarge
  /// The request was not an order at all (a bad batch line). Nothing saved.
  case malformed(CartError)
}
