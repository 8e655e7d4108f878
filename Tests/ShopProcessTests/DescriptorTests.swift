import Foundation
import ShopTestSupport
import Testing

/// Closed standard descriptors and an orders file that is also a standard stream: what only a
/// shell can arrange (`>&-`, `>> o.jsonl`) around the real binary.
struct DescriptorTests {
  func orderNumbers(_ path: String) throws -> [Int] {
    try OrdersFile.numbers(path)
  }

  func bytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }

  @Test(arguments: [
    #""$SHOP" place --orders o.jsonl pen=1 >&-"#,
    #"printf 'pen=1\n' | "$SHOP" batch --orders o.jsonl >&-"#,
    #""$SHOP" batch --orders o.jsonl in.txt >&-"#,
    #""$SHOP" place --json --orders o.jsonl pen=1 >&-"#,
    #""$SHOP" orders --orders o.jsonl >&-"#,
  ])
  func aClosedStandardOutputIs74AndTheFileStaysAsItWas(script: String) throws {
    let shop = try Shop()
    try shop.run("place", "--orders", shop.folder.file("o.jsonl"), "lamp=1")
    _ = try shop.folder.write("in.txt", "pen=1\n")
    let before = bytes(shop.folder.file("o.jsonl"))
    let run = try shop.shell(script)
    #expect(run.status == 74, "\(run)")
    #expect(run.stderr == "Error: cannot write 'standard output': Bad file descriptor\n")
    #expect(bytes(shop.folder.file("o.jsonl")) == before)
  }

  @Test(arguments: [
    #""$SHOP" place -q --orders o.jsonl pen=1 >&-"#,
    #""$SHOP" place -q --orders o.jsonl pen=1 <&- >&- 2>&-"#,
    #""$SHOP" batch -q --orders o.jsonl in.txt >&-"#,
    #""$SHOP" batch -q --orders o.jsonl in.txt <&- >&- 2>&-"#,
    #"printf 'pen=1\nlamp=2\n' | "$SHOP" batch -q --orders o.jsonl >&- 2>&-"#,
  ])
  func quietCommandsPlaceWithClosedDescriptorsAndWriteOnlyOrders(script: String) throws {
    let shop = try Shop()
    _ = try shop.folder.write("in.txt", "pen=1\nlamp=2\n")
    let run = try shop.shell(script)
    #expect(run.status == 0, "\(run)")
    let numbers = try orderNumbers(shop.folder.file("o.jsonl"))
    #expect(numbers == Array(1001..<(1001 + numbers.count)) && !numbers.isEmpty)
  }

  @Test func aBadBatchLineWithStandardErrorClosedNeverReachesTheFile() throws {
    let shop = try Shop()
    let run = try shop.shell(
      #"printf 'pen=1\nbogus\nlamp=1\n' | "$SHOP" batch -q --orders o.jsonl 2>&-"#)
    #expect(run.status == 1)
    #expect(try orderNumbers(shop.folder.file("o.jsonl")) == [1001, 1002])
  }

  @Test func aUsageErrorWithStandardErrorClosedIs64() throws {
    let shop = try Shop()
    #expect(try shop.shell(#""$SHOP" place --orders o.jsonl 2>&-"#).status == 64)
    #expect(try shop.shell(#""$SHOP" plcae pen=1 2>&-"#).status == 64)
    #expect(!FileManager.default.fileExists(atPath: shop.folder.file("o.jsonl")))
  }

  @Test func aBatchFromAClosedStandardInputIs66() throws {
    let shop = try Shop()
    let run = try shop.shell(#""$SHOP" batch -q --orders o.jsonl <&-"#)
    #expect(run.status == 66)
    #expect(run.stderr == "Error: cannot read 'standard input': Bad file descriptor\n")
    #expect(!FileManager.default.fileExists(atPath: shop.folder.file("o.jsonl")))
  }

  @Test func anOrdersFileThatIsAlsoAStandardStreamIsRefused() throws {
    let shop = try Shop()
    try shop.run("place", "--orders", shop.folder.file("o.jsonl"), "lamp=1")
    let before = bytes(shop.folder.file("o.jsonl"))
    let placed = try shop.shell(#""$SHOP" place --orders o.jsonl pen=1 >> o.jsonl"#)
    #expect(placed.status == 73)
    #expect(placed.stderr.contains("'o.jsonl' is also standard output"))
    let listed = try shop.shell(#""$SHOP" orders --orders o.jsonl >> o.jsonl"#)
    #expect(listed.status == 73)
    let quiet = try shop.shell(#"printf 'x\n' | "$SHOP" batch -q --orders o.jsonl 2>> o.jsonl"#)
    #expect(quiet.status == 73)
    // Nor an explanation or a help, whichever stream is redirected and whatever names the file.
    for script in [
      #""$SHOP" place --explain --orders o.jsonl pen=1 >> o.jsonl"#,
      #""$SHOP" orders --explain --orders o.jsonl >> o.jsonl 2>&1"#,
      #"SHOP_ORDERS=o.jsonl "$SHOP" help >> o.jsonl"#,
      #"SHOP_ORDERS=o.jsonl "$SHOP" catalog --explain 2>> o.jsonl >&2"#,
    ] {
      #expect(try shop.shell(script).status == 73, "\(script)")
    }
    // The refusal is not printed where it would land among the orders: the file is as it was.
    #expect(bytes(shop.folder.file("o.jsonl")) == before)
  }
}
