import Foundation
import ShopAdapters
import ShopTestSupport
import Testing

@testable import ShopCommandLine
@testable import shop

/// The built-in prices are written once, in ``MemoryCatalog/builtInEntries``: what help, the
/// manual and `--explain` say is made from that list, and the documents are checked against
/// it, so a price changed there and not in a document fails here.
struct BuiltInPricesTests {
  /// `pen 30, lamp 190`, in the list's order.
  static let told = MemoryCatalog.builtInEntries.map { "\($0.sku) \($0.price)" }
    .joined(separator: ", ")

  @Test func helpTheManualAndTheExplanationTellTheList() throws {
    #expect(CommandLineDescription.told(MemoryCatalog.builtInEntries) == BuiltInPricesTests.told)
    let harness = try RootHarness()
    let help = try harness.run("place", "--help").stdout
    #expect(help.contains(BuiltInPricesTests.told), "\(help)")
    let manual = try harness.run("manual").stdout.replacing("\\-", with: "-")
    #expect(manual.contains("the built-in catalog: \(BuiltInPricesTests.told)"))
    let explained = try harness.run("place", "--explain", "pen=1").stdout
    #expect(explained.contains("built-in: \(BuiltInPricesTests.told) (default"), "\(explained)")
    // And what the built-in catalog prices is that list, as `shop catalog` prints it.
    let listed = try harness.run("catalog").stdout
    let sorted = MemoryCatalog.builtInEntries.sorted { $0.sku < $1.sku }
    #expect(listed == sorted.map { "\($0.sku) \($0.price)\n" }.joined())
  }

  /// Wherever a line of a document names a built-in SKU with a number after it (`pen 30`,
  /// `` `lamp` 190``), the number is that SKU's built-in price; both documents name every one.
  @Test(arguments: ["README.md", "docs/commands.md"])
  func theDocumentsNameThePricesOfTheList(document: String) throws {
    let text = try SourceTree.document(document)
    for (sku, price) in MemoryCatalog.builtInEntries {
      let named = text.matches(of: try Regex("\\b\(sku)`? ([0-9]+)")).map {
        String(text[$0.range].drop { !$0.isNumber })
      }
      #expect(!named.isEmpty, "\(document) does not name the price of \(sku)")
      #expect(named.allSatisfy { $0 == "\(price)" }, "\(document): \(sku) \(named)")
    }
  }
}
