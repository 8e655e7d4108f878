import Foundation

/// What a test reads back of an orders file, checked as it reads.
public enum OrdersFile {
  /// A line that is not an order, or a file that ends mid-line.
  public struct Bad: Error, CustomStringConvertible {
    public let description: String
  }

  /// The number of every line of the file at `path`; throws `Bad` when the file ends mid-line
  /// or a line is not an order.
  public static func numbers(_ path: String) throws -> [Int] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    guard text.isEmpty || text.hasSuffix("\n") else {
      throw Bad(description: "the file ends mid-line: \(text.suffix(80))")
    }
    return try text.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      guard let number = object?["number"] as? Int else {
        throw Bad(description: "not an order: \(line)")
      }
      return number
    }
  }
}

extension OrdersFile {
  /// (number, ref) of every complete line of the file at `path`; a torn last line is left out.
  public static func refs(_ path: String) throws -> [(number: Int, ref: String?)] {
    let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()
    return try lines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      guard let number = object?["number"] as? Int else {
        throw Bad(description: "not an order: \(line)")
      }
      return (number, object?["ref"] as? String)
    }
  }

  /// What is wrong with the file as the store of `refs`, each placed exactly once: a gap in
  /// the numbers from 1001, or a ref missing or there twice; nil when nothing is.
  public static func refsPlacedOnce(_ path: String, _ refs: [String]) throws -> String? {
    let orders = try self.refs(path)
    if let line = orders.indices.first(where: { orders[$0].number != 1001 + $0 }) {
      return "a gap: line \(line + 1) holds order \(orders[line].number)"
    }
    let held = orders.compactMap(\.ref).sorted()
    guard held == refs.sorted() else {
      return "not once each: \(held.count) refs held of \(refs.count), \(Set(held).count) apart"
    }
    return nil
  }
}
