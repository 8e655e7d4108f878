import ShopConventions
import ShopCore

// Over 300 lines on purpose: the table's bytes, and every rule of when they may be believed
// (header, block checksums, owner and mode), are one layout, best read together.

extension ReferenceIndex {
  /// The hash table's bytes: a mapped file, or memory for one run.
  ///
  /// Layout: a 4 KiB header, `capacity` slots of 16 bytes (a ref's 64-bit hash, never 0, and
  /// the offset of its order's line), then one 8-byte checksum per block of 16 slots. A
  /// block's checksum is the sum of a keyed mix of each non-empty slot's position, hash and
  /// offset under the table's own random salt, kept up to date on each insert: a look-up
  /// checks the blocks it reads, so a "not there" is believed only from blocks that check out
  /// (any one slot changed in any way changes its block's sum; a block from another index has
  /// another salt), and it stays a few reads whatever the size.
  struct Table {
    static let headerBytes = 4096
    static let slotBytes = 16
    static let blockSlots = 16
    static let minimumCapacity = 256
    /// No index is larger: a capacity read from a file is compared with it before any
    /// arithmetic, which so can't overflow.
    static let maximumCapacity = 1 << 40
    static let magic: UInt64 = 0x3346_4552_5053_4853  // "SHSPREF3", little-endian
    /// The magic's first seven bytes, "SHSPREF", shared by every version of the layout.
    private static let family: UInt64 = 0x00FF_FFFF_FFFF_FFFF

    private enum Field: Int {
      case magic = 0
      case capacity = 8
      case count = 16
      case indexedEnd = 24
      case indexedLast = 32
      case indexedLastStart = 40
      case device = 48
      case inode = 56
      case boot = 64
      /// Hashes of the orders file's first line and of the last line the index covers.
      case firstLine = 72
      case lastLine = 80
      /// The key of the block checksums, drawn at random for each new table.
      case salt = 88
      /// The orders file as the index last saw it: its size, and the times a write and any
      /// change last set. An edit in place changes them, where shop's appends are recorded.
      case ordersSize = 96
      case ordersModified = 104
      case ordersChanged = 112
      case checksum = 120
    }

    /// The bytes of a table of `capacity` slots, header and checksums included.
    static func bytes(capacity: Int) -> Int {
      headerBytes + capacity * slotBytes + capacity / blockSlots * 8
    }

    /// Keeps the mapping alive as long as any copy of the table.
    private final class Storage {
      let file: Descriptor?
      let map: MappedFile
      let writable: Bool
      var bytes: UnsafeMutableRawBufferPointer { map.bytes }
      /// One bit a block: set when this process checked the block's sum, or wrote the block
      /// itself, since the index file was last seen as ``sealed`` says. Every store this
      /// process makes keeps a block's sum, so a set bit stays true until another program
      /// writes the file, which changes its times.
      /// A raw buffer, not an array: read on every slot a look-up visits, with no reference
      /// counted or access checked.
      private(set) var verified = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
      /// What `fstat` said of the index file when ``verified`` was last known true; nil for
      /// memory, which no other process can write.
      var sealed: FileDetails?

      init(file: Descriptor?, map: MappedFile, writable: Bool) {
        self.file = file
        self.map = map
        self.writable = writable
      }

      deinit {
        verified.deallocate()
      }

      /// Sets every bit of ``verified`` to `bit`, sized for `blocks` blocks.
      func resetVerified(blocks: Int, to bit: Bool) {
        let words = (blocks + 63) / 64
        if verified.count != words {
          verified.deallocate()
          verified = .allocate(capacity: words)
        }
        verified.initialize(repeating: bit ? .max : 0)
      }
    }

    private let storage: Storage
    /// The index file's identity; nil for a table in memory.
    let identity: FileIdentity?

    private init(storage: Storage, identity: FileIdentity?) {
      self.storage = storage
      self.identity = identity
    }

    /// Whether stores into the table are allowed: memory, or a file mapped to write.
    var writable: Bool { storage.writable }

    private func load(_ field: Field) -> UInt64 {
      storage.bytes.load(fromByteOffset: field.rawValue, as: UInt64.self)
    }

    private func store(_ value: UInt64, _ field: Field) {
      storage.bytes.storeBytes(of: value, toByteOffset: field.rawValue, as: UInt64.self)
    }

