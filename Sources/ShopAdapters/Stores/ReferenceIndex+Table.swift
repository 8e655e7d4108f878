import ShopCore

extension ReferenceIndex {
  /// The hash table's bytes: a mapped file, or memory for one run.
  struct Table {
    static let headerBytes = 4096
    static let slotBytes = 16
    static let minimumCapacity = 256
    static let magic: UInt64 = 0x3246_4552_5053_4853  // "SHSPREF2", little-endian
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
      /// Hashes of the orders file's first line and of the last line the index covers: with
      /// its device and inode, what tells it from another file that took its inode.
      case firstLine = 72
      case lastLine = 80
      case checksum = 88
    }

    /// Keeps the mapping or the memory alive as long as any copy of the table.
    private final class Storage {
      let file: Descriptor?
      let map: MappedFile?
      let bytes: UnsafeMutableRawBufferPointer

      init(file: Descriptor, map: MappedFile) {
        self.file = file
        self.map = map
        self.bytes = map.bytes
      }

      init(memory count: Int) {
        file = nil
        map = nil
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
      }

      deinit {
        if map == nil { bytes.deallocate() }
      }
    }

    private let storage: Storage
    /// The index file's identity; nil for a table in memory.
    let identity: FileIdentity?

    private init(storage: Storage, identity: FileIdentity?) {
      self.storage = storage
      self.identity = identity
    }

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
      Reference.fingerprint(
        UnsafeRawBufferPointer(rebasing: storage.bytes[..<Field.checksum.rawValue]))
    }

    /// A well-formed header for a table this size, for this orders file, written this boot
    /// (or synced, where the system tells no boots apart).
    func trusted(for orders: ReferenceIndex.Orders, boot: UInt64) -> Bool {
      // Sizes from the file are compared, never multiplied: a corrupt one must not overflow.
      let capacity = self.capacity
      let slots = (storage.bytes.count - Table.headerBytes) / Table.slotBytes
      guard load(.magic) == Table.magic, load(.checksum) == checksum,
        capacity >= Table.minimumCapacity, capacity == slots, capacity & (capacity - 1) == 0,
        count >= 0, count <= capacity / 2, load(.boot) == boot,
        identity == nil
          || (load(.device) == orders.identity.device && load(.inode) == orders.identity.inode)
      else { return false }
      return true
    }

    func slot(_ index: Int) -> (hash: UInt64, offset: Int) {
      let at = Table.headerBytes + index * Table.slotBytes
      return (
        storage.bytes.load(fromByteOffset: at, as: UInt64.self),
        Int(truncatingIfNeeded: storage.bytes.load(fromByteOffset: at + 8, as: UInt64.self))
      )
    }

    /// Adds a slot unless the same one is there (lines added again after a crash).
    /// - Returns: false when no slot is free, which only a corrupt table can be.
    @discardableResult
    func insert(_ hash: UInt64, _ offset: Int) -> Bool {
      var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
      var probes = 0
      while true {
        let (slotHash, slotOffset) = slot(index)
        if slotHash == 0 { break }
        if slotHash == hash && slotOffset == offset { return true }
        probes += 1
        if probes == capacity { return false }
        index = (index + 1) & (capacity - 1)
      }
      let at = Table.headerBytes + index * Table.slotBytes
      storage.bytes.storeBytes(
        of: UInt64(truncatingIfNeeded: offset), toByteOffset: at + 8, as: UInt64.self)
      storage.bytes.storeBytes(of: hash, toByteOffset: at, as: UInt64.self)
      store(UInt64(count + 1), .count)
      return true
    }

    /// Says the table covers the orders file up to `end`, whose first and last lines hash to
    /// `lines`. Where boots can't be told apart, the slots are synced before the header says
    /// so.
    func finish(
      end: Int, lastStart: Int, last: Int, lines: (first: UInt64, last: UInt64),
      _ orders: ReferenceIndex.Orders, boot: UInt64
    ) throws(SystemError) {
      if boot == 0, let file = storage.file { try file.sync() }
      store(UInt64(truncatingIfNeeded: end), .indexedEnd)
      store(UInt64(truncatingIfNeeded: lastStart), .indexedLastStart)
      store(UInt64(truncatingIfNeeded: last), .indexedLast)
      store(lines.first, .firstLine)
      store(lines.last, .lastLine)
      store(orders.identity.device, .device)
      store(orders.identity.inode, .inode)
      store(boot, .boot)
      store(checksum, .checksum)
    }

    /// An empty table in a new file at `path`, which replaces the index there. A file there
    /// or at `PATH.new` that is no index (an orders file named so) is never removed: the
    /// caller keeps the table in memory instead.
    static func create(at path: FilePath, capacity: Int) throws(SystemError) -> Table {
      let new = FilePath(path.bytes + Array(".new".utf8))
      guard try mayReplace(path), try mayReplace(new) else {
        throw .foreignFile
      }
      try System.remove(new)
      let file = try Descriptor.openInPlace(new)
      do {
        try file.allocate(size: headerBytes + capacity * slotBytes)
        let table = Table(
          storage: Storage(
            file: file,
            map: try MappedFile(file, length: headerBytes + capacity * slotBytes, writable: true)),
          identity: try file.status().identity)
        table.store(magic, .magic)
        table.store(UInt64(capacity), .capacity)
        try System.rename(new, to: path)
        return table
      } catch {
        try? System.remove(new)
        throw error
      }
    }

    static func inMemory(capacity: Int) -> Table {
      let table = Table(
        storage: Storage(memory: headerBytes + capacity * slotBytes), identity: nil)
      table.store(magic, .magic)
      table.store(UInt64(capacity), .capacity)
      return table
    }

    /// A table twice the size with the same slots and header; a file replaces this one.
    func grown(at path: FilePath) throws(SystemError) -> Table {
      let capacity = self.capacity * 2
      let bigger =
        identity == nil
        ? Table.inMemory(capacity: capacity) : try Table.create(at: path, capacity: capacity)
      // Read a chunk at a time and let go of each one read: the old and the new table are
      // never both in memory.
      let chunk = 1 << 16
      for start in stride(from: 0, to: self.capacity, by: chunk) {
        for index in start..<min(start + chunk, self.capacity) {
          let (hash, offset) = slot(index)
          if hash != 0 { bigger.insert(hash, offset) }
        }
        storage.map?.release(
          (Table.headerBytes + start * Table.slotBytes)..<min(
            storage.bytes.count, Table.headerBytes + (start + chunk) * Table.slotBytes))
      }
      for field in [
        Field.indexedEnd, .indexedLast, .indexedLastStart, .device, .inode, .boot, .firstLine,
        .lastLine,
      ] {
        bigger.store(load(field), field)
      }
      bigger.store(bigger.checksum, .checksum)
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

    /// Opens the table at `path`, or nil when there is none of the right size.
    static func open(at path: FilePath, writable: Bool) -> Table? {
      guard let file = try? writable ? Descriptor.openInPlace(path) : Descriptor.open(path, .read),
        let status = try? file.status(), status.kind == .regular,
        status.size > headerBytes, (status.size - headerBytes) % slotBytes == 0,
        let map = try? MappedFile(file, length: status.size, writable: writable)
      else { return nil }
      return Table(storage: Storage(file: file, map: map), identity: status.identity)
    }
  }
}
