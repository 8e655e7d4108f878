import ShopCore

/// The JSON report: one object per outcome per line. A placed order is its stored JSON;
/// a batch adds `"line": N` to every object.
public final class JSONReport: Report {
  private let output: any ByteOutput
  private var encoder = OrderJSON.Encoder()
  private var bytes: [UInt8] = []

  public init(output: any ByteOutput) {
    self.output = output
  }

  public func report(_ outcome: Outcome, line: Int?) {
    bytes.removeAll(keepingCapacity: true)
    switch outcome {
    case .placed(let order):
      encoder.append(order, line: line, to: &bytes)
    case .alreadyPlaced(let order):
      encoder.append(order, line: line, alreadyPlaced: true, to: &bytes)
    case .conflict(let reference, let order):
      OrderJSON.appendObjectStart(line: line, to: &bytes)
      bytes.append(contentsOf: #""error":"#.utf8)
      ByteWriter.appendJSONString(TextReport.conflict(reference, order), to: &bytes)
      bytes.append(contentsOf: #","ref":"#.utf8)
      ByteWriter.appendJSONString(reference.text, to: &bytes)
      bytes.append(contentsOf: #","order":"#.utf8)
      ByteWriter.appendDecimal(order.number, to: &bytes)
      bytes.append(contentsOf: "}\n".utf8)
    case .unknown(let skus, let suggestions):
      OrderJSON.appendObjectStart(line: line, to: &bytes)
      bytes.append(contentsOf: #""unknown":["#.utf8)
      for (index, sku) in skus.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        ByteWriter.appendJSONString(sku, to: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
      // Only when there is one, so `{"unknown":["chair"]}` stays as it was; members in the
      // order of `unknown`.
      if !suggestions.isEmpty {
        bytes.append(contentsOf: #","suggestions":{"#.utf8)
        var first = true
        for sku in skus {
          guard let suggestion = suggestions[sku] else { continue }
          if !first { bytes.append(UInt8(ascii: ",")) }
          first = false
          ByteWriter.appendJSONString(sku, to: &bytes)
          bytes.append(UInt8(ascii: ":"))
          ByteWriter.appendJSONString(suggestion, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
      }
      bytes.append(contentsOf: "}\n".utf8)
    case .tooLarge:
      appendError(TextReport.tooLarge, line: line)
    case .malformed(let error):
      appendError(error.description, line: line)
    }
    output.write(bytes)
  }

  public func flush() throws {
    try output.flush()
  }

  private func appendError(_ message: String, line: Int?) {
    OrderJSON.appendObjectStart(line: line, to: &bytes)
    bytes.append(contentsOf: #""error":"#.utf8)
    ByteWriter.appendJSONString(message, to: &bytes)
    bytes.append(contentsOf: "}\n".utf8)
  }
}
