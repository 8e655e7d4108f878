import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

struct FileCatalogTests {
  func load(_ text: String) throws(FileError) -> FileCatalog {
    try FileCatalog(path: "prices.csv", contents: Array(text.utf8))
  }

  @Test func readsWhatASpreadsheetExports() throws {
    let catalog = try load(
      "# prices\r\nsku,price\r\n\r\n pen , 30\r\n\"lamp\",\"190\"\r\nfree,0\r\n  # done\n")
    #expect(catalog.price(of: "pen") == 30)
    #expect(catalog.price(of: "lamp") == 190)
    #expect(catalog.price(of: "free") == 0)
    #expect(catalog.price(of: "chair") == nil)
    #expect(catalog.entries.map(\.sku) == ["free", "lamp", "pen"])
  }

  @Test func aSpreadsheetsByteOrderMarkAndCapitalisedHeaderAreSkipped() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    for header in ["SKU,Price\r\n", "sku,price\n", "\"Sku\" , \"PRICE\"\n", ""] {
      let catalog = try FileCatalog(
        path: "prices.csv", contents: bom + Array("\(header)pen,30\r\nlamp,190\r\n".utf8))
      #expect(catalog.entries.map(\.sku) == ["lamp", "pen"], "\(header)")
    }
    // Only the first line can be the header, and only a leading mark is skipped.
    #expect(throws: FileError.self) { try load("pen,30\nSKU,Price\n") }
    #expect(throws: FileError.self) { try load("pen,30\n\u{FEFF}lamp,190\n") }
  }

  /// Suggestions search the file's SKUs in the file's order: the same answer on every run,
  /// though the prices are kept in a dictionary.
  @Test func aSuggestionIsTheNearestSKUAndATieGoesToTheLineFirstInTheFile() throws {
    let forward = try load("sku,price\npan,1\npen,2\ndeskmat,3\n")
    let backward = try load("sku,price\ndeskmat,3\npen,2\npan,1\n")
    #expect(forward.suggestion(for: "pxn") == "pan")
    #expect(backward.suggestion(for: "pxn") == "pen")
    for catalog in [forward, backward] {
      #expect(catalog.suggestion(for: "pne") == "pen")
      #expect(catalog.suggestion(for: "dekmta") == "deskmat")
      #expect(catalog.suggestion(for: "chair") == nil)
    }
    #expect(try load("").suggestion(for: "pen") == nil)
    #expect(MemoryCatalog(entries: MemoryCatalog.builtInEntries).suggestion(for: "lmap") == "lamp")
  }

  /// A spreadsheet's export with more columns: the header names them, every line has them,
  /// and only the SKU and price are read.
  @Test func columnsAfterThePriceThatTheHeaderNamesAreIgnored() throws {
    let catalog = try load(
      "\u{FEFF}SKU,Price,Name,In stock\r\npen,30,\"Pen, blue \"\"fine\"\"\",yes\r\n"
        + "\"lamp\" , \"190\" ,Lamp,\r\n# a note\r\n\r\nink-black,7,,no\r\n")
    #expect(catalog.entries.map(\.sku) == ["ink-black", "lamp", "pen"])
    #expect(catalog.price(of: "pen") == 30 && catalog.price(of: "lamp") == 190)
    // Empty trailing columns, as a spreadsheet exports them, are columns too.
    #expect(try load("sku,price,,\npen,30,,\n").price(of: "pen") == 30)
    // A quoted field may hold the SKU and price as well.
    #expect(try load("sku,price,name\n\"pen\",\"30\",\"a,b,c\"\n").price(of: "pen") == 30)
    // The later columns are not checked beyond their count: anything goes in them.
    #expect(try load("sku,price,x\npen,30,not a price\n").price(of: "pen") == 30)
  }

  @Test func fieldsSplitAtCommasOutsideQuotes() {
    func split(_ text: String) -> [String]? {
      guard case .success(let fields) = FileCatalog.fields(of: Array(text.utf8)[...]) else {
        return nil
      }
      return fields.map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(split("pen,30") == ["pen", "30"])
    #expect(split(" pen , 30 ,") == ["pen", "30", ""])
    #expect(split(",") == ["", ""])
    #expect(split("\"a,b\",\" c \"") == ["a,b", " c "])
    #expect(split("\"say \"\"hi\"\"\",x") == ["say \"\"hi\"\"", "x"])
    #expect(split("p\"x,1") == ["p\"x", "1"])
    #expect(split("\"\"") == [""])
    #expect(split("\"open") == nil)
    #expect(split("\"a\"b") == nil)
  }

  @Test func theHeaderIsOptional() throws {
    #expect(try load("pen,30").price(of: "pen") == 30)
    #expect(try load("").entries.isEmpty)
  }

  @Test(arguments: [
    ("pen,30\nlamp\n", 2, "expected 'sku,price', found 1 field"),
    (
      "pen,30,1\n", 1,
      "expected 'sku,price', found 3 fields (a header 'sku,price,...' names further columns)"
    ),
    ("sku,price,name\npen,30\n", 2, "expected 3 fields, as the header on line 1 has, found 2"),
    (
      "# export\nsku,price,name\npen,30,Pen\nlamp,190,Lamp,spare\n", 4,
      "expected 3 fields, as the header on line 2 has, found 4"
    ),
    ("sku,price\npen,30,Pen\n", 2, "expected 2 fields, as the header on line 1 has, found 3"),
    (
      "name,sku,price\nPen,pen,30\n", 1,
      "the header must start with 'sku,price', found 'name,sku,price'"
    ),
    ("Price,SKU\n30,pen\n", 1, "the header must start with 'sku,price', found 'Price,SKU'"),
    (
      "sku,price,name\npen,30,\"Pen, blue\n", 2,
      "field 3 opens a double quote that the line does not close (a field can't hold a line break)"
    ),
    ("sku,price,name\npen,30,\"Pen\" blue\n", 2, "field 3 has text after its closing double quote"),
    ("\"pen\"x,30\n", 1, "field 1 has text after its closing double quote"),
    (
      "\"pen,30\n", 1,
      "field 1 opens a double quote that the line does not close (a field can't hold a line break)"
    ),
    ("pen,abc\n", 1, "price of 'pen' is 'abc', not a whole number from 0 to 9223372036854775807"),
    ("pen,-1\n", 1, "price of 'pen' is '-1', not a whole number from 0 to 9223372036854775807"),
    ("pen,1.5\n", 1, "price of 'pen' is '1.5', not a whole number from 0 to 9223372036854775807"),
    ("pen,\n", 1, "price of 'pen' is '', not a whole number from 0 to 9223372036854775807"),
    (
      "pen,99999999999999999999\n", 1,
      "price of 'pen' is '99999999999999999999', not a whole number from 0 to 9223372036854775807"
    ),
    ("p n,1\n", 1, "invalid SKU 'p n': use 1-64 letters, digits, '-', '_' or '.'"),
    (",1\n", 1, "invalid SKU '': use 1-64 letters, digits, '-', '_' or '.'"),
    ("p\"x,1\n", 1, "invalid SKU 'p\"x': use 1-64 letters, digits, '-', '_' or '.'"),
    ("# c\npen,1\n\npen,2\n", 4, "'pen' is already listed on line 2"),
    (
      "pen,1\nsku,price\n", 2,
      "price of 'sku' is 'price', not a whole number from 0 to 9223372036854775807"
    ),
  ])
  func aBadLineNamesItsFileAndLine(text: String, line: Int, reason: String) {
    do {
      _ = try load(text)
      Issue.record("accepted \(text)")
    } catch {
      guard case .badData(let path, let badLine, let actual) = error else {
        Issue.record("wrong error \(error)")
        return
      }
      #expect(path == FilePath("prices.csv"))
      #expect(badLine == line)
      #expect(actual == reason)
      #expect(error.message.hasPrefix("prices.csv:\(line): "))
    }
  }

  @Test func aMissingFileIsUnreadable() throws {
    let folder = try TemporaryFolder()
    #expect(throws: FileError.unreadable(FilePath(folder.file("none.csv")), .init("open", code: 2)))
    {
      try FileCatalog(path: folder.file("none.csv"))
    }
    #expect(throws: FileError.notRegular(FilePath(folder.path), .folder, writing: false)) {
      try FileCatalog(path: folder.path)
    }
  }

  @Test func readsAFile() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("c.csv", "sku,price\nink,5\n")
    #expect(try FileCatalog(path: path).price(of: "ink") == 5)
  }
}

