import Foundation
import ShopTestSupport
import Testing

/// Pipes: a report that arrives while the pipe is still open, and a reader that goes away.
struct PipeTests {
  @Test func aReportArrivesWhileThePipeIsStillOpen() throws {
    let shop = try Shop()
    let (batch, input) = try shop.startFed(["batch"])
    try input.write(contentsOf: Data("pen=1\n".utf8))
    var seen = ""
    // Up to 10 s, looked at every 2 ms: a wait is a test thread the others can't use.
    var waited = 0
    while !seen.contains("\n"), waited < 5000 {
      usleep(2000)
      seen = batch.output
      waited += 1
    }
    #expect(seen == "order 1001 for 30\n", "the first report waited for the end of input")
    #expect(batch.process.isRunning)
    try input.write(contentsOf: Data("lamp=1\n".utf8))
    try input.close()
    let run = batch.finish()
    #expect(run.status == 0)
    #expect(run.stdout == "order 1001 for 30\norder 1002 for 190\n")
  }

  /// A large generated batch, checked against reports computed here, independently.
  @Test func aReaderThatGoesAwayEndsAListingQuietly() throws {
    let (shop, orders) = try Shop.withOrders(20_000)
    for form in ["", "--json", "--last 10000"] {
      let run = try shop.shell(
        #"{ "$SHOP" orders \#(form) --orders "$0"; echo "status $?" >&2; } | head -1"#
          .replacingOccurrences(of: "\"$0\"", with: "'\(orders)'"))
      #expect(run.stdout.split(separator: "\n").count == 1)
      #expect(run.stderr == "status 0\n", "orders \(form)")
    }
    let catalog = (0..<20_000).map { "sku\($0),\($0)" }.joined(separator: "\n")
    let file = try shop.folder.write("big.csv", catalog)
    let listed = try shop.shell(
      #"{ "$SHOP" catalog --catalog '\#(file)'; echo "status $?" >&2; } | head -1"#)
    #expect(listed.stderr == "status 0\n")
  }

  @Test func placingIntoAReaderThatGoesAwayIsStill74() throws {
    let shop = try Shop()
    let input = try shop.folder.write(
      "in.txt", String(repeating: "pen=1\n", count: 50_000))
    let run = try shop.shell(
      #"{ "$SHOP" batch --orders o.jsonl '\#(input)'; echo "status $?" >&2; } | head -1"#)
    #expect(run.stderr.hasSuffix("status 74\n"), "\(run)")
    #expect(run.stderr.contains("cannot write 'standard output': Broken pipe"))
  }
}
