import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

struct BatchInputTests {
  func groups(of text: String) throws -> [[Request]] {
    let folder = try TemporaryFolder()
    let input = try BatchInput(path: try folder.write("batch.txt", text))
    var groups: [[Request]] = []
    while let group = try input.nextGroup() { groups.append(group) }
    return groups
  }

  func describe(_ requests: [Request]) -> [String] {
    requests.map { request in
      switch request.cart {
      case .success(let cart):
        return "\(request.line ?? 0): "
          + cart.items.map { "\($0.sku)=\($0.quantity)" }.joined(separator: " ")
      case .failure(let error):
        return "\(request.line ?? 0): \(error)"
      }
    }
  }

  @Test func linesKeepTheirNumbersPastBlanksAndComments() throws {
    let groups = try groups(
      of: "pen=2 lamp=1\n\n# comment\n  # indented\r\n\tpen=1\r\nlamp=0\npen=1 pen=2")
    #expect(groups.count == 1)
    #expect(
      describe(groups.flatMap { $0 }) == [
        "1: pen=2 lamp=1", "5: pen=1",
        "6: 'lamp=0': quantity must be a whole number from 1 to 1000000",
        "7: pen=3",
      ])
  }

  @Test func anEmptyInputHasNoGroups() throws {
    #expect(try groups(of: "").isEmpty)
    #expect(try groups(of: "\n# only comments\n").isEmpty)
  }

  @Test func invalidUTF8IsAMalformedLine() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("bytes")
    try Data([0x70, 0xFF, 0x3D, 0x31, 0x0A, 0x70, 0x3D, 0x31]).write(to: URL(fileURLWithPath: path))
    let input = try BatchInput(path: path)
    let requests = try #require(try input.nextGroup())
    #expect(
      describe(requests) == [
        "1: 'p\\xFF=1': SKU must be 1-64 letters, digits, '-', '_' or '.'", "2: p=1",
      ])
  }

  @Test(arguments: [(500, BatchInput.groupBytes), (BatchInput.groupLines, 4096), (300, 3000)])
  func largeInputsComeInBoundedGroupsWithNoLineLost(lines groupLines: Int, bytes groupBytes: Int)
    throws
  {
    // Smaller groups than in use reach the same edges with fewer lines: a group ends at its
    // count of lines or once it holds its bytes, and the next starts at the next line.
    let lines = (1...6000).map { "sku\($0 % 1000)=\($0 % 7 + 1)" }
    let text = lines.joined(separator: "\n") + "\n"
    let input = BatchInput(
      descriptor: BufferSource(Array(text.utf8), chunk: 1000), name: "in",
      groupLines: groupLines, groupBytes: groupBytes)
    var groups: [[Request]] = []
    while let group = try input.nextGroup() { groups.append(group) }
    #expect(groups.count > 1)
    let longest = lines.map(\.utf8.count).max() ?? 0
    for group in groups {
      #expect(group.count <= groupLines)
      let bytes = group.reduce(0) { $0 + lines[($1.line ?? 1) - 1].utf8.count + 1 }
      #expect(bytes <= groupBytes + longest, "a group of \(bytes) bytes")
    }
    let all = groups.flatMap { $0 }
    #expect(all.map(\.line) == Array(1...6000))
    #expect(describe(all).map { $0.split(separator: " ").last.map(String.init) ?? "" } == lines)
  }

  @Test func anEndlessLineIsReportedOnceAndSkipped() throws {
    let long = String(repeating: "x", count: BatchInput.maximumLineBytes * 2 + 10)
    let all = try groups(of: "pen=1\n" + long + "\nlamp=1\n").flatMap { $0 }
    #expect(
      describe(all) == [
        "1: pen=1", "2: line is longer than \(BatchInput.maximumLineBytes) bytes", "3: lamp=1",
      ])
  }

  @Test func aMissingFileIsUnreadable() throws {
    #expect(
      throws: FileError.unreadable(FilePath("/nonexistent/batch"), .init("open", code: ENOENT))
    ) {
      try BatchInput(path: "/nonexistent/batch")
    }
  }

  @Test func aPipeYieldsEachLineAsItArrives() throws {
    let pipe = Pipe()
    let input = BatchInput(
      descriptor: Descriptor.borrowing(pipe.fileHandleForReading.fileDescriptor), name: "pipe")
    try pipe.fileHandleForWriting.write(contentsOf: Data("pen=1\n".utf8))
    // The writer is still open: the first group must come without waiting for the end.
    #expect(describe(try #require(try input.nextGroup())) == ["1: pen=1"])
    try pipe.fileHandleForWriting.write(contentsOf: Data("lamp=2".utf8))
    try pipe.fileHandleForWriting.close()
    #expect(describe(try #require(try input.nextGroup())) == ["2: lamp=2"])
    #expect(try input.nextGroup() == nil)
  }
}
