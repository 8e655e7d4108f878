/// How this binary was built, for `shop --version`: a bug report needs to know whether the
/// binary can use PostgreSQL and whether it is the fast release build.
package struct BuildInfo: Equatable, Sendable {
  enum Configuration: String, Sendable {
    case release
    case debug
  }

  var configuration: Configuration
  /// `--orders postgresql://...` works, given libpq (Debian's libpq5), which this binary loads
  /// only for such a store.
  var postgreSQL: Bool

  /// This binary, as the compiler saw it (SwiftPM defines DEBUG in debug builds of every
  /// target). Every build can use PostgreSQL: libpq is declared by shop and loaded at run time.
  package static let current: BuildInfo = {
    #if DEBUG
      let configuration = Configuration.debug
    #else
      let configuration = Configuration.release
    #endif
    return BuildInfo(configuration: configuration, postgreSQL: true)
  }()

  /// `shop 0.1.0 (release, PostgreSQL: no)`, newline not included.
  package func versionLine(program: String, version: String) -> String {
    "\(program) \(version) (\(configuration.rawValue), PostgreSQL: \(postgreSQL ? "yes" : "no"))"
  }

  /// What `--version` prints for a described program, newline included.
  package func versionLine(of described: CommandLineDescription) -> String {
    versionLine(program: described.program, version: described.version) + "\n"
  }
}
