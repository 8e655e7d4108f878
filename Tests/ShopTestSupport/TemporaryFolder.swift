import Foundation

/// A private folder, removed when the test ends. Shared by the test targets: every test that
/// touches files works in one of these.
public final class TemporaryFolder {
  /// Where a folder is made.
  public enum Medium {
    /// Shared memory (`/dev/shm`, a tmpfs) where it has room, else the disk: for tests in-process,
    /// which check the bytes of files and the results of calls, none of which depends on the
    /// medium, and would otherwise wait for the disk at every `fsync` (an eighth of their time).
    case memory
    /// The system's temporary folder on its disk: for the real processes of the reliability
    /// suite, which run `shop` where a user's files are.
    case disk
  }

  public let path: String

  public init(on medium: Medium = .memory) throws {
    let base =
      medium == .memory ? TemporaryFolder.memory ?? NSTemporaryDirectory() : NSTemporaryDirectory()
    var template = Array((base + "shop-test-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    path = String(cString: made)
  }

  /// `/dev/shm/` when it has 2 GiB free (the tests' files stay far below that), else nil; a
  /// container's small default `/dev/shm` is passed over.
  private static let memory: String? = {
    #if os(Linux)
      var status = statvfs()
      guard statvfs("/dev/shm", &status) == 0,
        UInt64(status.f_bavail) * UInt64(status.f_frsize) >= 2 << 30,
        access("/dev/shm", W_OK | X_OK) == 0
      else { return nil }
      return "/dev/shm/"
    #else
      return nil
    #endif
  }()

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  public func file(_ name: String) -> String { path + "/" + name }

  public func write(_ name: String, _ text: String) throws -> String {
    let file = file(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  public func read(_ name: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: file(name))), as: UTF8.self)
  }
}

/// Mounts a tmpfs of `kilobytes` for full-disk tests; root only, and unmounted at the end.
public final class TinyDisk {
  public let path: String
  private let folder: TemporaryFolder

  /// Mounting a tmpfs takes Linux and root; elsewhere the tests that need it are skipped.
  public static var canMount: Bool {
    #if os(Linux)
      return getuid() == 0
    #else
      return false
    #endif
  }

  public init(kilobytes: Int, readOnly: Bool = false) throws {
    folder = try TemporaryFolder()
    path = folder.file("disk")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let options = "size=\(kilobytes)k" + (readOnly ? ",ro" : "")
    try TinyDisk.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path])
  }

  deinit {
    try? TinyDisk.run(["umount", path])
  }

  private static func run(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
  }
}
