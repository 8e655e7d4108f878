import ShopConventions

/// Creating the folders on the way to a new file.
enum Folders {
  /// Creates `folder` and those on the way to it that are missing, syncing each new
  /// folder's parent so the new entry survives a crash.
  static func make(_ folder: FilePath) throws(FileError) {
    let kind: FileKind?
    do { kind = try System.kind(of: folder) } catch { throw .cannotCreateFolder(folder, error) }
    switch kind {
    case .folder?: return
    case .some: throw .cannotCreateFolder(folder, .notAFolder)
    case nil: break
    }
    let parent = folder.parent
    if parent != folder { try make(parent) }
    do {
      try System.makeFolder(folder)
    } catch  where error.isExisting {
      return
    } catch {
      throw .cannotCreateFolder(folder, error)
    }
    try? System.syncFolder(parent)
  }
}
