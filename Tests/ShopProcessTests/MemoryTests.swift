import Foundation
import ShopAdapters
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

/// Peak memory that does not grow with the orders or the input, read by GNU time from the one
/// process it runs.
struct MemoryTests {
  @Test(.enabled(if: Shop.canMeasureMemory, "needs GNU time on Linux to read a peak"))
  func aListingsMemoryDoesNotGrowWithTheFile() throws {
    let (small, smallOrders) = try Shop.withOrders(2_000)
    let (large, largeOrders) = try Shop.withOrders(50_000)
    for form in [[], ["--json"]] {
      let arguments = ["orders"] + form
      let few = try small.runMeasured(
        (arguments + ["--orders", smallOrders]).map { Array($0.utf8) }, input: [])
      let many = try large.runMeasured(
        (arguments + ["--orders", largeOrders]).map { Array($0.utf8) }, input: [])
      #expect(few.run.status == 0 && many.run.status == 0)
      // 50,000 orders are about 6 MB of JSON: a listing that held them would show it.
      #expect(many.peakKiB - few.peakKiB < 4096, "\(few.peakKiB) KiB, then \(many.peakKiB) KiB")
    }
  }

  @Test(.enabled(if: Shop.canMeasureMemory, "needs GNU time on Linux to read a peak"))
  func aBatchOfShortLinesStaysInBoundedMemory() throws {
    let shop = try Shop()
    var peaks: [Int] = []
    for count in [20_000, 200_000] {
      let input = Array(String(repeating: "pen=1\n", count: count).utf8)
      let run = try shop.runMeasured(
        ["batch", "-q", "--orders", "o\(count).jsonl"].map { Array($0.utf8) }, input: input)
      #expect(run.run.status == 0)
      peaks.append(run.peakKiB)
    }
    // A group is bounded by lines as well as bytes: bounded by its 1 MiB alone, a group of
    // these lines would be 174,762 orders, ten times the 16,384 a group may hold.
    #expect(peaks[1] - peaks[0] < 16_384, "\(peaks[0]) KiB, then \(peaks[1]) KiB")
    #expect(peaks[1] < 48 * 1024, "\(peaks[1]) KiB")
  }

  @Test(.enabled(if: Shop.canMeasureMemory, "needs GNU time on Linux to read a peak"))
  func aSummaryAndARangeStreamInMemoryThatDoesNotGrowWithTheOrders() throws {
    // Each form runs as a real process, whose peak memory GNU time can read.
    let items = { (index: Int) in
      [
        OrderLine(sku: "pen", quantity: index % 9 + 1, price: 150),
        OrderLine(sku: "lamp", quantity: 1, price: 2500),
      ]
    }
    let few = try Shop.withOrders(2_000, items: items)
    let many = try Shop.withOrders(30_000, items: items)
    for form in [
      ["summary"], ["summary", "--by", "day"], ["summary", "--by", "sku", "--json"],
      ["orders", "--since", "2000-01-01", "--count"],
    ] {
      var peaks: [Int] = []
      for (shop, orders) in [few, many] {
        let run = try shop.runMeasured(
          (form + ["--orders", orders]).map { Array($0.utf8) }, input: [])
        #expect(run.run.status == 0, "\(form)")
        peaks.append(run.peakKiB)
      }
      // 30,000 orders are about 5 MB of JSON, more as Orders: holding them would show.
      #expect(peaks[1] - peaks[0] < 4096, "\(form): \(peaks[0]) KiB, then \(peaks[1]) KiB")
    }
  }
}

extension Shop {
  /// A sandbox whose orders file holds `count` orders, the lines of order `i` by `items(i)`,
  /// a second apart from 2026-11-30T06:06:43Z. They are saved in-process by the store `batch`
  /// saves through, in one group: what is measured is the reader, and the debug binary would
  /// take seconds to place them.
  static func withOrders(
    _ count: Int,
    items: (Int) -> [OrderLine] = { [OrderLine(sku: "pen", quantity: $0 % 9 + 1, price: 150)] }
  ) throws -> (Shop, String) {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let drafts = try (0..<count).map { index in
      try #require(
        Draft(
          lines: items(index),
          placedAt: Timestamp(secondsSince1970: 1_796_018_803 + Int64(index))))
    }
    let saved = try FileOrders(path: FilePath(orders)).save(drafts)
    #expect(saved.count == count)
    return (shop, orders)
  }
}
