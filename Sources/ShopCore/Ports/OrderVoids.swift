/// Where voids are recorded: the store of orders, which numbers a void in the same sequence
/// as its orders, so a void is a record like any other (a credit note beside the invoices)
/// and nothing is ever deleted or rewritten.
public protocol OrderVoids: AnyObject {
  /// Records `draft`, a void (``Draft/voids``), as one atomic step with the core's checks
  /// (``VoidOutcome/plan(_:target:holding:)``): the store finds, under the same lock that
  /// numbers orders, the record `draft.voids` names, marked with the void that took it back
  /// if one did, and the record that already holds `draft.reference`; only when the plan
  /// says so is the void numbered after the last record, stamped no earlier than it, saved.
  ///
  /// When it returns ``VoidOutcome/voided(_:)``, the void is durable and may be reported.
  /// When it throws, nothing was saved and earlier records are intact.
  func void(_ draft: Draft) throws -> VoidOutcome
}
