import Foundation
import ShopTestSupport
import Testing

/// `--ref` and `@REF` through the binary: at most once under concurrency, kill -9 and a full
/// disk, each followed by running the same input again.
@Suite(.serialized)
struct ReferenceTests {
  @Test func eightProcessesPlacingTheSameRefsGiveOneOrderEach() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let processes = (1...8).map { worker in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      // Every worker places the same 25 refs in the same order, with the same items.
      process.arguments = [
        "-c",
        #"for i in $(seq 25); do "$0" place --orders "$1" --ref "same-$i" pen=$i >>"$2" || exit 1; done"#,
        Shop.binary, orders, shop.folder.file("out.\(worker)"),
      ]
      return process
    }
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "a command failed")
    #expect(
      try OrdersFile.refsPlacedOnce(orders, (1...25).map { "same-\($0)" }) == nil, "eight processes"
    )
    var placed = 0
    for worker in 1...8 {
      let out = try shop.folder.read("out.\(worker)").split(separator: "\n")
      #expect(out.count == 25)
      placed += out.filter { !$0.hasSuffix("(already placed)") }.count
    }
    #expect(placed == 25, "each ref reported placed by exactly one process")
  }

  @Test func aBatchKilledThenRunAgainUnchangedPlacesEveryLineOnce() throws {
    let shop = try Shop()
    let lines = (0..<6000).map { "@k-\($0) pen=\($0 % 7 + 1) lamp=\($0 % 2 + 1)\n" }
    let chunks = stride(from: 0, to: lines.count, by: 100).map {
      Data(lines[$0..<min($0 + 100, lines.count)].joined().utf8)
    }
    let input = try shop.folder.write("input.txt", lines.joined())
    var interrupted = 0
    for (moment, delay) in [60_000, 150_000, 300_000].enumerated() {
      let orders = shop.folder.file("orders.\(moment).jsonl")
      let reported = try shop.batchKilled(
        ["-q", "--orders", orders], feeding: chunks, after: useconds_t(delay))
      #expect(Set(reported).count == reported.count)
      let before = try OrdersFile.refs(orders).count
      if before < lines.count { interrupted += 1 }
      let rerun = try shop.run("batch", "-q", "--orders", orders, input)
      #expect(rerun.status == 0, "\(rerun)")
      #expect(
        try OrdersFile.refsPlacedOnce(orders, (0..<6000).map { "k-\($0)" }) == nil,
        "moment \(moment)")
      // And each ref's order has its own line's items.
      let text = String(
        decoding: FileManager.default.contents(atPath: orders) ?? Data(), as: UTF8.self)
      for line in text.split(separator: "\n") {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let ref = try #require(object?["ref"] as? String)
        let index = try #require(Int(ref.dropFirst(2)))
        let items = try #require(object?["items"] as? [[String: Any]])
        #expect(items.first?["quantity"] as? Int == index % 7 + 1, "\(line)")
      }
    }
    #expect(interrupted >= 1, "no kill landed before the end")
  }

  @Test(.enabled(if: TinyDisk.canMount, "mounting a tmpfs needs root on Linux"))
  func aFullDiskThenRunAgainPlacesEveryLineOnce() throws {
    let shop = try Shop()
    let disk = try TinyDisk(kilobytes: 64)
    let orders = disk.path + "/orders.jsonl"
    let input = try shop.folder.write(
      "input.txt", (0..<2000).map { "@f-\($0) pen=1 lamp=\($0 % 3 + 1)\n" }.joined())
    let full = try shop.run("batch", "-q", "--orders", orders, input)
    #expect(full.status == 74, "\(full)")
    let partial = try OrdersFile.refs(orders)
    #expect(partial.count < 2000)
    #expect(partial.map(\.number) == Array(1001..<(1001 + partial.count)))
    // Room again: the same command, unchanged, finishes the job.
    let grow = Process()
    grow.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    grow.arguments = ["mount", "-o", "remount,size=2m", disk.path]
    try grow.run()
    grow.waitUntilExit()
    #expect(grow.terminationStatus == 0)
    let rerun = try shop.run("batch", "-q", "--orders", orders, input)
    #expect(rerun.status == 0, "\(rerun)")
    #expect(
      try OrdersFile.refsPlacedOnce(orders, (0..<2000).map { "f-\($0)" }) == nil,
      "after the full disk")
    #expect(
      try shop.run("place", "--orders", orders, "--ref", "f-7", "pen=1", "lamp=2").stdout
        == "order 1008 for 369 (already placed)\n")
  }
}
