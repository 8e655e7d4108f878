/// Why some text is not an order; each case keeps the offending text, made safe to print.
public enum CartError: Error, Equatable, Sendable, CustomStringConvertible {
  case noItems
  case notAnItem(String)
  case badSKU(String)
  case badQuantity(String)
  case quantityTooLarge(sku: String, sum: Int)
  case lineTooLong(limit: Int)
  case badReference(String)

  public var description: String {
    switch self {
    case .noItems:
      return "no items: expected SKU=QTY..."
    case .notAnItem(let text):
      return "\(text) is not an item: expected SKU=QTY"
    case .badSKU(let text):
      return "\(text): SKU must be 1-\(SKU.maximumLength) letters, digits, '-', '_' or '.'"
    case .badQuantity(let text):
      return "\(text): quantity must be a whole number from 1 to \(Cart.maximumQuantity)"
    case .quantityTooLarge(let sku, let sum):
      return "'\(sku)': quantities add up to \(sum), more than \(Cart.maximumQuantity)"
    case .lineTooLong(let limit):
      return "line is longer than \(limit) bytes"
    case .badReference(let text):
      return "\(text): ref must be 1-\(Reference.maximumLength) letters, digits, '-', '_', '.', "
        + "':' or '/'"
    }
  }
}
