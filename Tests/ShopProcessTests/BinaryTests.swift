import ShopTestSupport
import Testing

@testable import ShopCommandLine
@testable import shop

/// The built binary itself, as the tests found it.
struct BinaryTests {
  /// The binary is built with the tests, in their configuration and with their traits.
  @Test func versionSaysHowTheBinaryWasBuilt() throws {
    #if DEBUG
      let configuration = "debug"
    #else
      let configuration = "release"
    #endif
    // Every build can use PostgreSQL: it loads libpq when a postgres:// store is used.
    let postgreSQL = "yes"
    let version = CommandLineDescription.shop.version
    #expect(version.split(separator: ".").count == 3)
    #expect(version.allSatisfy { $0.isNumber || $0 == "." })
    let shop = try Shop()
    let expected = "shop \(version) (\(configuration), PostgreSQL: \(postgreSQL))\n"
    for arguments in [["--version"]] {
      let run = try shop.run(arguments)
      #expect(run.status == 0 && run.stderr == "", "\(arguments): \(run)")
      #expect(run.stdout == expected, "\(arguments)")
    }
  }
}
