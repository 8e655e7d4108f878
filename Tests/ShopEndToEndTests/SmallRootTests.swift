import Foundation
import ShopAdapters
import ShopCore
import ShopTestSupport
import Testing

@testable import shop

/// Both halves of the composition root's promise, for a reader who wants to write a root of
/// their own: a use case wired by hand from fakes (a small root in a test), and the real root
/// (`runShop`) with one part replaced and the rest as the command line chooses.
struct SmallRootTests {
  static let noon = Timestamp(secondsSince1970: 1_796_040_000)

  /// A small root: four fakes, one use case, no disk and no command line.
  @Test func aUseCaseWiredByHandFromFakes() throws {
    let orders = FakeOrders()
    let report = RecordingReport()
    let placeOrder = PlaceOrder(
      catalog: FakeCatalog(prices: ["pen": 30, "lamp": 190]), orders: orders,
      clock: FixedClock(time: SmallRootTests.noon), report: report)

    var cart = Cart()
    try cart.add(Cart.Item(sku: "pen", quantity: 2))
    try cart.add(Cart.Item(sku: "lamp", quantity: 1))
    let outcome = try placeOrder.place(cart)

    guard case .placed(let order) = outcome else {
      Issue.record("not placed: \(outcome)")
      return
    }
    #expect(order.number == 1001)
    #expect(order.total == 250)
    #expect(order.payable == 225)
    #expect(orders.saved == [order])
    #expect(report.outcomes.map(\.outcome) == [outcome])
  }

  /// The real root, its catalog replaced: the command line, the store (a real file in a
  /// private HOME), the report and the exit status are the real ones; the prices are the
  /// fake's.
  @Test func theRealRootWithItsCatalogReplaced() throws {
    let folder = try TemporaryFolder()
    let output = BufferSink()
    let errors = BufferSink()
    let status = runShop(
      arguments: ["place", "pen=2", "desk=1"].map { Array($0.utf8) },
      environment: Environment(["HOME": folder.path]),
      streams: StandardStreams(input: BufferSource([]), output: output, errors: errors),
      clock: FixedClock(time: SmallRootTests.noon),
      parts: Parts(catalog: FakeCatalog(prices: ["pen": 5, "desk": 300])))
    #expect(status == .success)
    #expect(output.text == "order 1001 for 279\n")
    #expect(errors.text.isEmpty)
    let saved = try String(
      contentsOfFile: folder.path + "/.local/share/shop/orders.jsonl", encoding: .utf8)
    #expect(saved.contains("\"total\":310"))
  }

  /// The real root, its store replaced: nothing touches a disk, and the fake holds the order.
  @Test func theRealRootWithItsStoreReplaced() throws {
    let orders = FakeOrders()
    let output = BufferSink()
    let status = runShop(
      arguments: ["place", "lamp=1", "--orders", "/nonexistent/shop/orders.jsonl"].map {
        Array($0.utf8)
      },
      environment: Environment([:]),
      streams: StandardStreams(input: BufferSource([]), output: output, errors: BufferSink()),
      clock: FixedClock(time: SmallRootTests.noon), parts: Parts(orders: orders))
    #expect(status == .success)
    #expect(output.text == "order 1001 for 190\n")
    #expect(orders.saved.map(\.total) == [190])
    #expect(!FileManager.default.fileExists(atPath: "/nonexistent/shop"))
  }
}
