import Foundation
import ShopTestSupport
import Testing

/// A new account following the README's install steps, in real shells: bash -i with
/// bash-completion, zsh with the README's `fpath` line.
struct NewUserSetUpTests {
  /// The README's install block, as a new user types it (comments cut off).
  static func installBlock() throws -> [String] {
    let readme = try SourceTree.readme()
    let block = try #require(
      readme.split(separator: "<!-- docs-test: install -->\n```sh\n").dropFirst().first?
        .split(separator: "```").first)
    return block.split(separator: "\n").map { line in
      // The `#` of a comment comes after two spaces; no command of the block holds another `#`.
      String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
    }
  }

  /// The lines of the install block this test runs: all but building (`SHOP_BIN` names the
  /// binary built already), installing a system package and starting a new shell, which the
  /// test does itself.
  static func installLines() throws -> [String] {
    try installBlock().filter {
      !$0.hasPrefix("swift build") && !$0.contains("apt-get install") && !$0.hasPrefix("exec ")
    }
  }

  /// A new account on this machine (Debian's `/etc/skel/.bashrc`, a private HOME) follows the
  /// README: install into `~/.local`, the PATH line, then a new interactive bash finds `shop`,
  /// its manual and, through bash-completion, its completions.
  @Test func aNewUserFollowingTheReadmeGetsShopOnPathWithCompletions() throws {
    let bashCompletion = "/usr/share/bash-completion/bash_completion"
    guard FileManager.default.fileExists(atPath: bashCompletion),
      FileManager.default.fileExists(atPath: "/etc/skel/.bashrc"),
      let bash = GeneratedFilesTests.tool("bash"), GeneratedFilesTests.tool("make") != nil
    else {
      print("skipped: needs bash, make, bash-completion and /etc/skel/.bashrc")
      return
    }
    let shop = try Shop()
    try FileManager.default.copyItem(atPath: "/etc/skel/.bashrc", toPath: shop.home + "/.bashrc")
    let lines = try NewUserSetUpTests.installLines()
    #expect(lines.count == 3, "\(lines)")
    #expect(try NewUserSetUpTests.installBlock().count == 6)
    let plain = ["PATH": "/usr/bin:/bin", "SHOP_BIN": Shop.binary, "TERM": "dumb"]
    for line in lines {
      let run = try GeneratedFilesTests.run(
        "/bin/sh", ["-c", "cd '\(GeneratedFilesTests.root.path)' && \(line)"], in: shop,
        environment: plain)
      #expect(run.status == 0, "\(line): \(run)")
    }
    let session = """
      type -P shop
      shop place --memory pen=1
      man -w shop 2>/dev/null || echo 'no man'
      _completion_loader shop; complete -p shop
      COMP_WORDS=(shop pl); COMP_CWORD=1; _shop; echo "${COMPREPLY[*]}"
      COMP_WORDS=(shop place l); COMP_CWORD=2; _shop; echo "${COMPREPLY[*]}"
      """
    let run = try GeneratedFilesTests.run(
      bash, ["-i", "-c", session], in: shop, environment: plain)
    let home = shop.home
    let man =
      GeneratedFilesTests.tool("man") == nil ? "no man" : home + "/.local/share/man/man1/shop.1"
    #expect(
      run.stdout.split(separator: "\n") == [
        "\(home)/.local/bin/shop", "order 1001 for 30", "\(man)", "complete -F _shop shop",
        "place", "lamp=",
      ], "\(run)")
  }

  /// zsh, with the README's `fpath` line before `compinit`, has `_shop` for `shop`.
  @Test func zshFindsTheCompletionThroughTheReadmesFpathLine() throws {
    guard let zsh = GeneratedFilesTests.tool("zsh"), GeneratedFilesTests.tool("make") != nil else {
      print("skipped: zsh is not installed")
      return
    }
    // The README's line appends `fpath` and a compinit after it to ~/.zshrc, so completion
    // works whether ~/.zshrc ran compinit before or not at all.
    let line = try #require(try NewUserSetUpTests.installLines().first { $0.contains("fpath=(") })
    let appended = try #require(line.split(separator: "'").dropFirst().first)
    #expect(appended.hasPrefix("fpath=(~/.local/share/zsh/site-functions "))
    let shop = try Shop()
    let install = try GeneratedFilesTests.make("install", shop.home + "/.local", in: shop)
    #expect(install.status == 0, "\(install)")
    for (zshrc, expected) in [
      ("\(appended)\n", "_shop"),
      ("autoload -Uz compinit && compinit\n\(appended)\n", "_shop"),
      ("autoload -Uz compinit && compinit\n", ""),
    ] {
      _ = try shop.folder.write("home/.zshrc", zshrc)
      try? FileManager.default.removeItem(atPath: shop.home + "/.zcompdump")
      let run = try GeneratedFilesTests.run(
        zsh, ["-i", "-c", "print -r -- \"[$_comps[shop]]\""], in: shop,
        environment: ["PATH": "/usr/bin:/bin", "TERM": "dumb"])
      #expect(run.stdout == "[\(expected)]\n", "\(zshrc): \(run)")
    }
  }
}
