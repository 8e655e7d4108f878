import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Synchronization
import Testing

@testable import ShopAdapters

struct FileOrdersTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ quantity: Int = 1, sku: String = "pen") throws -> Draft {
    try #require(Draft(lines: [OrderLine(sku: sku, quantity: quantity, price: 30)], placedAt: time))
  }

  func numbers(_ store: FileOrders) throws -> [Int] {
    var numbers: [Int] = []
    try store.readAll { order in numbers.append(order.number) }
    return numbers
  }

  @Test func numbersContinueAcrossStoresAndRuns() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("deep/er/orders.jsonl")
    let first = try FileOrders(path: path).save([draft(), draft(2)])
    #expect(first.map(\.number) == [1001, 1002])
    let second = try FileOrders(path: path).save([draft(3)])
    #expect(second.map(\.number) == [1003])
    let store = FileOrders(path: path)
    #expect(try numbers(store) == [1001, 1002, 1003])
    #expect(try store.count() == 3)
  }

  @Test func aMissingFileHoldsNoOrders() throws {
    let folder = try TemporaryFolder()
    let store = FileOrders(path: folder.file("none.jsonl"))
    #expect(try store.count() == 0)
    #expect(try numbers(store).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("none.jsonl")))
  }

  @Test func aTornLastLineIsIgnoredByReadersAndCutByTheNextWriter() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft()])
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"number":1002,"items":[{"sku":"#.utf8))
    try handle.close()
    #expect(try numbers(FileOrders(path: path)) == [1001])
    #expect(try FileOrders(path: path).count() == 1)
    #expect(try FileOrders(path: path).save([draft()]).map(\.number) == [1002])
    let lines = try folder.read("orders.jsonl").split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3 && lines[2].isEmpty)
    #expect(try numbers(FileOrders(path: path)) == [1001, 1002])
  }

  @Test func aFileThatIsOnlyATornLineStartsAt1001() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("orders.jsonl", #"{"numb"#)
    #expect(try FileOrders(path: path).save([draft()]).map(\.number) == [1001])
  }

  @Test func aCorruptLastLineRefusesToPlaceAndChangesNothing() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft(), draft()])
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("garbage\n{\"torn".utf8))
    try handle.close()
    let before = try folder.read("orders.jsonl")
    do {
      _ = try FileOrders(path: path).save([draft()])
      Issue.record("placed after a corrupt line")
    } catch let error as FileError {
      guard case .badData(FilePath(path), 3, let reason) = error else {
        Issue.record("wrong error \(error)")
        return
      }
      #expect(reason.contains("last order is unreadable"))
    }
    #expect(try folder.read("orders.jsonl") == before)
  }

  @Test func aCorruptMiddleLineStopsTheListingAtItsLine() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft()])
    let good = try folder.read("orders.jsonl")
    try Data((good + "{\"number\":1002}\n" + good).utf8).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: FileError.badData(FilePath(path), line: 2, reason: "not an order: no \"total\"")
    ) {
      try numbers(FileOrders(path: path))
    }
  }

  @Test func placingReadsOnlyTheEndsOfTheFile() throws {
    // A corrupt line in the middle is invisible to `save`, which reads the first line and the
    // last two: proof that it never reads the whole file.
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft(), draft()])
    let lines = try folder.read("orders.jsonl").split(separator: "\n").map { $0 + "\n" }
    let filler = String(repeating: "x", count: 200_000) + "\n"
    try Data((lines[0] + filler + lines[0] + lines[1]).utf8).write(to: URL(fileURLWithPath: path))
    #expect(try FileOrders(path: path).save([draft()]).map(\.number) == [1003])
  }

  @Test func countChecksTheLastNumberAgainstTheLines() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    _ = try FileOrders(path: path).save([draft(), draft(), draft()])
    let lines = try folder.read("orders.jsonl").split(separator: "\n")
    try Data((lines[0] + "\n" + lines[2] + "\n").utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: FileError.self) { try FileOrders(path: path).count() }
  }

  @Test func threadsWithTheirOwnDescriptorsNeverShareANumber() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("orders.jsonl")
    let failures = Atomic<Int>(0)
    let time = self.time
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      let store = FileOrders(path: path)
      for round in 0..<25 {
        let lines = [OrderLine(sku: "w\(worker)", quantity: round + 1, price: 1)]
        guard let draft = Draft(lines: lines, placedAt: time),
          (try? store.save([draft, draft])) != nil
        else {
          failures.add(1, ordering: .relaxed)
          continue
        }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(try numbers(FileOrders(path: path)) == Array(1001...1400))
  }

  @Test func aFolderThatIsAFileCanNotBeCreated() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("plain", "x")
    let error = #expect(throws: FileError.self) {
      try FileOrders(path: file + "/sub/orders.jsonl").save([draft()])
    }
    guard case .cannotCreateFolder(FilePath(file + "/sub"), let cause) = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(cause.code == ENOTDIR)
    #expect(
      throws: FileError.cannotCreate(FilePath(folder.path), SystemError("open", code: EISDIR))
    ) {
      try FileOrders(path: folder.path).save([draft()])
    }
  }

  @Test(.enabled(if: TinyDisk.canMount, "mounting a tmpfs needs root on Linux"))
  func aFullDiskKeepsEveryEarlierOrderAndLeavesNoPartialLine() throws {
    let disk = try TinyDisk(kilobytes: 16)
    let path = disk.path + "/orders.jsonl"
    let store = FileOrders(path: path)
    var saved: [Int] = []
    var failure: (any Error)?
    for _ in 0..<1000 {
      do {
        saved += try store.save([draft(), draft(), draft()]).map(\.number)
      } catch {
        failure = error
        break
      }
    }
    guard case .cannotWrite(FilePath(path), let error) = failure as? FileError, error.code == ENOSPC
    else {
      Issue.record("expected ENOSPC, got \(String(describing: failure))")
      return
    }
    #expect(!saved.isEmpty)
    let reread = FileOrders(path: path)
    #expect(try numbers(reread) == saved)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes.last == UInt8(ascii: "\n"))
  }
}
