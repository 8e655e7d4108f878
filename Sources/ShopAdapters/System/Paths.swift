import ShopConventions

// The calls on paths: where one leads, folders, renames and removals.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension System {
  // MARK: Where a path leads (for FileOrders: the folder a new file's entry is in)

  /// The absolute path `path` names with every symbolic link followed (`realpath`); nil when
  /// nothing is there.
  static func resolvedPath(_ path: FilePath) throws(SystemError) -> FilePath? {
    guard !path.bytes.contains(0) else { throw .notAPath }
    guard let resolved = path.withCString({ realpath($0, nil) }) else {
      if errno == ENOENT { return nil }
      throw SystemError("realpath")
    }
    defer { free(resolved) }
    let raw = UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self)
    return FilePath(Array(UnsafeBufferPointer(start: raw, count: strlen(resolved))))
  }

  static func makeFolder(_ path: FilePath) throws(SystemError) {
    guard !path.bytes.contains(0) else { throw .notAPath }
    _ = try retrying("mkdir") { path.withCString { mkdir($0, 0o755) } }
  }

  /// Makes a folder's entries durable: a new file, or a new folder, survives a power cut
  /// only once its folder is synced.
  static func syncFolder(_ path: FilePath) throws(SystemError) {
    guard !path.bytes.contains(0) else { throw .notAPath }
    let raw = try retrying("open") {
      path.withCString { systemOpen($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
    }
    let folder = Descriptor(raw: raw, owned: true)
    try folder.sync()
  }

  /// Moves `from` over `to` in one step: a reader finds either file whole.
  static func rename(_ from: FilePath, to: FilePath) throws(SystemError) {
    guard !from.bytes.contains(0), !to.bytes.contains(0) else { throw .notAPath }
    let result = from.withCString { old in to.withCString { new in systemRename(old, new) } }
    guard result == 0 else { throw SystemError("rename") }
  }

  /// Removes the file at `path`; nothing there is no error.
  static func remove(_ path: FilePath) throws(SystemError) {
    guard !path.bytes.contains(0) else { throw .notAPath }
    guard path.withCString({ unlink($0) }) == 0 || errno == ENOENT else {
      throw SystemError("unlink")
    }
  }
}
