import Foundation
import ShopTestSupport
import Testing

/// libpq seen from outside the process: which commands make the binary open it.
struct PostgresLibraryProcessTests {
  /// The process itself, seen by strace: file, memory and generated-text commands open no
  /// libpq; the same binary with a URI does try to (found or not, strace sees the name).
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
      "needs strace to see what the process opens"))
  func onlyAPostgreSQLStoreOpensLibpq() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    let trace = shop.folder.file("trace")
    func opened(_ arguments: String) throws -> (status: Int32, libpq: Bool) {
      let run = try shop.shell(
        #"strace -f -e trace=openat,open -o '\#(trace)' "$SHOP" \#(arguments) </dev/null"#)
      let calls = try String(contentsOfFile: trace, encoding: .utf8)
      #expect(calls.contains("openat"), "strace saw nothing: \(calls)")
      return (run.status, calls.contains("libpq"))
    }
    for arguments in [
      "place --orders '\(orders)' pen=1", "place --memory pen=1", "orders --orders '\(orders)'",
      "summary --orders '\(orders)'", "--version", "help", "place --orders '\(orders)' bad",
    ] {
      #expect(try opened(arguments).libpq == false, "\(arguments)")
    }
    let uri = "postgresql:///shop?host=\(shop.folder.file("no-server"))&connect_timeout=1"
    let connecting = try opened("orders --orders '\(uri)'")
    #expect(connecting.libpq, "a postgres:// store must load libpq")
    #expect(connecting.status == 69)
  }
}
