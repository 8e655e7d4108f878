import ShopCore

/// The loud report: one line of plain text per outcome, `order 1001 for 225`, `no chair` or
/// `no pne (did you mean pen?)`.
public final class TextReport: Report {
  private let output: any ByteOutput
  private var bytes: [UInt8] = []

  public init(output: any ByteOutput) {
    self.output = output
  }

  public func report(_ outcome: Outcome, line: Int?) {
    guard case .placed(let order) = outcome else {
      output.write(TextReport.text(of: outcome, line: line))
      return
    }
    placed(number: order.number, payable: order.payable)
  }

  /// `order 1001 for 225`: a loud batch prints a million of these, written as bytes, with no
  /// String in between.
  public func placed(number: Int, payable: Int) {
    bytes.removeAll(keepingCapacity: true)
    ByteWriter.append(to: &bytes, capacity: 64) { writer in
      writer.put(Fragment.order)
      writer.put(number)
      writer.put(Fragment.for)
      writer.put(payable)
      writer.put(UInt8(ascii: "\n"))
    }
    output.write(bytes)
  }

  private enum Fragment {
    static let order = Array("order ".utf8)
    static let `for` = Array(" for ".utf8)
  }

  public func flush() throws {
    try output.flush()
  }

  /// The line for `outcome`, newline included. A batch line that was not placed says which
  /// line it was, so a reader can find it; a placed order and a single `place` need no number.
  static func text(of outcome: Outcome, line: Int?) -> String {
    switch outcome {
    case .placed(let order), .alreadyPlaced(let order):
      let again = if case .alreadyPlaced = outcome { " (already placed)" } else { "" }
      return "order \(order.number) for \(order.payable)\(again)\n"
    case .conflict(let reference, let order):
      return "\(prefix(line))\(conflict(reference, order))\n"
    case .unknown(let skus, let suggestions):
      let named = skus.map { sku in
        suggestions[sku].map { "\(sku) (did you mean \($0)?)" } ?? sku
      }
      return "\(prefix(line))no \(named.joined(separator: ", "))\n"
    case .tooLarge:
      return "\(prefix(line))\(TextReport.tooLarge)\n"
    case .malformed(let error):
      return "\(prefix(line))\(error)\n"
    }
  }

  /// Why an order whose reference another order holds is refused.
  static func conflict(_ reference: Reference, _ order: Order) -> String {
    guard let voided = order.voids else {
      return "ref \(reference) is order \(order.number), with other items"
    }
    return "ref \(reference) is void \(order.number) (of order \(voided)), not an order"
  }

  /// Why an order whose total overflows is refused, for every report and the command line.
  public static let tooLarge = "the order's total is too large to compute"

  private static func prefix(_ line: Int?) -> String {
    line.map { "line \($0): " } ?? ""
  }
}