    var capacity: Int { Int(truncatingIfNeeded: load(.capacity)) }
    var count: Int { Int(truncatingIfNeeded: load(.count)) }
    var indexedEnd: Int { Int(truncatingIfNeeded: load(.indexedEnd)) }
    var indexedLast: Int { Int(truncatingIfNeeded: load(.indexedLast)) }
    var indexedLastStart: Int { Int(truncatingIfNeeded: load(.indexedLastStart)) }
    var firstLine: UInt64 { load(.firstLine) }
    var lastLine: UInt64 { load(.lastLine) }

    private var checksum: UInt64 {
      Fingerprint.of(
        UnsafeRawBufferPointer(rebasing: storage.bytes[..<Field.checksum.rawValue]))
    }

    /// A well-formed header for a table this size, for this orders file as it is now (its
    /// device, inode, size and times, every line of it covered), written this boot (or synced,
    /// where the system tells no boots apart).
    func trusted(for orders: ReferenceIndex.Orders, boot: UInt64) -> Bool {
      // Sizes from the file are compared, never multiplied, before they are known small.
      let capacity = self.capacity
      guard load(.magic) == Table.magic, load(.checksum) == checksum,
        capacity >= Table.minimumCapacity, capacity <= Table.maximumCapacity,
        capacity & (capacity - 1) == 0, storage.bytes.count == Table.bytes(capacity: capacity),
        count >= 0, count <= capacity / 2, load(.boot) == boot,
        load(.device) == orders.details.identity.device,
        load(.inode) == orders.details.identity.inode,
        load(.ordersSize) == UInt64(truncatingIfNeeded: orders.details.size),
        load(.ordersModified) == orders.details.modified,
        load(.ordersChanged) == orders.details.changed, indexedEnd == orders.end
      else { return false }
      return true
    }

    // MARK: - Slots and blocks

    func slot(_ index: Int) -> (hash: UInt64, offset: Int) {
      let at = Table.headerBytes + index * Table.slotBytes
      return (
        storage.bytes.load(fromByteOffset: at, as: UInt64.self),
        Int(truncatingIfNeeded: storage.bytes.load(fromByteOffset: at + 8, as: UInt64.self))
      )
    }

    /// Whether `block` sums to its checksum, computed once a run unless another program
    /// wrote the file since (``keepVerified()``).
    @inline(__always)
    func check(block: Int) -> Bool {
      if isVerified(block) { return true }
      guard verify(block: block) else { return false }
      let verified = storage.verified
      let word = block >> 6
      if word >= 0, word < verified.count { verified[word] |= 1 << UInt64(block & 63) }
      return true
    }

    @inline(__always)
    func isVerified(_ block: Int) -> Bool {
      let verified = storage.verified
      let word = block >> 6
      return word >= 0 && word < verified.count && verified[word] & (1 << UInt64(block & 63)) != 0
    }

    /// Says every block is known to sum to its checksum: a table this process has just
    /// written whole.
    private func markVerified() {
      storage.resetVerified(blocks: capacity / Table.blockSlots, to: true)
    }

    /// Forgets which blocks were checked unless the index file is as this process last left it
    /// (same times, size, owner and mode): a file another program wrote may have any bytes.
    /// Called under the orders file's lock, before a look-up.
    func keepVerified() {
      guard let file = storage.file else { return }
      let now = try? file.details()
      if now == nil || now != storage.sealed {
        // Sized by the map, not by a capacity read from the file, which may be anything.
        storage.resetVerified(
          blocks: storage.bytes.count / (Table.blockSlots * Table.slotBytes), to: false)
      }
      storage.sealed = now
    }

    /// Records the index file as this process leaves it, after its own writes.
    private func seal() {
      guard let file = storage.file else { return }
      storage.sealed = try? file.details()
    }

    /// What a slot adds to its block's checksum: 0 for an empty one; else a mix, under the
    /// salt, in which changing the hash, the offset or the position alone always changes it.
    private func term(_ index: Int, _ hash: UInt64, _ offset: UInt64) -> UInt64 {
      Table.term(index, hash, offset, salt: load(.salt))
    }

    @inline(__always)
    private static func term(_ index: Int, _ hash: UInt64, _ offset: UInt64, salt: UInt64)
      -> UInt64
    {
      if hash | offset == 0 { return 0 }
      var mixed = (hash &+ offset &* 0x9E37_79B9_7F4A_7C15)
      mixed ^= UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93
      mixed ^= salt
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }

