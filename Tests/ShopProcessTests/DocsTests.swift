import Foundation
import ShopTestSupport
import Testing

/// The Markdown documents against the tool they describe and against each other: the README's
/// marked blocks run as written with the built binary, every relative link resolves, and lines
/// wrap at 100 characters (CONTRIBUTING.md says how blocks are marked).
struct DocsTests {
  /// A fenced block, with the `<!-- docs-test: … -->` marker on the line before it, if any.
  struct Block {
    let marker: String?
    let language: String
    let text: String
    let line: Int
  }

  /// The Markdown files of the package, by path from its folder (build products aside).
  static func markdownFiles() -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: SourceTree.root.path) else {
      return []
    }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
      let name = URL(fileURLWithPath: path).lastPathComponent
      if name.hasPrefix(".") || path == "Benchmarks/work" {
        walker.skipDescendants()
      } else if name.hasSuffix(".md") {
        found.append(path)
      }
    }
    return found.sorted()
  }

  static func lines(_ markdown: String) -> [Substring] {
    markdown.split(separator: "\n", omittingEmptySubsequences: false)
  }

  static func blocks(_ markdown: String) -> [Block] {
    var blocks: [Block] = []
    var marker: String?
    var open: (language: String, line: Int, lines: [Substring])?
    for (index, line) in lines(markdown).enumerated() {
      if var current = open {
        if line.hasPrefix("```") {
          let text = current.lines.map { $0 + "\n" }.joined()
          blocks.append(
            Block(marker: marker, language: current.language, text: text, line: current.line))
          open = nil
          marker = nil
        } else {
          current.lines.append(line)
          open = current
        }
      } else if line.hasPrefix("```") {
        open = (String(line.dropFirst(3)), index + 1, [])
      } else if line.hasPrefix("<!-- docs-test: "), line.hasSuffix(" -->") {
        marker = String(line.dropFirst("<!-- docs-test: ".count).dropLast(" -->".count))
      } else if !line.isEmpty {
        marker = nil
      }
    }
    return blocks
  }

  /// The lines outside fenced blocks, with their numbers.
  static func prose(_ markdown: String) -> [(number: Int, line: Substring)] {
    var inside = false
    var prose: [(Int, Substring)] = []
    for (index, line) in lines(markdown).enumerated() {
      if line.hasPrefix("```") {
        inside.toggle()
      } else if !inside {
        prose.append((index + 1, line))
      }
    }
    return prose
  }

  // MARK: - The README runs as written

  /// A `console` block as (command, what it prints) pairs.
  static func session(_ block: String) -> [(command: String, expected: String)] {
    var steps: [(command: String, expected: String)] = []
    for line in lines(block) where !(line.isEmpty && steps.isEmpty) {
      if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), ""))
      } else if !steps.isEmpty, !line.isEmpty {
        steps[steps.count - 1].expected += line + "\n"
      }
    }
    return steps
  }

  static func timeless(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "TIME")
  }

  /// Runs `script` with `/bin/sh` in `shop`'s sandbox: its HOME, its folder, `shop` on PATH.
  static func shell(_ script: String, in shop: Shop, environment: [String: String] = [:]) throws
    -> Run
  {
    try GeneratedFilesTests.run(
      "/bin/sh", ["-e", "-c", script], in: shop, environment: environment)
  }

  /// Runs every block of the README marked `run`, in order, in one sandbox: a `console` block
  /// command by command in one shell, each printing what the block shows; any other block as a
  /// script that must end with 0. Returns how many blocks ran and what went otherwise.
  static func runReadme(
    in shop: Shop, environment: [String: String] = [:], before heading: String? = nil
  ) throws -> (count: Int, failures: [String]) {
    let readme = try SourceTree.readme()
    let end = heading.flatMap { heading in
      lines(readme).firstIndex { $0 == heading }.map { $0 + 1 }
    }
    let runnable = blocks(readme).filter { $0.marker == "run" && $0.line < end ?? Int.max }
    var failures: [String] = []
    for block in runnable {
      guard block.language == "console" else {
        let run = try shell(block.text, in: shop, environment: environment)
        if run.status != 0 { failures.append("README.md:\(block.line): \(run)") }
        continue
      }
      let steps = session(block.text)
      let script =
        "exec 2>&1\n"
        + steps.enumerated().map { "printf '\\036%d\\n' \($0.offset)\n\($0.element.command)\n" }
        .joined()
      let run = try GeneratedFilesTests.run(
        "/bin/sh", ["-c", script], in: shop, environment: environment)
      let printed = run.stdout.split(separator: "\u{1E}", omittingEmptySubsequences: false)
        .dropFirst().map { $0.drop { $0 != "\n" }.dropFirst() }
      if printed.count != steps.count { failures.append("README.md:\(block.line): \(run)") }
      for (step, output) in zip(steps, printed)
      where timeless(String(output)) != timeless(step.expected) {
        failures.append(
          "README.md:\(block.line): $ \(step.command)\nprinted:\n\(output)expected:\n\(step.expected)"
        )
      }
    }
    return (runnable.count, failures)
  }

  static func today() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    return "\(parts.tm_year + 1900)-\(parts.tm_mon)-\(parts.tm_mday)"
  }

  /// The README's runnable blocks in a new sandbox, within one UTC day: the recipes count today's
  /// orders, so a run that crosses midnight is run again before anything is judged.
  static func runReadmeWithinOneDay(
    environment: [String: String] = [:], before heading: String? = nil
  ) throws -> Shop {
    var attempt = 0
    while true {
      attempt += 1
      let day = today()
      let shop = try Shop()
      let (count, failures) = try runReadme(
        in: shop, environment: environment, before: heading)
      if day != today() && attempt == 1 { continue }
      #expect(count >= 5)
      #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
      return shop
    }
  }

  /// The README's first session and recipes run as written, with the built binary in a private
  /// HOME, and print what they show (times aside).
  @Test func theReadmesBlocksRunAsWritten() throws {
    let shop = try DocsTests.runReadmeWithinOneDay()
    // The backup recipe restored what it backed up (five orders; a void came after), and left
    // no index behind.
    let listed = try shop.run("orders", "--count")
    #expect(listed.stdout == "6\n", "\(listed)")
    #expect(try shop.run("orders", "--last", "1").stdout.hasSuffix("void of 1004\n"))
    #expect(!FileManager.default.fileExists(atPath: shop.defaultOrders + ".refs"))
  }

  /// Every shell or console block of the README says whether it runs, and every `swift` block
  /// that quotes a file quotes it line for line.
  @Test func everyReadmeBlockIsMarkedAndEveryQuoteIsTrue() throws {
    let all = DocsTests.blocks(try SourceTree.readme())
    let kinds: Set<String> = ["run", "postgresql", "root", "install"]
    for block in all where block.language == "sh" || block.language == "console" {
      #expect(kinds.contains(block.marker ?? ""), "README.md:\(block.line) has no docs-test mark")
    }
    var quotes = 0
    for block in all {
      guard let marker = block.marker, marker.hasPrefix("quotes ") else { continue }
      let source = try SourceTree.document(String(marker.dropFirst("quotes ".count)))
      let file = DocsTests.lines(source).map { $0.trimmingCharacters(in: .whitespaces) }
      let quoted = DocsTests.lines(block.text).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
      let found = file.indices.contains { start in
        file[start...].prefix(quoted.count).elementsEqual(quoted)
      }
      #expect(found, "README.md:\(block.line) does not quote \(marker.dropFirst(7)) as it is")
      quotes += 1
    }
    #expect(quotes >= 2)
  }

  /// The README's steps for a second machine are docs/postgresql.md's, line for line and in
  /// order (that page may add lines between them), so the two can't drift apart.
  @Test func theSecondMachineStepsAreTheSameInBothPlaces() throws {
    func steps(_ document: String) throws -> [Substring] {
      let block = try #require(
        DocsTests.blocks(try SourceTree.document(document)).first {
          $0.text.contains("CREATE ROLE clerk")
        })
      return DocsTests.lines(block.text).filter { !$0.isEmpty }
    }
    let readme = try steps("README.md")
    var page = try steps("docs/postgresql.md")[...]
    for line in readme {
      let found = page.firstIndex(of: line)
      #expect(found != nil, "docs/postgresql.md lacks, in order: \(line)")
      page = page[(found.map { $0 + 1 } ?? page.endIndex)...]
    }
    #expect(readme.count >= 9)
  }

  /// The README's PostgreSQL recipes against a throwaway server, after its file recipes up to
  /// them: the import loads the file's orders, which then list alike from both stores, and a
  /// backup restored over the table gives them back.
  @Test(.enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
  func theReadmesPostgresBlocksRunAgainstAServer() throws {
    let server = try PostgresServer.shared.get()
    try server.sql("DROP DATABASE IF EXISTS shop WITH (FORCE)", database: "postgres")
    try server.sql("CREATE DATABASE shop", database: "postgres")
    let binaries = URL(fileURLWithPath: Shop.binary).deletingLastPathComponent().path
    let environment = [
      "PGHOST": server.socketFolder, "PGPORT": "\(server.port)", "PGUSER": "postgres",
      "PATH": "\(binaries):\(PostgresServer.binaries ?? ""):/usr/bin:/bin",
    ]
    let shop = try DocsTests.runReadmeWithinOneDay(
      environment: environment, before: "### Moving to PostgreSQL")
    let blocks = DocsTests.blocks(try SourceTree.readme()).filter { $0.marker == "postgresql" }
    let load = try #require(blocks.first { $0.text.contains("\\copy") })
    let backup = try #require(blocks.first { $0.text.contains("pg_dump") })
    func bothStores() throws -> (file: Run, server: Run) {
      let file = try DocsTests.shell("shop orders", in: shop, environment: environment)
      let server = try DocsTests.shell(
        "shop orders --orders postgresql:///shop", in: shop, environment: environment)
      return (file, server)
    }
    let loaded = try DocsTests.shell(load.text, in: shop, environment: environment)
    #expect(loaded.status == 0, "\(loaded)")
    let listed = try bothStores()
    #expect(listed.file.stdout == listed.server.stdout && listed.server.status == 0, "\(listed)")
    #expect(DocsTests.lines(listed.server.stdout).count == 6)
    let placed = try DocsTests.shell(
      "shop place --orders postgresql:///shop --ref web-2 pen=1", in: shop,
      environment: environment)
    #expect(placed.stdout == "order 1005 for 30 (already placed)\n", "\(placed)")
    let restored = try DocsTests.shell(backup.text, in: shop, environment: environment)
    #expect(restored.status == 0, "\(restored)")
    let again = try bothStores()
    #expect(again.file.stdout == again.server.stdout && again.server.status == 0, "\(again)")
  }

  /// Every test that docs/guarantees.md names as holding a promise is a test of the package.
  @Test func everyTestTheGuaranteesNameExists() throws {
    let guarantees = try SourceTree.document("docs/guarantees.md")
    var sources = ""
    let tests = SourceTree.root.appendingPathComponent("Tests").path
    for path in FileManager.default.enumerator(atPath: tests)?.allObjects as? [String] ?? []
    where path.hasSuffix(".swift") {
      sources += try String(contentsOfFile: tests + "/" + path, encoding: .utf8)
    }
    let rows = DocsTests.lines(guarantees).filter { $0.hasPrefix("| **") }
    #expect(rows.count >= 15)
    for row in rows {
      let heldBy = row.split(separator: "|").last ?? ""
      let names = heldBy.matches(of: /`([a-z][A-Za-z0-9]+)`/).map { String($0.output.1) }
      #expect(!names.isEmpty, "no test holds: \(row.prefix(60))")
      for name in names {
        #expect(sources.contains("func \(name)("), "docs/guarantees.md names no test \(name)")
      }
    }
  }

  // MARK: - Links and lines

  /// GitHub's anchor for a heading: lower case, only letters, digits, `-`, `_` and spaces kept,
  /// spaces made `-`; a repeated anchor gets `-1`, `-2`, ….
  static func anchors(_ markdown: String) -> Set<String> {
    var seen: [String: Int] = [:]
    var anchors: Set<String> = []
    for (_, line) in prose(markdown) where line.hasPrefix("#") {
      let title = line.drop { $0 == "#" }
      guard title.hasPrefix(" ") else { continue }
      let slug = String(
        title.lowercased().unicodeScalars.filter {
          CharacterSet.alphanumerics.contains($0) || "-_ ".unicodeScalars.contains($0)
        }.map(Character.init)
      ).trimmingCharacters(in: .whitespaces).replacing(" ", with: "-")
      let count = seen[slug, default: 0]
      anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
      seen[slug] = count + 1
    }
    return anchors
  }

  /// The targets of the Markdown links of a document, outside code.
  static func links(_ markdown: String) -> [String] {
    let text = prose(markdown).map { String($0.line) }.joined(separator: "\n")
      .replacing(/`[^`\n]*`/, with: "")
    return text.matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
  }

  /// Every relative link of every Markdown file names a file or folder that exists, and, with
  /// `#anchor`, a heading of that Markdown file (or of its own file, for `#anchor` alone).
  @Test func everyRelativeLinkResolves() throws {
    let files = DocsTests.markdownFiles()
    #expect(files.contains("README.md") && files.contains("docs/commands.md"))
    var checked = 0
    for file in files {
      let markdown = try SourceTree.document(file)
      let folder = SourceTree.root.appendingPathComponent(file).deletingLastPathComponent()
      for link in DocsTests.links(markdown) where !link.contains(":") {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let full =
          path.isEmpty
          ? SourceTree.root.appendingPathComponent(file).path
          : folder.appendingPathComponent(path).standardized.path
        #expect(FileManager.default.fileExists(atPath: full), "\(file): no \(link)")
        if parts.count == 2, full.hasSuffix(".md") {
          let anchors = DocsTests.anchors(
            (try? String(contentsOfFile: full, encoding: .utf8)) ?? "")
          #expect(anchors.contains(String(parts[1])), "\(file): no heading for \(link)")
        }
        checked += 1
      }
    }
    #expect(checked > 50)
  }

  /// The anchor rule is GitHub's, on headings like the documents' own.
  @Test func anchorsAreGitHubs() {
    let anchors = DocsTests.anchors(
      "# A\n## What does this command line use? `--explain`\n## Bird's-eye view\n"
        + "## References (issue 19)\n## PostgreSQL\n### PostgreSQL\n```\n# not a heading\n```\n")
    #expect(
      anchors == [
        "a", "what-does-this-command-line-use---explain", "birds-eye-view", "references-issue-19",
        "postgresql", "postgresql-1",
      ])
  }

  /// Markdown lines are at most 100 characters, but in tables, code and lines holding a link;
  /// no merge left its conflict markers; the README is at most 250 lines.
  @Test func markdownLinesWrapAt100AndTheReadmeIsShort() throws {
    for file in DocsTests.markdownFiles() {
      for (number, line) in DocsTests.prose(try SourceTree.document(file)) {
        let exempt =
          line.trimmingCharacters(in: .whitespaces).hasPrefix("|") || line.contains("](")
          || line.contains("://")
        #expect(exempt || line.count <= 100, "\(file):\(number) is \(line.count) characters")
        #expect(
          !line.hasPrefix("<<<<<<< ") && !line.hasPrefix(">>>>>>> "),
          "\(file):\(number) is a merge's conflict marker")
      }
    }
    let readme = try SourceTree.readme()
    #expect(readme.filter { $0 == "\n" }.count <= 250)
  }
}
