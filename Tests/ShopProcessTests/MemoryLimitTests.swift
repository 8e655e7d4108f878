import Foundation
import ShopTestSupport
import Testing

/// The issue's eighth reproduction and its class: under `ulimit -v` at several limits, every
/// command that can't get its memory says so with 71, never 134; a map that fails is never
/// taken for a missing index, so a good index is never replaced; every ref stays held once.
@Suite(.serialized)
struct MemoryLimitTests {
  @Test func aMemoryLimitIsExit71AndNeverCostsTheIndex() throws {
    let shop = try Shop()
    let orders = shop.folder.file("big.jsonl")
    let count = 300_000
    let input = (0..<count).map { "@big-\($0) pen=1\n" }.joined()
    #expect(try shop.run(["batch", "-q", "--orders", orders], input: input).status == 0)
    func inode() throws -> Int {
      try #require(
        FileManager.default.attributesOfItem(atPath: orders + ".refs")[.systemFileNumber] as? Int)
    }
    let good = try inode()
    // Too little for the index's 17 MB map: 71, and the index is left as it was.
    for limit in [16_000, 22_000, 28_000] {
      for command in [
        "place --ref big-77 pen=1", "orders --ref big-77", "place --ref new-\(limit) pen=1",
      ] {
        let run = try shop.shell(#"ulimit -v \#(limit); "$SHOP" \#(command) --orders '\#(orders)'"#)
        #expect(run.status == 71, "\(limit) \(command): \(run)")
        #expect(run.stderr.contains("not enough memory for"), "\(limit) \(command): \(run)")
      }
      #expect(try inode() == good, "\(limit): the index was not replaced")
    }
    let again = try shop.run("place", "--orders", orders, "--ref", "big-77", "pen=1")
    #expect(again.stdout == "order 1078 for 30 (already placed)\n", "\(again)")
    #expect(try inode() == good, "and it is still believed")
    // Other commands and limits, a rebuild among them: 0 or 71, never an abort.
    var placed = ["big-77"]
    for limit in [16_000, 20_000, 26_000, 40_000, 80_000] {
      try? FileManager.default.removeItem(atPath: orders + ".refs")
      for command in [
        "place --ref big-5 pen=1", "orders --count", "summary --by sku", "orders --last 2",
      ] {
        let run = try shop.shell(#"ulimit -v \#(limit); "$SHOP" \#(command) --orders '\#(orders)'"#)
        #expect([0, 71].contains(run.status), "\(limit) \(command): \(run)")
      }
      let batch = try shop.shell(
        #"ulimit -v \#(limit); "$SHOP" batch -q --orders '\#(orders)'"#,
        input: "@big-9 pen=1\n@m-\(limit) pen=1\n")
      #expect([0, 71].contains(batch.status), "\(limit) batch: \(batch)")
      if batch.status == 71 { #expect(batch.stderr.contains("memory"), "\(batch)") }
      placed.append("m-\(limit)")
    }
    // Each ref at most once, the numbers without a gap.
    let refs = try OrdersFile.refs(orders)
    #expect(refs.enumerated().allSatisfy { $0.element.number == 1001 + $0.offset })
    let held = refs.compactMap(\.ref)
    #expect(Set(held).count == held.count, "no ref twice")
  }
}
