import Foundation

/// The package's own folder, for the tests that read its documents or run `make` there.
public enum SourceTree {
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  public static func readme() throws -> String {
    try document("README.md")
  }

  /// A file of the source tree, by its path from the package's folder (`docs/commands.md`).
  public static func document(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }
}