    /// Whether the slots of `block` sum to its checksum. The mapping, salt and capacity are
    /// read once: a batch verifies a block for each ref it looks up.
    func verify(block: Int) -> Bool {
      let bytes = storage.bytes
      let salt = bytes.load(fromByteOffset: Field.salt.rawValue, as: UInt64.self)
      let capacity = Int(
        truncatingIfNeeded: bytes.load(fromByteOffset: Field.capacity.rawValue, as: UInt64.self))
      var sum: UInt64 = 0
      let first = block * Table.blockSlots
      for index in first..<(first + Table.blockSlots) {
        let at = Table.headerBytes + index * Table.slotBytes
        let hash = bytes.load(fromByteOffset: at, as: UInt64.self)
        let offset = bytes.load(fromByteOffset: at + 8, as: UInt64.self)
        sum &+= Table.term(index, hash, offset, salt: salt)
      }
      let checksum = Table.headerBytes + capacity * Table.slotBytes + block * 8
      return sum == bytes.load(fromByteOffset: checksum, as: UInt64.self)
    }

    /// A sum of the first bytes of each cache line of the block that slot `hash` (masked)
    /// falls in, and of its checksum: read only to bring them into the cache.
    /// For a block already checked this run (``check(block:)``), only the slot's own cache
    /// line, the next and the checksum: a look-up or insert reads no more.
    func readAhead(_ hash: Int) -> UInt64 {
      let bytes = storage.bytes
      let capacity = Int(
        truncatingIfNeeded: bytes.load(fromByteOffset: Field.capacity.rawValue, as: UInt64.self))
      let slot = hash & (capacity - 1)
      let block = slot / Table.blockSlots
      if isVerified(block) {
        let at = Table.headerBytes + slot * Table.slotBytes
        let next = Table.headerBytes + ((slot + 4) & (capacity - 1)) * Table.slotBytes
        let checksum = Table.headerBytes + capacity * Table.slotBytes + block * 8
        return bytes.load(fromByteOffset: at, as: UInt64.self)
          &+ bytes.load(fromByteOffset: next, as: UInt64.self)
          &+ bytes.load(fromByteOffset: checksum, as: UInt64.self)
      }
      let start = Table.headerBytes + block * Table.blockSlots * Table.slotBytes
      var sum: UInt64 = 0
      for line in stride(from: 0, to: Table.blockSlots * Table.slotBytes, by: 64) {
        sum &+= bytes.load(fromByteOffset: start + line, as: UInt64.self)
      }
      let checksum = Table.headerBytes + capacity * Table.slotBytes + block * 8
      return sum &+ bytes.load(fromByteOffset: checksum, as: UInt64.self)
    }

    /// What ``insert(_:_:holds:)`` did.
    enum Insertion: Equatable {
      case added
      /// The same hash and offset were there (lines added again after a crash).
      case present
      /// `holds` said the line at this offset, under the same hash, holds the same ref.
      case held(at: Int)
      /// No slot is free, which only a corrupt table can be.
      case full
    }

    /// Adds a slot unless the same one is there, keeping its block's checksum. `holds` is asked
    /// of each other offset under the same hash whether its line holds the same ref.
    func insert(_ hash: UInt64, _ offset: Int, holds: (Int) -> Bool = { _ in false })
      -> Insertion
    {
      let bytes = storage.bytes
      let capacity = self.capacity
      var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
      var probes = 0
      while true {
        let at = Table.headerBytes + index * Table.slotBytes
        let slotHash = bytes.load(fromByteOffset: at, as: UInt64.self)
        if slotHash == 0 { break }
        if slotHash == hash {
          let slotOffset = Int(
            truncatingIfNeeded: bytes.load(fromByteOffset: at + 8, as: UInt64.self))
          if slotOffset == offset { return .present }
          if holds(slotOffset) { return .held(at: slotOffset) }
        }
        probes += 1
        if probes == capacity { return .full }
        index = (index + 1) & (capacity - 1)
      }
      put(hash, offset, at: index)
      return .added
    }

    /// Writes `hash` and `offset` into the free slot `index`, adds its term to its block's sum
    /// and counts it: the one way a slot is filled.
    @inline(__always)
    private func put(_ hash: UInt64, _ offset: Int, at index: Int) {
      let bytes = storage.bytes
      let at = Table.headerBytes + index * Table.slotBytes
      let stored = UInt64(truncatingIfNeeded: offset)
      bytes.storeBytes(of: stored, toByteOffset: at + 8, as: UInt64.self)
      bytes.storeBytes(of: hash, toByteOffset: at, as: UInt64.self)
      let sum = Table.headerBytes + capacity * Table.slotBytes + index / Table.blockSlots * 8
      let salt = bytes.load(fromByteOffset: Field.salt.rawValue, as: UInt64.self)
      bytes.storeBytes(
        of: bytes.load(fromByteOffset: sum, as: UInt64.self)
          &+ Table.term(index, hash, stored, salt: salt),
        toByteOffset: sum, as: UInt64.self)
      store(UInt64(count + 1), .count)
    }

