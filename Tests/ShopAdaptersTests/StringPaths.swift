import ShopAdapters
import ShopConventions

// Tests name their files with `String`s; the adapters take the bytes of a `FilePath`.

extension FileOrders {
  convenience init(path: String) {
    self.init(path: FilePath(path))
  }
}

extension FileCatalog {
  init(path: String) throws(FileError) {
    try self.init(path: FilePath(path))
  }

  init(path: String, contents: [UInt8]) throws(FileError) {
    try self.init(path: FilePath(path), contents: contents)
  }
}

extension BatchInput {
  convenience init(path: String) throws(FileError) {
    try self.init(path: FilePath(path))
  }
}
