import ShopConventions

/// Opening a line file: to read what is there, or to append, creating it and its folders
/// only when they are missing.
extension LineFile {
  /// Opens the file at `path` to read; nil when it does not exist.
  static func openToRead(_ path: FilePath, lineBound: Int) throws(FileError) -> LineFile? {
    do {
      return LineFile(
        path: path, descriptor: try Descriptor.open(path, .read), lineBound: lineBound)
    } catch  where error.isMissing {
      return nil
    } catch {
      throw .unreadable(path, error)
    }
  }

  /// Opens the file at `path` to append: the usual case, an existing file, costs one `open`.
  static func openToAppend(_ path: FilePath, lineBound: Int) throws(FileError) -> LineFile {
    let file: Descriptor
    do {
      file = try Descriptor.open(path, .append)
    } catch  where error.isMissing || error.isNotAFolder {
      try Folders.make(path.parent)
      do throws(SystemError) {
        do {
          file = try Descriptor.open(path, .createNew)
        } catch  where error.isExisting {
          // Another process created it first, or the path is a symbolic link to a file that
          // does not exist yet, which O_EXCL will not follow.
          do {
            file = try Descriptor.open(path, .append)
          } catch  where error.isMissing {
            file = try Descriptor.open(path, .createThroughLink)
          }
        }
      } catch {
        throw .cannotCreate(path, error)
      }
    } catch {
      throw .cannotCreate(path, error)
    }
    return LineFile(path: path, descriptor: file, lineBound: lineBound)
  }
}
