/// The rule for stock-keeping unit names, shared by command lines, batch files and catalogs.
public enum SKU {
  public static let maximumLength = 64

  /// 1–64 bytes, each an ASCII letter, digit, `-`, `_` or `.`: nothing that needs quoting in
  /// a shell, a CSV field or a JSON string.
  @inlinable
  public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
    return bytes.allSatisfy(isAllowed)
  }

  public static func isValid(_ text: String) -> Bool {
    isValid(text.utf8)
  }

  @inlinable @inline(__always)
  public static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
      UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }
}
