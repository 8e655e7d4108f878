import ShopCore

/// Prices read from a CSV file as a spreadsheet exports it:
///
///     # prices in cents
///     sku,price
///     pen, 30
///     lamp,190
///
/// One `sku,price` a line; an optional `sku,price` header first (in any case, after an optional
/// UTF-8 byte order mark); blank lines and `#` lines
/// skipped; spaces, tabs, a trailing CR and double quotes around fields ignored. The whole
/// file is checked when it is loaded, so a bad line stops the command before any order.
public struct FileCatalog: Catalog {
  private let prices: [String: Int]
  /// The SKUs in the order of the file, for suggestions: an order that is the same on every
  /// run, which the dictionary's is not. Prepared only when a SKU is unknown, so a command
  /// that prices only SKUs the catalog has pays nothing for it.
  private let skus: SuggestionIndex

  private final class SuggestionIndex {
    let skus: [String]
    lazy var names = Spelling.Names(skus)

    init(_ skus: [String]) { self.skus = skus }
  }

  /// Reads and checks the catalog at `path`, which must be a regular file: a FIFO or a
  /// device could keep `shop` waiting forever.
  public init(path: FilePath) throws(FileError) {
    let file: Descriptor
    let kind: FileKind
    do throws(SystemError) {
      file = try Descriptor.open(path, .read)
      kind = try file.status().kind
    } catch {
      throw .unreadable(path, error)
    }
    guard kind == .regular else { throw .notRegular(path, kind, writing: false) }
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count: Int
      do {
        count = try file.read(into: &chunk, 0..<chunk.count)
      } catch {
        throw .unreadable(path, error)
      }
      if count == 0 { break }
      contents.append(contentsOf: chunk[..<count])
    }
    try self.init(path: path, contents: contents)
  }

  /// Checks `contents` as the catalog at `path` (which names the file in errors).
  public init(path: FilePath, contents: [UInt8]) throws(FileError) {
    var prices: [String: Int] = [:]
    var skus: [String] = []
    var lineOfSKU: [String: Int] = [:]
    var sawEntryOrHeader = false
    // A spreadsheet's "CSV UTF-8" starts with a byte order mark; it is not part of the first SKU.
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    let text = contents.starts(with: byteOrderMark) ? contents.dropFirst(3) : contents[...]
    for (index, rawLine) in text.split(
      separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
    )
    .enumerated() {
      let number = index + 1
      let line = FileCatalog.trimmed(rawLine)
      if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
      let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        .map(FileCatalog.field)
      guard fields.count == 2 else {
        throw .badData(
          path, line: number,
          reason: "expected 'sku,price', found \(fields.count) field\(fields.count == 1 ? "" : "s")"
        )
      }
      if !sawEntryOrHeader {
        sawEntryOrHeader = true
        // Spreadsheets capitalise headers: `SKU,Price` is the header, not a product.
        if FileCatalog.isWord(fields[0], "sku"), FileCatalog.isWord(fields[1], "price") { continue }
      }
      guard SKU.isValid(fields[0]) else {
        throw .badData(
          path, line: number,
          reason: "invalid SKU \(CartSyntax.quoted(fields[0])): use 1-\(SKU.maximumLength) "
            + "letters, digits, '-', '_' or '.'")
      }
      let sku = String(decoding: fields[0], as: UTF8.self)
      guard let price = FileCatalog.price(fields[1]) else {
        throw .badData(
          path, line: number,
          reason: "price of '\(sku)' is \(CartSyntax.quoted(fields[1])), not a whole number "
            + "from 0 to \(Int.max)")
      }
      if let first = lineOfSKU[sku] {
        throw .badData(
          path, line: number, reason: "'\(sku)' is already listed on line \(first)")
      }
      lineOfSKU[sku] = number
      prices[sku] = price
      skus.append(sku)
    }
    self.prices = prices
    self.skus = SuggestionIndex(skus)
  }

  public func price(of sku: String) -> Int? {
    prices[sku]
  }

  /// Ties go to the SKU listed first in the file.
  public func suggestion(for sku: String) -> String? {
    skus.names.nearest(to: sku)
  }

  public var entries: [(sku: String, price: Int)] {
    prices.map { (sku: $0.key, price: $0.value) }.sorted { $0.sku < $1.sku }
  }

  /// `field` is `word` (lowercase ASCII) in any case.
  private static func isWord(_ field: ArraySlice<UInt8>, _ word: String) -> Bool {
    field.elementsEqual(word.utf8) { byte, letter in
      (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == letter
    }
  }

  private static func price(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = product.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      if overflowA || overflowB { return nil }
      value = sum
    }
    return value
  }

  private static func field(_ raw: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let field = trimmed(raw)
    if field.count >= 2, field.first == UInt8(ascii: "\""), field.last == UInt8(ascii: "\"") {
      return field.dropFirst().dropLast()
    }
    return field
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return bytes[first...last]
  }
}
