/// How this binary was built, for `shop --version`: a bug report needs to know whether the
/// binary can use PostgreSQL and whether it is the fast release build.
struct BuildInfo: Equatable, Sendable {
  enum Configuration: String, Sendable {
    case release
    case debug
  }

  var configuration: Configuration
  /// Built with the PostgreSQL trait: `--orders postgresql://...` works.
  var postgreSQL: Bool

  /// This binary, as the compiler saw it (SwiftPM defines DEBUG in debug builds, and each
  /// enabled trait under its own name).
  static let current: BuildInfo = {
    #if DEBUG
      let configuration = Configuration.debug
    #else
      let configuration = Configuration.release
    #endif
    #if PostgreSQL
      return BuildInfo(configuration: configuration, postgreSQL: true)
    #else
      return BuildInfo(configuration: configuration, postgreSQL: false)
    #endif
  }()

  /// `shop 0.1.0 (release, PostgreSQL: no)`, newline not included.
  func versionLine(program: String, version: String) -> String {
    "\(program) \(version) (\(configuration.rawValue), PostgreSQL: \(postgreSQL ? "yes" : "no"))"
  }
}