/// What a spreadsheet's export holds beside prices: blank rows as empty cells, notes in the
/// SKU column, and another locale's separator.
struct SpreadsheetCatalogTests {
  func catalog(_ text: String) throws(FileError) -> FileCatalog {
    try FileCatalog(path: "/sheet.csv", contents: Array(text.utf8))
  }

  @Test(arguments: [
    "sku,price\n,\npen,30\n,,\nlamp,190\n",
    "sku,price,name\n,,\npen,30,Pen\n\"\",\"\",\"\"\nlamp,190,\"a;b\"\n , ,\t\n",
    "pen,30\n# a note,\n\"# old\",5\n#lamp,7\nlamp,190\n",
    "sku,price,name\n#,,\npen,30,x\n\"#gone\",x,y\nlamp,190,z\n",
  ])
  func emptyRowsAndNotesInTheSKUCellAreSkipped(text: String) throws {
    let entries = try catalog(text).entries
    #expect(entries.map(\.sku) == ["lamp", "pen"] && entries.map(\.price) == [190, 30])
  }

  @Test(
    arguments: [
      ("sku;price\npen;30\n", 1, "';' (semicolons)"),
      ("pen;30\n", 1, "';' (semicolons)"),
      ("sku\tprice\npen\t30\n", 1, "tabs"),
      ("\"pen\";30\n", 1, "';' (semicolons)"),
      ("\"pen\"\t30\n", 1, "tabs"),
      ("pen,30\nlamp;190\n", 2, "';' (semicolons)"),
      ("sku,price,name\npen,30,x\nlamp;190;y\n", 3, "';' (semicolons)"),
    ] as [(String, Int, String)])
  func anotherSeparatorIsRefusedSayingItMustBeAComma(text: String, line: Int, named: String) {
    #expect {
      try catalog(text)
    } throws: { error in
      guard case .badData(_, let at, let reason) = error as? FileError else { return false }
      return at == line && reason.contains("separated by \(named)")
        && reason.contains("separator must be a comma")
    }
  }

  @Test func aSemicolonInsideAFieldIsNoSeparator() throws {
    #expect(try catalog("sku,price,name\npen,30,\"a;b\"\n").entries.map(\.sku) == ["pen"])
    #expect(throws: FileError.self) { try catalog("pen,30\n\"a;b\",3\n") }
  }
}