    /// ``insert(_:_:holds:)`` of a slot that a look-up under the same lock, in this table of
    /// this capacity, found free at `hint` (the first free slot after every slot from the
    /// hash's own one): only the slots the group's inserts have since taken are probed again.
    func insert(_ hash: UInt64, _ offset: Int, from hint: Int) -> Insertion {
      let bytes = storage.bytes
      let capacity = self.capacity
      var index = hint & (capacity - 1)
      var probes = 0
      while true {
        let at = Table.headerBytes + index * Table.slotBytes
        let slotHash = bytes.load(fromByteOffset: at, as: UInt64.self)
        if slotHash == 0 { break }
        if slotHash == hash,
          Int(truncatingIfNeeded: bytes.load(fromByteOffset: at + 8, as: UInt64.self)) == offset
        {
          return .present
        }
        probes += 1
        if probes == capacity { return .full }
        index = (index + 1) & (capacity - 1)
      }
      put(hash, offset, at: index)
      return .added
    }

    /// Takes out the slot holding exactly `hash` and `offset`, put by this process since the
    /// last ``finish``: undone newest first, each leaves the table as it was before it went in.
    func remove(_ hash: UInt64, _ offset: Int) {
      let bytes = storage.bytes
      let capacity = self.capacity
      var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
      let stored = UInt64(truncatingIfNeeded: offset)
      for _ in 0..<capacity {
        let at = Table.headerBytes + index * Table.slotBytes
        let slotHash = bytes.load(fromByteOffset: at, as: UInt64.self)
        if slotHash == 0 { return }
        if slotHash == hash, bytes.load(fromByteOffset: at + 8, as: UInt64.self) == stored {
          bytes.storeBytes(of: 0, toByteOffset: at, as: UInt64.self)
          bytes.storeBytes(of: 0, toByteOffset: at + 8, as: UInt64.self)
          let sum = Table.headerBytes + capacity * Table.slotBytes + index / Table.blockSlots * 8
          let salt = bytes.load(fromByteOffset: Field.salt.rawValue, as: UInt64.self)
          bytes.storeBytes(
            of: bytes.load(fromByteOffset: sum, as: UInt64.self)
              &- Table.term(index, hash, stored, salt: salt),
            toByteOffset: sum, as: UInt64.self)
          store(UInt64(count - 1), .count)
          return
        }
        index = (index + 1) & (capacity - 1)
      }
    }

    // MARK: - Finishing

    /// Says the table covers the orders file up to `end`, whose first and last lines hash to
    /// `lines`, as `details` describe it now. Where boots can't be told apart, the slots are
    /// synced before the header says so.
    func finish(
      end: Int, lastStart: Int, last: Int, lines: (first: UInt64, last: UInt64),
      _ details: FileDetails, boot: UInt64
    ) throws(SystemError) {
      if boot == 0, let file = storage.file { try file.sync() }
      store(UInt64(truncatingIfNeeded: end), .indexedEnd)
      store(UInt64(truncatingIfNeeded: lastStart), .indexedLastStart)
      store(UInt64(truncatingIfNeeded: last), .indexedLast)
      store(lines.first, .firstLine)
      store(lines.last, .lastLine)
      store(details.identity.device, .device)
      store(details.identity.inode, .inode)
      store(UInt64(truncatingIfNeeded: details.size), .ordersSize)
      store(details.modified, .ordersModified)
      store(details.changed, .ordersChanged)
      store(boot, .boot)
      store(checksum, .checksum)
      seal()
    }

    /// Makes the header fail its check, so the next use rebuilds the table: for a table found
    /// damaged where it can't be rebuilt at once.
    func spoil() {
      guard writable else { return }
      store(0, .checksum)
    }

