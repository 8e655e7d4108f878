import ShopAdapters
import ShopCommandLine
import ShopConventions

/// Keeps everything shop prints out of every orders file it may be pointed at: not a report,
/// a listing, a help or an explanation (`shop orders --explain >> orders.jsonl`), and not an
/// error (`2>> orders.jsonl`). The files are the one the environment alone names (the store of
/// every command without `--orders`, even when this one uses another or `--memory`), any
/// file the command line gives to `--orders`, read or not (`--help` reads no store), and the
/// store the root chose, once it has chosen.
final class OrdersFileGuard {
  private var files: [FilePath]
  private let streams: StandardStreams

  /// The files known before the command line is parsed: the environment's store, and every
  /// value the arguments give `--orders`.
  init(_ usualStore: Chosen<StoreSource>, arguments: [[UInt8]], streams: StandardStreams) {
    files = [usualStore.value.path].compactMap { $0 }
    files += CommandLineDescription.shop.values(of: .orders, in: arguments).map(FilePath.init)
    self.streams = streams
  }

  /// Adds the store chosen, if it is a file, and refuses to run when standard output or error
  /// writes to any of the files.
  func check(adding store: Chosen<StoreSource>? = nil) throws(FileError) {
    if let path = store?.value.path { files.append(path) }
    for path in files {
      if let stream = streams.stream(writingTo: path) {
        throw FileError.sharedWithStream(path, stream: stream.name)
      }
    }
  }

  /// Whether an error may be printed: not when standard error writes to an orders file.
  var errorsMayBePrinted: Bool { !files.contains { streams.writes(.errors, to: $0) } }
}
