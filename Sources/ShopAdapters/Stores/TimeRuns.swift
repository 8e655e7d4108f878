/// Where the times of an orders file's lines go down, as its writers saw them: the file cut
/// into runs whose times never go down, so that a range is found in each run by bisection.
///
/// It is the proof the bisection needs, kept beside the orders (an extended attribute of the
/// file, ``FileOrders/timeOrderAttribute``) and tied to the bytes it describes: the file's
/// device, inode, size and modification time (``FileVersion``). Any write changes the size
/// or the time, so a record that does not match the file as it is now is ignored, and the
/// range is read by a scan. A writer, which already knows each time it appends, extends the
/// record under its lock; one that finds no matching record reads the whole file once and
/// writes it anew. Past ``maximumRuns`` the file is recorded as unordered: every range is a
/// scan, correct at the cost of time.
struct TimeRuns: Equatable {
  /// The file the runs describe, as it was when they were recorded.
  var version: FileVersion
  /// Where each run but the first starts: a line whose time is earlier than the one before.
  private(set) var starts: [Int]
  /// The time of the last line described; nil when there is none.
  private(set) var lastTime: Int64?
  /// More runs than ``maximumRuns``, or a line that is not an order: no bisection is sound.
  private(set) var unordered: Bool

  /// Enough for a few clocks stepped back, not for times in no order at all: a record stays
  /// small (an attribute is read whole by every range) and a range bisects at most this many
  /// runs.
  static let maximumRuns = 256

  static let maximumBytes = 64 + 8 * maximumRuns
  private static let magic = Array("shoptim1".utf8)

  /// An empty file's, or the start of one recorded anew.
  init(version: FileVersion) {
    self.version = version
    self.starts = []
    self.lastTime = nil
    self.unordered = false
  }

  /// A record that matches no file: written before a writer reads the whole file to record
  /// it anew, to learn that it may write one at all.
  static func placeholder(for version: FileVersion) -> TimeRuns {
    var runs = TimeRuns(version: version)
    runs.version = FileVersion(
      identity: version.identity, size: -1, modifiedSeconds: 0, modifiedNanoseconds: 0)
    runs.unordered = true
    return runs
  }

  /// The line at `offset`, after every line described so far, was placed at `time`.
  mutating func append(time: Int64, at offset: Int) {
    if let lastTime, time < lastTime, !unordered {
      if starts.count + 1 < TimeRuns.maximumRuns {
        starts.append(offset)
      } else {
        markUnordered()
      }
    }
    lastTime = time
  }

  /// No bisection is sound in this file (a line that is not an order, or too many runs).
  mutating func markUnordered() {
    unordered = true
    starts = []
  }

  /// The runs of the first `end` bytes, in file order: each a range of offsets from the start
  /// of its first line to the start of the next run (or `end`).
  func runs(upTo end: Int) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    for next in starts where next < end {
      runs.append(start..<next)
      start = next
    }
    if start < end { runs.append(start..<end) }
    return runs
  }

  // MARK: - The attribute's bytes

  /// Little-endian: the magic, the version, the last time, a flag, the count of starts, the
  /// starts, then FNV-1a of all before it.
  var encoded: [UInt8] {
    var bytes = TimeRuns.magic
    func put(_ value: Int64) {
      withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
    put(Int64(bitPattern: version.identity.device))
    put(Int64(bitPattern: version.identity.inode))
    put(Int64(version.size))
    put(version.modifiedSeconds)
    put(version.modifiedNanoseconds)
    put(lastTime ?? .min)
    put(lastTime == nil ? 0 : 1)
    put(unordered ? 1 : 0)
    put(Int64(starts.count))
    for start in starts { put(Int64(start)) }
    put(Int64(bitPattern: TimeRuns.checksum(bytes)))
    return bytes
  }

  /// The record in `bytes`, or nil when they are not one, whole and unchanged.
  init?(decoding bytes: [UInt8]) {
    let header = TimeRuns.magic.count
    guard bytes.count >= header + 10 * 8, bytes.starts(with: TimeRuns.magic),
      (bytes.count - header) % 8 == 0
    else { return nil }
    let words = (bytes.count - header) / 8
    func word(_ index: Int) -> Int64 {
      var value: Int64 = 0
      for byte in bytes[(header + 8 * index)..<(header + 8 * index + 8)].reversed() {
        value = value << 8 | Int64(byte)
      }
      return value
    }
    let count = word(8)
    guard count >= 0, count < TimeRuns.maximumRuns, words == 10 + Int(count),
      UInt64(bitPattern: word(words - 1)) == TimeRuns.checksum(bytes[..<(bytes.count - 8)]),
      word(6) == 0 || word(6) == 1, word(7) == 0 || word(7) == 1
    else { return nil }
    let size = Int(word(2))
    version = FileVersion(
      identity: FileIdentity(
        device: UInt64(bitPattern: word(0)), inode: UInt64(bitPattern: word(1))),
      size: size, modifiedSeconds: word(3), modifiedNanoseconds: word(4))
    lastTime = word(6) == 1 ? word(5) : nil
    unordered = word(7) == 1
    starts = (0..<Int(count)).map { Int(word(9 + $0)) }
    // Runs in file order, each within the file: else the record is not one shop wrote.
    var previous = 0
    for start in starts {
      guard start > previous, start < size else { return nil }
      previous = start
    }
  }

  private static func checksum(_ bytes: some Collection<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }
}
