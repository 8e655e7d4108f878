import Foundation
import ShopTestSupport
import Testing

/// What only a real process can arrange: standard error redirected into the orders file,
/// resource limits, a missing /proc.
struct ProcessEdgeTests {
  func orderLines(_ shop: Shop, _ name: String) throws -> [String] {
    let text = try shop.folder.read(name)
    #expect(text.isEmpty || text.hasSuffix("\n"), "the file ends mid-line: \(text.suffix(80))")
    return text.split(separator: "\n").map(String.init)
  }

  /// Every line must be an order, numbered 1001 up by one.
  func expectOnlyOrders(_ lines: [String], count: Int? = nil) {
    for (index, line) in lines.enumerated() {
      #expect(line.hasPrefix(#"{"number":\#(1001 + index),"#), "line \(index + 1): \(line)")
    }
    if let count { #expect(lines.count == count) }
  }

  @Test(arguments: [
    #""$SHOP" place pen=1 --orders r.jsonl >> r.jsonl 2>&1"#,
    #""$SHOP" place pen=1 --orders r.jsonl 2>> r.jsonl"#,
    #""$SHOP" place --json pen=1 --orders r.jsonl >> r.jsonl 2>> r.jsonl"#,
    #"SHOP_ORDERS=r.jsonl "$SHOP" place pen=1 >> r.jsonl 2>&1"#,
    #"SHOP_ORDERS=r.jsonl "$SHOP" place pen=1 2>> r.jsonl"#,
    #"printf 'pen=1\nbad\n' | "$SHOP" batch --orders r.jsonl >> r.jsonl 2>&1"#,
    #"printf 'pen=1\nbad\n' | "$SHOP" batch -q --orders r.jsonl 2>> r.jsonl"#,
    #""$SHOP" orders --orders r.jsonl >> r.jsonl 2>&1"#,
    #""$SHOP" orders --count --orders r.jsonl 2>> r.jsonl"#,
    #"SHOP_ORDERS=r.jsonl "$SHOP" orders 5 2>> r.jsonl"#,
    // A usage error, with the orders file from the environment.
    #"SHOP_ORDERS=r.jsonl "$SHOP" place --bogus 2>> r.jsonl"#,
    #"SHOP_ORDERS=r.jsonl "$SHOP" orders --last 0 >> r.jsonl 2>&1"#,
    // A usage error, with the orders file named on the command line the parser refused,
    // before or after the bad argument, in either form, through another name, or after an
    // unknown command.
    #""$SHOP" place --orders r.jsonl pen=0 2>> r.jsonl"#,
    #""$SHOP" place --bogus --orders=r.jsonl pen=1 >> r.jsonl 2>&1"#,
    #""$SHOP" orders --csv --json --orders r.jsonl 2>> r.jsonl"#,
    #""$SHOP" summary --by week --orders r.jsonl 2>> r.jsonl"#,
    #"printf 'pen=1\n' | "$SHOP" batch --bogus --orders r.jsonl 2>> r.jsonl"#,
    #""$SHOP" plcae pen=1 --orders r.jsonl 2>> r.jsonl"#,
    #""$SHOP" place --orders /dev/stderr pen=0 2>> r.jsonl"#,
    #""$SHOP" orders --orders /dev/stdout --bogus >> r.jsonl 2>&1"#,
  ])
  func anErrorIsNeverPrintedIntoTheOrdersFile(script: String) throws {
    let shop = try Shop()
    try shop.run("place", "--orders", shop.folder.file("r.jsonl"), "lamp=1")
    let before = try shop.folder.read("r.jsonl")
    let run = try shop.shell(script)
    #expect(run.status != 0, "\(run)")
    #expect(try shop.folder.read("r.jsonl") == before, "\(script)")
    // The file stays one every command reads.
    let listed = try shop.run("orders", "--orders", shop.folder.file("r.jsonl"))
    #expect(listed.status == 0, "\(listed)")
    #expect(listed.stdout.hasPrefix("1001 "))
  }

  @Test func aFileSizeLimitStopsABatchWith74AndSaysWhatWasSaved() throws {
    let shop = try Shop()
    // 64 blocks of 512 bytes: room for a few hundred orders; the input arrives in small
    // groups through a pipe so several commit before the limit. The feeders' own complaints
    // about the pipe that batch closed (they inherit the tests' ignored SIGPIPE) are not
    // batch's errors.
    let run = try shop.shell(
      #"""
      ulimit -f 64
      for i in $(seq 40); do seq 50 | sed 's/.*/pen=1/'; sleep 0.02; done 2>/dev/null |
        "$SHOP" batch --orders x.jsonl > out.txt
      echo "status $?" >&2
      """#)
    #expect(run.stderr.hasSuffix("status 74\n"), "\(run)")
    let errors = run.stderr.split(separator: "\n")
    #expect(errors.count == 2, "one line of error, then the status: \(run)")
    #expect(errors.first?.contains("File too large") == true)
    let lines = try orderLines(shop, "x.jsonl")
    expectOnlyOrders(lines)
    #expect(lines.count < 2000 && !lines.isEmpty)
    // Every reported order is in the file, and none that was not reported was kept hidden.
    let reported = try shop.folder.read("out.txt").split(separator: "\n")
    #expect(reported.count <= lines.count)
    for (index, report) in reported.enumerated() {
      #expect(report.hasPrefix("order \(1001 + index) for 30"))
    }
    if let last = reported.last?.split(separator: " ").dropFirst().first {
      #expect(errors.first?.contains("the last order this batch reported is \(last)") == true)
    }
    // A single place past the limit is the same failed write.
    let place = try shop.shell(#"ulimit -f 0; "$SHOP" place --orders x.jsonl pen=1"#)
    #expect(place.status == 74, "\(place)")
    #expect(try orderLines(shop, "x.jsonl") == lines)
  }

  @Test(arguments: [3, 4])
  func noFreeDescriptorAtStartIsAnErrorNeverTheHelp(limit: Int) throws {
    let shop = try Shop()
    for command in [
      "place --orders o.jsonl pen=1", "orders --orders o.jsonl --count", "plcae pen=1",
      "batch --orders o.jsonl in.txt",
    ] {
      _ = try shop.folder.write("in.txt", "pen=1\n")
      let run = try shop.shell(#"ulimit -n \#(limit); exec "$SHOP" \#(command)"#)
      // Never the help with 0, as when the arguments were read from /proc and lost.
      #expect(!run.stdout.contains("OVERVIEW"), "\(command): \(run)")
      if run.status == 0 {
        #expect(!command.hasPrefix("plcae"), "\(run)")
        // With a descriptor free the command can do its job: then it must have done it.
        if command.hasPrefix("orders") { #expect(["0\n", "1\n"].contains(run.stdout)) }
        if command.hasPrefix("place") { #expect(run.stdout.hasPrefix("order 100")) }
      } else {
        // It says why: too many open files (or, for a dynamically linked debug build, the
        // loader can't open the libraries it needs), a usage error for the typo.
        #expect(!run.stderr.isEmpty, "\(command): \(run)")
        if command.hasPrefix("plcae"), run.status == 64 {
          #expect(run.stderr.contains("did you mean 'place'?"))
        }
      }
    }
  }

  @Test(
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
      "needs root and unshare to hide /proc"))
  func withoutProcTheCommandWorksOrSaysWhyAndFails() throws {
    let shop = try Shop()
    for command in ["--version", "place --orders o.jsonl pen=1"] {
      let run = try shop.shell(
        #"exec unshare -m --propagation private sh -c 'umount -l /proc && exec "$SHOP" \#(command)'"#
      )
      #expect(run.status != 134, "aborted: \(run)")
      if run.status != 0 {
        #expect(run.stderr.contains("/proc"), "\(run)")
      } else if command.hasPrefix("place") {
        #expect(run.stdout == "order 1001 for 30\n")
      }
    }
  }
}
