import ShopConventions
import ShopCore

/// Why a line of the orders file is not an order.
struct OrderJSONError: Error, Equatable {
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}

extension OrderJSONError {
  /// A key given twice in one object: which value counts would be a guess.
  static func repeatedKey(_ name: String) -> OrderJSONError {
    OrderJSONError("repeated key \"\(TerminalText.quoted(name.utf8).dropFirst().dropLast())\"")
  }

  static let notAnObject = OrderJSONError("not a JSON object")
  static let badTime = OrderJSONError("\"placedAt\" is not a time like 2026-11-30T06:06:43Z")
  static let badItems = OrderJSONError("\"items\" is not a list of items")
  static let badItem = OrderJSONError("an item is not {\"sku\", \"quantity\", \"price\"}")
}
