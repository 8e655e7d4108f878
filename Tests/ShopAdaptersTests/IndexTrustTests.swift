import Foundation
import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

#if canImport(Glibc)
  import Glibc
#endif

/// The orders are the truth: whatever happens to the index beside them (a bit, a slot, its
/// length, another file's index, another owner, a mode, a hard link, an edit of the orders
/// file in place), placing a ref again finds the order that holds it, and a store never holds
/// a ref twice.
struct IndexTrustTests {
  let time = Timestamp(secondsSince1970: 1_796_018_803)

  func draft(_ ref: String) throws -> Draft {
    try #require(
      Draft(
        lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time,
        reference: Reference(ref)))
  }

  /// Every ref placed again: each is already placed, and the file is unchanged.
  func placeAgain(_ refs: [String], in path: String) throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let again = try FileOrders(path: path).place(refs.map { try draft($0) })
    for (ref, placement) in zip(refs, again) {
      guard case .alreadyPlaced = placement else {
        Issue.record("\(ref): \(placement)")
        continue
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "nothing written")
    #expect(try OrdersFile.refsPlacedOnce(path, refs) == nil)
  }

  func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func write(_ bytes: [UInt8], _ path: String) throws {
    // In place, as `dd conv=notrunc` writes: the same inode, owner and mode.
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
  }

  /// The slots (index, first byte) of a table whose hash is not 0.
  func usedSlots(_ index: [UInt8]) -> [Int] {
    let capacity = index[8..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    return (0..<capacity).filter { slot in
      let at = 4096 + slot * 16
      return index[at..<(at + 8)].contains { $0 != 0 }
    }
  }

  // MARK: - Bits and slots

  /// The issue's first reproduction, for every bit of the hash and the offset of several
  /// slots: the block's checksum no longer holds, the index is rebuilt, the ref is found.
  @Test(arguments: [0, 1, 2])
  func aFlippedBitInASlotNeverLetsARefBePlacedTwice(which: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    let refs = (1...40).map { "w-\($0)" }
    _ = try FileOrders(path: path).place(refs.map { try draft($0) })
    let good = try bytes(path + ".refs")
    let slots = usedSlots(good)
    let slot = slots[which * slots.count / 3]
    for bit in 0..<128 {
      var damaged = good
      damaged[4096 + slot * 16 + bit / 8] ^= 1 << (bit % 8)
      try write(damaged, path + ".refs")
      try placeAgain(refs, in: path)
    }
  }

  enum SlotDamage: String, CaseIterable {
    case zeroed, swapped, copiedOver, checksumFlipped, hashOfAnother, salted
  }

  @Test(arguments: SlotDamage.allCases)
  func aSlotChangedAnyWayIsNeverBelieved(damage: SlotDamage) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    let refs = (1...120).map { "s-\($0)" }
    _ = try FileOrders(path: path).place(refs.map { try draft($0) })
    var index = try bytes(path + ".refs")
    let slots = usedSlots(index)
    let (a, b) = (4096 + slots[3] * 16, 4096 + slots[70] * 16)
    switch damage {
    case .zeroed: index.replaceSubrange(a..<(a + 16), with: [UInt8](repeating: 0, count: 16))
    case .swapped:
      let first = Array(index[a..<(a + 16)])
      index.replaceSubrange(a..<(a + 16), with: index[b..<(b + 16)])
      index.replaceSubrange(b..<(b + 16), with: first)
    case .copiedOver: index.replaceSubrange(a..<(a + 16), with: index[b..<(b + 16)])
    case .checksumFlipped: index[4096 + 256 * 16 + slots[3] / 16 * 8] ^= 0x10
    case .hashOfAnother:
      // The hash of a ref the file does not hold, at a used slot: that ref looks absent.
      let other = try #require(Reference("nowhere")).fingerprint
      withUnsafeBytes(of: other.littleEndian) { index.replaceSubrange(a..<(a + 8), with: $0) }
    case .salted: index[88] ^= 1  // The salt, under the header's checksum.
    }
    try write(index, path + ".refs")
    try placeAgain(refs, in: path)
  }

  // MARK: - Its length, another file's index

  enum FileDamage: String, CaseIterable {
    case cutToTheHeader, cutMidSlots, cutMidChecksums, extendedByZeros, extendedByABlock
    case anotherStoresIndex, anotherStoresBlocks, anOlderCopy
  }

  @Test(arguments: FileDamage.allCases)
  func anIndexOfAnotherLengthOrAnotherFileIsNeverBelieved(damage: FileDamage) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    let refs = (1...100).map { "f-\($0)" }
    _ = try FileOrders(path: path).place(refs.prefix(10).map { try draft($0) })
    let older = try bytes(path + ".refs")
    _ = try FileOrders(path: path).place(refs.dropFirst(10).map { try draft($0) })
    // Another store of the same size, whose refs are others.
    let other = folder.file("other.jsonl")
    _ = try FileOrders(path: other).place(refs.map { try draft("x" + $0) })
    var index = try bytes(path + ".refs")
    let otherIndex = try bytes(other + ".refs")
    let slotsEnd = 4096 + 256 * 16
    switch damage {
    case .cutToTheHeader: index = Array(index.prefix(4096))
    case .cutMidSlots: index = Array(index.prefix(4096 + 100 * 16))
    case .cutMidChecksums: index = Array(index.prefix(slotsEnd + 64))
    case .extendedByZeros: index += [UInt8](repeating: 0, count: 4096)
    case .extendedByABlock: index += index[4096..<(4096 + 256)]
    case .anotherStoresIndex: index = otherIndex
    case .anotherStoresBlocks:
      // The other store's slots and checksums under this header: another salt.
      index.replaceSubrange(4096..<index.count, with: otherIndex[4096...])
    case .anOlderCopy: index = older
    }
    let current = try bytes(path + ".refs")
    #expect(index != current)
    try write(index, path + ".refs")
    try placeAgain(refs, in: path)
    var number: Int?
    _ = try FileOrders(path: path).order(referenced: try #require(Reference("f-100"))) {
      number = $0.number
    }
    #expect(number == 1100)
  }

  // MARK: - Who may write it

  /// An index that says "complete, no refs" for the orders file as it is now, as the issue's
  /// second reproduction forges it: only its owner and mode tell it from a true one.
  func forgeEmptyIndex(at index: String, for orders: String) throws {
    let file = try #require(try LineFile.openToRead(FilePath(orders), lineBound: 1 << 26))
    let details = try file.details()
    let end = details.size
    let lastStart = try file.newline(before: end - 1).map { $0 + 1 } ?? 0
    let ordersValue = ReferenceIndex.Orders(file: file, details: details, end: end, writable: false)
    let lines = try ReferenceIndex(orders: FilePath(orders)).fingerprints(
      end: end, lastStart: lastStart, ordersValue)
    let last = try OrdersFile.numbers(orders).last ?? 0
    try? FileManager.default.removeItem(atPath: index)
    let table = try ReferenceIndex.Table.create(
      at: FilePath(index), capacity: 256, like: details)
    try table.finish(
      end: end, lastStart: lastStart, last: last, lines: lines, details,
      boot: System.bootIdentity().map { Fingerprint.of($0) } ?? 0)
  }

  enum Writer: String, CaseIterable {
    case groupWritable, worldWritable, hardLinked, symbolicLink, anotherOwner
  }

  /// The forged index is believed only as its owner's and writable by nobody else: made
  /// writable by others, hard-linked, reached through a symbolic link or owned by another
  /// user (root only), it is rebuilt or kept in memory, and every ref is found.
  @Test(arguments: Writer.allCases)
  func anIndexOthersMayWriteIsNeverBelieved(writer: Writer) throws {
    if writer == .anotherOwner && getuid() != 0 { return }  // chown takes root.
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    let refs = ["w-1", "w-2", "w-3"]
    _ = try FileOrders(path: path).place(refs.map { try draft($0) })
    let index = path + ".refs"
    try forgeEmptyIndex(at: index, for: path)
    // The forgery is good: as its owner's, private, it would be believed.
    let orders = try #require(try LineFile.openToRead(FilePath(path), lineBound: 1 << 26))
    let details = try orders.details()
    let forged = try #require(
      try ReferenceIndex.Table.open(at: FilePath(index), writable: false, owner: details.owner))
    #expect(
      forged.trusted(
        for: .init(file: orders, details: details, end: details.size, writable: false),
        boot: System.bootIdentity().map { Fingerprint.of($0) } ?? 0))
    switch writer {
    case .groupWritable: #expect(chmod(index, 0o664) == 0)
    case .worldWritable: #expect(chmod(index, 0o646) == 0)
    case .hardLinked: #expect(link(index, folder.file("elsewhere")) == 0)
    case .symbolicLink:
      try FileManager.default.moveItem(atPath: index, toPath: folder.file("forged"))
      try FileManager.default.createSymbolicLink(
        atPath: index, withDestinationPath: folder.file("forged"))
    case .anotherOwner: #expect(chown(index, 4242, 4242) == 0)
    }
    try placeAgain(refs, in: path)
    var number: Int?
    _ = try FileOrders(path: path).order(referenced: try #require(Reference("w-3"))) {
      number = $0.number
    }
    #expect(number == 1003)
  }

  /// The issue's second reproduction: in a sticky shared folder, another user's empty index
  /// is there first, and after a batch it is replaced by a forgery. Root only (chown).
  @Test func anotherUsersIndexInAStickyFolderNeverPlacesARefTwice() throws {
    guard getuid() == 0 else { return }
    let folder = try TemporaryFolder()
    let shared = folder.file("shared")
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    #expect(chmod(shared, 0o1777) == 0)
    let path = shared + "/o.jsonl"
    let index = path + ".refs"
    #expect(FileManager.default.createFile(atPath: index, contents: Data()))
    #expect(chown(index, 4242, 4242) == 0)
    _ = try FileOrders(path: path).place([draft("w-1"), draft("w-2")])
    try forgeEmptyIndex(at: index, for: path)
    #expect(chown(index, 4242, 4242) == 0)
    try placeAgain(["w-1", "w-2"], in: path)
  }

  /// An index replaced at its path after a store opened it: the store sees another file,
  /// judges that one, and believes it only as it would any other.
  @Test func anIndexReplacedWhileAStoreHoldsItIsJudgedAgain() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    let store = FileOrders(path: path)
    _ = try store.place([draft("w-1"), draft("w-2")])
    let elsewhere = folder.file("forged.refs")
    try forgeEmptyIndex(at: elsewhere, for: path)
    #expect(chmod(elsewhere, 0o666) == 0)
    _ = rename(elsewhere, path + ".refs")
    let again = try store.place([draft("w-2")])
    #expect(again.map(\.order.number) == [1002])
    #expect(try OrdersFile.refsPlacedOnce(path, ["w-1", "w-2"]) == nil)
  }

  // MARK: - Its permissions

  /// The index is readable by whom the orders file is, and written by its owner only: made
  /// so, and narrowed by the next writer when the orders file's mode changes (the issue's
  /// sixth reproduction: a private orders file and a world-readable index).
  @Test(arguments: [0o600, 0o640, 0o644, 0o664, 0o666, 0o400])
  func theIndexTakesTheOrdersFilesReaders(mode: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    _ = try FileOrders(path: path).place([draft("secret-order-41")])
    try FileManager.default.removeItem(atPath: path + ".refs")
    #expect(chmod(path, mode_t(mode)) == 0)
    func indexMode() throws -> Int {
      try #require(
        FileManager.default.attributesOfItem(atPath: path + ".refs")[.posixPermissions] as? Int)
    }
    let wanted = 0o600 | (mode & 0o044)
    if mode & 0o200 != 0 || getuid() == 0 {
      _ = try FileOrders(path: path).place([draft("secret-order-42")])
      #expect(try indexMode() == wanted, "made")
      // Left wider by an older shop: narrowed by the next writer.
      #expect(chmod(path + ".refs", 0o644) == 0)
      _ = try FileOrders(path: path).place([draft("secret-order-43")])
      #expect(try indexMode() == wanted, "narrowed")
      try placeAgain(["secret-order-41", "secret-order-42", "secret-order-43"], in: path)
    }
  }

  // MARK: - The orders file edited in place

  enum Editor: String, CaseIterable {
    /// The issue's third reproduction: a script that rewrites the file, same inode and size.
    case rewrite
    /// One byte written over, as `dd conv=notrunc` does.
    case byteInPlace
    /// An edit, then the file's modification time set back (`touch -r`): its change time
    /// still moves.
    case timesRestored
    /// An edit, then an order appended by another program.
    case editedThenAppended
    /// An edit of a line the index covers, the first line and the last left as they were.
    case middleLineOnly
  }

  @Test(arguments: Editor.allCases)
  func anOrdersFileEditedInPlaceIsSeen(editor: Editor) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    _ = try FileOrders(path: path).place((1...5).map { try draft("web-\($0)") })
    // Times are read back before the edit, as a user's shell would a moment later.
    var before = stat()
    #expect(stat(path, &before) == 0)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    let at = try #require(text.range(of: #""ref":"web-2""#))
    text.replaceSubrange(at, with: #""ref":"web-9""#)
    switch editor {
    case .rewrite, .middleLineOnly, .timesRestored: try write(Array(text.utf8), path)
    case .byteInPlace:
      let handle = try #require(FileHandle(forUpdatingAtPath: path))
      let file = try bytes(path)
      let offset = try #require(
        (0..<(file.count - 5)).first { Array(file[$0..<($0 + 5)]) == Array("web-2".utf8) })
      try handle.seek(toOffset: UInt64(offset + 4))
      try handle.write(contentsOf: Data("9".utf8))
      try handle.close()
    case .editedThenAppended:
      try write(Array(text.utf8), path)
      let lines = text.split(separator: "\n")
      let appended = lines[4].replacingOccurrences(of: "1005", with: "1006")
        .replacingOccurrences(of: "web-5", with: "web-6")
      try write(Array((text + appended + "\n").utf8), path)
    }
    if editor == .timesRestored {
      var times = [before.st_atim, before.st_mtim]
      #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }
    let placed = try FileOrders(path: path).place([draft("web-9")])
    #expect(placed.map(\.order.number) == [1002], "\(editor)")
    guard case .alreadyPlaced = placed.first else {
      Issue.record("\(editor): \(placed)")
      return
    }
  }

  /// A store that holds a ref twice (an edit, an older shop) is refused at the second line by
  /// every command that meets it, with the index current before the edit or none.
  @Test(arguments: [true, false])
  func aStoreHoldingARefTwiceIsRefusedAtItsLine(indexed: Bool) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    _ = try FileOrders(path: path).place((1...5).map { try draft("web-\($0)") })
    let text = try String(contentsOfFile: path, encoding: .utf8)
      .replacingOccurrences(of: #""ref":"web-4""#, with: #""ref":"web-1""#)
    try write(Array(text.utf8), path)
    if !indexed { try FileManager.default.removeItem(atPath: path + ".refs") }
    let reason = "ref web-1 is held twice, here and on line 1: a store holds each ref at most once"
    for ref in ["web-1", "web-3", "new"] {
      #expect(throws: FileError.badData(FilePath(path), line: 4, reason: reason), "\(ref)") {
        try FileOrders(path: path).order(referenced: try #require(Reference(ref))) { _ in }
      }
      #expect(throws: FileError.badData(FilePath(path), line: 4, reason: reason), "\(ref)") {
        try FileOrders(path: path).place([draft(ref)])
      }
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "nothing written")
  }

  // MARK: - Writers without refs keep it current

  /// Orders without refs between orders with refs: the index follows them, so it is not
  /// rebuilt; and one appended by another program makes it stale, so it is.
  @Test func writersWithoutRefsKeepTheIndexCurrent() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("o.jsonl")
    let plain = try #require(
      Draft(lines: [OrderLine(sku: "pen", quantity: 1, price: 30)], placedAt: time))
    _ = try FileOrders(path: path).place([draft("a")])
    func inode() throws -> Int {
      try #require(
        FileManager.default.attributesOfItem(atPath: path + ".refs")[.systemFileNumber] as? Int)
    }
    let first = try inode()
    _ = try FileOrders(path: path).save([plain, plain])
    _ = try FileOrders(path: path).place([draft("b")])
    #expect(try inode() == first, "not rebuilt")
    // Another program appends: the index is rebuilt (a new file), and still right.
    let line = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")[3]
    let appended = line.replacingOccurrences(of: "1004", with: "1005")
      .replacingOccurrences(of: #""ref":"b""#, with: #""ref":"c""#)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((appended + "\n").utf8))
    try handle.close()
    try placeAgain(["a", "b", "c"], in: path)
    #expect(try inode() != first, "rebuilt")
  }
}
