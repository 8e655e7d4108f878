/// What became of a request to void an order.
public enum VoidOutcome: Equatable, Sendable {
  /// Saved now, durably: the void record, whose ``Order/voids`` names the order.
  case voided(Order)
  /// The order was already taken back (``Order/voidedBy`` is the void that did): nothing new
  /// saved. A rerun of a void answers this, so a script may repeat it.
  case alreadyVoid(Order)
  /// No record has this number: nothing saved.
  case noOrder(Int)
  /// The number is a void's, and a void is not taken back: refused, nothing saved.
  case notAnOrder(Order)
  /// Its reference is this other record (an order, or a void of another order): refused.
  case conflict(Reference, Order)

  /// The core's rule, applied by a store under its lock: what a void `draft` becomes, given
  /// the record it names (`target`, marked with its void if it has one; nil when there is
  /// none) and the record that holds its reference (`holding`; nil when none does). Nil: it
  /// is to be saved.
  public static func plan(_ draft: Draft, target: Order?, holding: Order?) -> VoidOutcome? {
    guard let number = draft.voids else { return nil }
    // The reference first: a rerun is answered as the run that saved it.
    if let holding, let reference = draft.reference {
      guard holding.voids == number, let target else { return .conflict(reference, holding) }
      return .alreadyVoid(target)
    }
    guard let target else { return .noOrder(number) }
    if target.isVoid { return .notAnOrder(target) }
    if target.voidedBy != nil { return .alreadyVoid(target) }
    return nil
  }
}