    /// Tells the index at `path` that it covers lines appended without refs, rewriting only
    /// its header, read and written without mapping the table: when it covered the orders
    /// file exactly as it was before the append (`before`, whose lines ended at `beforeEnd`),
    /// is this owner's, and may be believed. Any other index is left as it is, to be rebuilt
    /// by the next writer with a ref.
    static func advance(
      at path: FilePath, before: FileDetails, beforeEnd: Int, boot: UInt64,
      to update: (end: Int, lastStart: Int, last: Int, lines: (first: UInt64, last: UInt64)),
      _ after: FileDetails
    ) throws(SystemError) {
      let file: Descriptor
      do { file = try Descriptor.openExisting(path, writable: true) } catch {
        if error.isMissing { return }
        throw error
      }
      let status = try file.details()
      var header = [UInt8](repeating: 0, count: Field.checksum.rawValue + 8)
      guard status.kind == .regular, status.owner == before.owner,
        status.permissions & 0o022 == 0, status.links == 1,
        try file.read(into: &header, 0..<header.count, at: 0) == header.count
      else { return }
      func load(_ field: Field) -> UInt64 {
        header.withUnsafeBytes { $0.load(fromByteOffset: field.rawValue, as: UInt64.self) }
      }
      func store(_ value: UInt64, _ field: Field) {
        header.withUnsafeMutableBytes {
          $0.storeBytes(of: value, toByteOffset: field.rawValue, as: UInt64.self)
        }
      }
      func checksum() -> UInt64 { Fingerprint.of(header[..<Field.checksum.rawValue]) }
      let capacity = Int(truncatingIfNeeded: load(.capacity))
      guard load(.magic) == magic, load(.checksum) == checksum(),
        capacity >= minimumCapacity, capacity <= maximumCapacity,
        capacity & (capacity - 1) == 0, status.size == bytes(capacity: capacity),
        load(.boot) == boot, load(.device) == before.identity.device,
        load(.inode) == before.identity.inode,
        load(.ordersSize) == UInt64(truncatingIfNeeded: before.size),
        load(.ordersModified) == before.modified, load(.ordersChanged) == before.changed,
        load(.indexedEnd) == UInt64(truncatingIfNeeded: beforeEnd)
      else { return }
      store(UInt64(truncatingIfNeeded: update.end), .indexedEnd)
      store(UInt64(truncatingIfNeeded: update.lastStart), .indexedLastStart)
      store(UInt64(truncatingIfNeeded: update.last), .indexedLast)
      store(update.lines.first, .firstLine)
      store(update.lines.last, .lastLine)
      store(UInt64(truncatingIfNeeded: after.size), .ordersSize)
      store(after.modified, .ordersModified)
      store(after.changed, .ordersChanged)
      store(checksum(), .checksum)
      try file.writeAll(header, at: 0)
    }

    // MARK: - Files

    /// An empty table in a new file at `path`, which replaces the index there, readable by
    /// whom `orders` is readable, written only by its owner. A file there or at `PATH.new`
    /// that is no index (an orders file named so) is never removed: the caller keeps the table
    /// in memory instead.
    static func create(at path: FilePath, capacity: Int, like orders: FileDetails)
      throws(SystemError) -> Table
    {
      let new = FilePath(path.bytes + Array(".new".utf8))
      guard try mayReplace(path), try mayReplace(new) else {
        throw .foreignFile
      }
      try System.remove(new)
      let file = try Descriptor.createPrivate(new)
      do {
        try matchPermissions(file, of: orders)
        try file.allocate(size: bytes(capacity: capacity))
        let map = try MappedFile(file, length: bytes(capacity: capacity), writable: true)
        let table = Table(
          storage: Storage(file: file, map: map, writable: true),
          identity: try file.status().identity)
        table.start(capacity: capacity)
        try System.rename(new, to: path)
        table.seal()
        return table
      } catch {
        try? System.remove(new)
        throw error
      }
    }

    /// A table for this run only, in memory that a failed allocation reports (ENOMEM).
    static func inMemory(capacity: Int) throws(SystemError) -> Table {
      let table = Table(
        storage: Storage(
          file: nil, map: try MappedFile(anonymous: bytes(capacity: capacity)), writable: true),
        identity: nil)
      table.start(capacity: capacity)
      return table
    }

    /// A new table's header; its blocks, all empty, sum to their zero checksums.
    private func start(capacity: Int) {
      store(Table.magic, .magic)
      store(UInt64(capacity), .capacity)
      store(UInt64.random(in: 1...UInt64.max), .salt)
      markVerified()
    }

