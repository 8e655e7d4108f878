import Foundation
import ShopTestSupport
import Testing

/// The orders file replaced, moved or removed while a batch holds it open: after any of these,
/// every order a command reported is in the file at the path, exactly once, under the number
/// reported, or the batch stopped with 74 and said why.
struct ReplacedFileTests {
  /// How the file is replaced between two groups of the batch, and whether the file then at
  /// the path still holds what the batch reported (so it goes on) or not (so it stops).
  static let replacements: [(String, String, Bool)] = [
    ("sed -i", "sed -i 's/x/x/' o.jsonl", true),
    ("perl -i", "perl -i -pe 's/x/x/' o.jsonl", true),
    ("write a copy, then mv", "cat o.jsonl > t.jsonl && mv t.jsonl o.jsonl", true),
    ("cp over (same inode)", "cp o.jsonl c.jsonl && cp c.jsonl o.jsonl", true),
    // The same inode, other lines: only the lines can tell.
    ("cp an older copy over", "head -n 9 o.jsonl > t.jsonl && cp t.jsonl o.jsonl", false),
    ("truncate", "truncate -s 0 o.jsonl", false),
    (
      "lines rewritten in place", #"sed 's/"pen"/"ink"/' o.jsonl > t.jsonl && cp t.jsonl o.jsonl"#,
      false
    ),
    ("mv away", "mv o.jsonl o.old", false),
    ("rm", "rm o.jsonl", false),
    ("a copy without the last order", "head -n 9 o.jsonl > t.jsonl && mv t.jsonl o.jsonl", false),
    ("symbolic link retargeted to a copy", "cp a.jsonl b.jsonl && ln -sfn b.jsonl o.jsonl", true),
    ("symbolic link retargeted elsewhere", "ln -sfn none.jsonl o.jsonl", false),
  ]

  @Test(arguments: replacements)
  func aBatchWhoseFileIsReplacedLosesNothingItReported(
    name: String, script: String, holdsReported: Bool
  ) throws {
    let shop = try Shop()
    let folder = shop.folder.path
    if name.hasPrefix("symbolic link") {
      try FileManager.default.createSymbolicLink(
        atPath: shop.folder.file("o.jsonl"), withDestinationPath: "a.jsonl")
    }
    let (batch, input) = try shop.startFed(["batch", "--orders", "o.jsonl"])
    func reports() -> [Substring] { batch.output.split(separator: "\n") }
    // Ten orders in two groups, each reported before the next line is sent.
    for index in 0..<10 {
      try input.write(contentsOf: Data("pen=1\n".utf8))
      // Up to 4 s, looked at every millisecond.
      var waited = 0
      while reports().count <= index, waited < 4000 {
        usleep(1000)
        waited += 1
      }
    }
    #expect(reports().count == 10)
    let replaced = try shop.shell("cd '\(folder)' && \(script)")
    #expect(replaced.status == 0, "\(replaced)")
    // Another command places into whatever the path names now.
    let other = try shop.run("place", "--orders", shop.folder.file("o.jsonl"), "lamp=1")
    #expect(other.status == 0, "\(other)")
    // One write of ten lines, well under the pipe's buffer: a batch that stops at the first
    // line it reads has them all already, so the test never writes into a closed pipe.
    try input.write(contentsOf: Data(String(repeating: "pen=1\n", count: 10).utf8))
    try input.close()
    let finished = batch.finish()
    let errors = finished.stderr

    // What the file at the path holds, by number: its payable.
    var stored: [Int: [Int]] = [:]
    for line in try shop.lines(of: shop.folder.file("o.jsonl")) {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let number = try #require(object?["number"] as? Int)
      stored[number, default: []].append(try #require(object?["payable"] as? Int))
    }
    #expect(stored.values.allSatisfy { $0.count == 1 }, "no number twice: \(stored)")
    let batchReports = Shop.reportedNumbers(reports().joined(separator: "\n"))
    let otherNumber = try #require(Shop.reportedNumbers(other.stdout).first)
    #expect(stored[otherNumber] == [190], "the other command's order is where it said")
    // The ten reported before the replacement went to the file the path named then.
    let afterReplacement = Array(batchReports.dropFirst(10))
    if holdsReported {
      #expect(finished.status == 0, "\(errors)")
      #expect(batchReports.count == 20)
      for number in batchReports { #expect(stored[number] == [30], "order \(number)") }
      #expect(Set(stored.keys) == Set(batchReports + [otherNumber]))
    } else {
      #expect(finished.status == 74, "\(errors)")
      #expect(afterReplacement.isEmpty, "nothing reported into a file that lost the rest")
      #expect(errors.contains("'o.jsonl'"), "\(errors)")
      #expect(errors.contains("order 1010 was the last one reported"), "\(errors)")
      #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    }
    if name == "mv away" {
      // The group that found the path gone was cut off the moved file again: it holds exactly
      // what was reported.
      let moved = try shop.lines(of: shop.folder.file("o.old"))
      #expect(moved.count == 10)
    }
  }
}
