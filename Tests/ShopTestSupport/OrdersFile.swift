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
}