    /// A table twice the size with the same slots and header; a file replaces this one. Every
    /// block is checked as it is copied: a damaged one is `damagedIndex`, never carried over
    /// under fresh checksums.
    func grown(at path: FilePath, like orders: FileDetails) throws(SystemError) -> Table {
      let capacity = self.capacity * 2
      let bigger =
        identity == nil
        ? try Table.inMemory(capacity: capacity)
        : try Table.create(at: path, capacity: capacity, like: orders)
      // Read a chunk at a time and let go of each one read: the old and the new table are
      // never both in memory.
      let chunk = 1 << 16
      for start in stride(from: 0, to: self.capacity, by: chunk) {
        let stop = min(start + chunk, self.capacity)
        // Where these slots go in the new table, which they fill about half: its pages mapped
        // in one call each, not a fault a page.
        for half in [start, start + self.capacity] {
          bigger.storage.map.populate(
            (Table.headerBytes + half * Table.slotBytes)..<(Table.headerBytes
              + (half + stop
                - start) * Table.slotBytes)
          )
        }
        for block in (start / Table.blockSlots)..<(stop / Table.blockSlots)
        where !check(block: block) {
          spoil()
          throw .damagedIndex
        }
        for index in start..<stop {
          let (hash, offset) = slot(index)
          if hash != 0 { _ = bigger.insert(hash, offset) }
        }
        if identity != nil {
          storage.map.release(
            (Table.headerBytes + start * Table.slotBytes)..<(Table.headerBytes + stop
              * Table.slotBytes))
        }
      }
      for field in [
        Field.indexedEnd, .indexedLast, .indexedLastStart, .device, .inode, .boot, .firstLine,
        .lastLine, .ordersSize, .ordersModified, .ordersChanged,
      ] {
        bigger.store(load(field), field)
      }
      bigger.store(bigger.checksum, .checksum)
      bigger.seal()
      return bigger
    }

    /// Whether the file at `path` may be removed or replaced by an index: none is there, or an
    /// empty one, or an index of any version, or the zeros a creation cut short leaves, in a
    /// table's size. Anything else, a symbolic link too, is someone else's file.
    static func mayReplace(_ path: FilePath) throws(SystemError) -> Bool {
      // A link, even to nothing, is someone's: replacing it or writing through it is not ours.
      guard try !System.isLink(path) else { return false }
      let file: Descriptor
      do { file = try Descriptor.open(path, .read) } catch {
        if error.isMissing { return true }
        throw error
      }
      let status = try file.status()
      guard status.kind == .regular else { return false }
      if status.size == 0 { return true }
      guard status.size > headerBytes, (status.size - headerBytes) % slotBytes == 0 else {
        return false
      }
      var first = [UInt8](repeating: 0, count: 8)
      guard try file.read(into: &first, 0..<8, at: 0) == 8 else { return false }
      let value = first.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return value == 0 || value & family == magic & family
    }

    /// Opens the table at `path` to look up in, or nil when there is none that may be
    /// believed: missing, not a regular file, of no table's size, or one that someone other
    /// than `orders`' owner could have written (another owner, writable by its group or by
    /// others, or a second name, a hard link, that may be in a folder others write), checked on
    /// the descriptor mapped, so a file swapped in at the path after the open is never the one
    /// judged. A map that fails for want of memory is an error, never a missing index.
    static func open(at path: FilePath, writable: Bool, owner: UInt32) throws(SystemError)
      -> Table?
    {
      guard let file = try? Descriptor.openExisting(path, writable: writable),
        let status = try? file.details(), status.kind == .regular,
        status.size > headerBytes, (status.size - headerBytes) % slotBytes == 0,
        status.owner == owner, status.permissions & 0o022 == 0, status.links == 1
      else { return nil }
      let map: MappedFile
      do { map = try MappedFile(file, length: status.size, writable: writable) } catch {
        if error.isOutOfMemory { throw error }
        return nil
      }
      let table = Table(
        storage: Storage(file: file, map: map, writable: writable), identity: status.identity)
      // Nothing checked yet: every block is summed on its first look-up.
      table.keepVerified()
      return table
    }

    /// Gives the open index the orders file's readers: its read bits, its group when that
    /// can be had (else no group may read), write for the owner only.
    func matchPermissions(of orders: FileDetails) throws(SystemError) {
      guard let file = storage.file, writable else { return }
      try Table.matchPermissions(file, of: orders)
    }

    private static func matchPermissions(_ file: Descriptor, of orders: FileDetails)
      throws(SystemError)
    {
      let current = try file.details()
      var group = current.group
      if group != orders.group, (try? file.setGroup(orders.group)) != nil { group = orders.group }
      var wanted = 0o600 | (orders.permissions & 0o044)
      if group != orders.group { wanted &= ~0o040 }
      if current.permissions != wanted { try file.setPermissions(wanted) }
    }
  }
}
