import ShopConventions
import ShopCore

/// Prices read from a CSV file as a spreadsheet exports it:
///
///     # prices in cents
///     sku,price
///     pen, 30
///     lamp,190
///
/// One `sku,price` a line; an optional header first (in any case, after an optional UTF-8
/// byte order mark) that starts with `sku,price` and may name more columns, which are ignored
/// but must be on every line (`sku,price,name` then `pen,30,"Pen, blue"`); blank lines, `#`
/// lines, rows of empty cells (`,,`, a sheet's blank row) and rows whose SKU cell starts with
/// `#` skipped; a file separated by `;` or tabs refused, saying the separator must be a comma; spaces, tabs and a trailing CR around fields ignored; a field in double
/// quotes may hold commas (and `""`), not a line break. The whole file is checked when it is
/// loaded, so a bad line stops the command before any order.
public struct FileCatalog: Catalog {
  private let prices: [String: Int]
  /// The SKUs in the order of the file, for suggestions: an order that is the same on every
  /// run, which the dictionary's is not. Prepared only when a SKU is unknown, so a command
  /// that prices only SKUs the catalog has pays nothing for it.
  private let skus: SuggestionIndex

  private final class SuggestionIndex {
    let skus: [String]
    /// The trie (``NameTrie``) when the SKUs share their starts, at most two nodes a SKU;
    /// else the plain search, which skips SKUs of other lengths and letters.
    lazy var nearest: (String) -> String? = {
      if let trie = NameTrie.sharingStarts(skus) { return { trie.nearest(to: $0) } }
      let names = Spelling.Names(skus)
      return { names.nearest(to: $0) }
    }()

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
    // As many fields as the header has, and its line; without a header, `sku,price`.
    var header: (fields: Int, line: Int)?
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
      let fields: [ArraySlice<UInt8>]
      switch FileCatalog.fields(of: line) {
      case .success(let split) where split.count > 1 || FileCatalog.separator(in: line) == nil:
        fields = split
      case .success,
        .failure(.textAfterQuote) where FileCatalog.separator(in: line) != nil:
        // One field holding `;` or a tab: a sheet saved with another separator.
        let separator = FileCatalog.separator(in: line) ?? "';'"
        throw .badData(
          path, line: number,
          reason: "the fields are separated by \(separator), but a catalog's separator must be "
            + "a comma: save the sheet as CSV with ',' as the field delimiter")
      case .failure(let problem): throw .badData(path, line: number, reason: problem.reason)
      }
      // A sheet's blank row (`,,`) and a row whose SKU cell is a note (`# …`) are skipped.
      if fields.allSatisfy(\.isEmpty) || fields[0].first == UInt8(ascii: "#") { continue }
      if !sawEntryOrHeader {
        sawEntryOrHeader = true
        // Spreadsheets capitalise headers: `SKU,Price` is the header, not a product.
        if fields.count >= 2, FileCatalog.isWord(fields[0], "sku"),
          FileCatalog.isWord(fields[1], "price")
        {
          header = (fields.count, number)
          continue
        }
        if fields.contains(where: { FileCatalog.isWord($0, "sku") }),
          fields.contains(where: { FileCatalog.isWord($0, "price") })
        {
          throw .badData(
            path, line: number,
            reason: "the header must start with 'sku,price', found "
              + TerminalText.quoted(Array(line)))
        }
      }
      if let header {
        guard fields.count == header.fields else {
          throw .badData(
            path, line: number,
            reason: "expected \(header.fields) fields, as the header on line \(header.line) has, "
              + "found \(fields.count)")
        }
      } else if fields.count != 2 {
        let more = fields.count > 2 ? " (a header 'sku,price,...' names further columns)" : ""
        throw .badData(
          path, line: number,
          reason: "expected 'sku,price', found \(fields.count) field\(fields.count == 1 ? "" : "s")"
            + more)
      }
      guard SKU.isValid(fields[0]) else {
        throw .badData(
          path, line: number,
          reason: "invalid SKU \(TerminalText.quoted(fields[0])): use 1-\(SKU.maximumLength) "
            + "letters, digits, '-', '_' or '.'")
      }
      let sku = String(decoding: fields[0], as: UTF8.self)
      guard let price = FileCatalog.priceField.value(fields[1]) else {
        throw .badData(
          path, line: number,
          reason: "price of '\(sku)' is \(TerminalText.quoted(fields[1])), not a whole number "
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
    skus.nearest(sku)
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

  private static let priceField = DecimalInteger(
    sign: .none, leadingZeros: .allowed, range: 0...Int.max)

  /// Why a line could not be split into fields.
  enum FieldProblem: Error, Equatable {
    case unclosedQuote(field: Int)
    case textAfterQuote(field: Int)

    var reason: String {
      switch self {
      case .unclosedQuote(let field):
        "field \(field) opens a double quote that the line does not close (a field can't "
          + "hold a line break)"
      case .textAfterQuote(let field):
        "field \(field) has text after its closing double quote"
      }
    }
  }

  /// The fields of `line`, split at the commas outside double quotes; each without the spaces
  /// and tabs around it, a quoted one without its quotes. A `""` inside quotes is left as it
  /// is: no SKU or price holds a quote, and the other columns are not read.
  static func fields(of line: ArraySlice<UInt8>) -> Result<[ArraySlice<UInt8>], FieldProblem> {
    let quote = UInt8(ascii: "\"")
    let comma = UInt8(ascii: ",")
    var fields: [ArraySlice<UInt8>] = []
    var index = line.startIndex
    let end = line.endIndex
    while true {
      while index < end, isSpace(line[index]) { index += 1 }
      if index < end, line[index] == quote {
        let start = index + 1
        var closing: Int?
        var scan = start
        while scan < end {
          if line[scan] == quote {
            if scan + 1 < end, line[scan + 1] == quote {
              scan += 2
              continue
            }
            closing = scan
            break
          }
          scan += 1
        }
        guard let closing else { return .failure(.unclosedQuote(field: fields.count + 1)) }
        fields.append(line[start..<closing])
        index = closing + 1
        while index < end, isSpace(line[index]) { index += 1 }
        if index == end { return .success(fields) }
        guard line[index] == comma else {
          return .failure(.textAfterQuote(field: fields.count))
        }
      } else {
        let start = index
        while index < end, line[index] != comma { index += 1 }
        fields.append(trimmed(line[start..<index]))
        if index == end { return .success(fields) }
      }
      index += 1  // past the comma
    }
  }

  /// The separator another locale's sheet uses (`';'` or a tab), when `line` holds one
  /// outside double quotes and no comma there; nil otherwise.
  static func separator(in line: ArraySlice<UInt8>) -> String? {
    var quoted = false
    var found: String?
    for byte in line {
      switch byte {
      case UInt8(ascii: "\""): quoted.toggle()
      case UInt8(ascii: ","): if !quoted { return nil }
      case UInt8(ascii: ";"): if !quoted, found == nil { found = "';' (semicolons)" }
      case UInt8(ascii: "\t"): if !quoted, found == nil { found = "tabs" }
      default: break
      }
    }
    return found
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return bytes[first...last]
  }
}
