import ShopCore

/// What `shop void` prints: a line a person reads, one JSON object, or nothing (`-q`, whose
/// exit status tells).
///
///     order 1003 void (void 1006)
///     order 1003 already void (void 1006)
///     no order 1003
///     1006 is a void of order 1003, not an order
///     ref undo-1 is order 1004, not a void of order 1003
///
/// In JSON: the void saved, as the orders file holds it (`{"number":1006,"voids":1003,
/// "placedAt":…}`); the order already void, as `orders --json` lists it (with `"voidedBy"`)
/// and `"alreadyVoid":true`; `{"missing":1003}`; `{"error":…}` with the record in the way.
public final class VoidListing: VoidReport {
  public enum Style: Sendable {
    case text, quiet, json
  }

  private let output: any ByteOutput
  private let style: Style
  private var encoder = OrderJSON.Encoder()

  public init(output: any ByteOutput, style: Style) {
    self.output = output
    self.style = style
  }

  public func report(_ outcome: VoidOutcome) {
    switch style {
    case .quiet: return
    case .text: output.write(VoidListing.text(of: outcome) + "\n")
    case .json:
      var bytes: [UInt8] = []
      switch outcome {
      case .voided(let void):
        encoder.append(void, to: &bytes)
      case .alreadyVoid(let order):
        encoder.append(order, to: &bytes)
        bytes.removeLast(2)  // `}` and the newline, to add one member.
        bytes.append(contentsOf: #","alreadyVoid":true}"#.utf8 + [UInt8(ascii: "\n")])
      case .noOrder(let number):
        bytes.append(contentsOf: "{\"missing\":\(number)}\n".utf8)
      case .notAnOrder(let record), .conflict(_, let record):
        bytes.append(contentsOf: #"{"error":"#.utf8)
        ByteWriter.appendJSONString(VoidListing.text(of: outcome), to: &bytes)
        bytes.append(contentsOf: ",\"number\":\(record.number)}\n".utf8)
      }
      output.write(bytes)
    }
  }

  public func flush() throws {
    try output.flush()
  }

  /// The words for `outcome`, without a newline.
  public static func text(of outcome: VoidOutcome) -> String {
    switch outcome {
    case .voided(let void): "order \(void.voids ?? 0) void (void \(void.number))"
    case .alreadyVoid(let order): "order \(order.number) already void (void \(order.voidedBy ?? 0))"
    case .noOrder(let number): "no order \(number)"
    case .notAnOrder(let void):
      "\(void.number) is a void of order \(void.voids ?? 0), not an order: a void is not taken back"
    case .conflict(let reference, let record):
      "ref \(reference) is \(record.isVoid ? "void" : "order") \(record.number)"
        + (record.voids.map { " (a void of order \($0))" } ?? "")
        + ", not this void"
    }
  }
}
