import ShopAdapters
import ShopConventions
import Testing

@testable import ShopCommandLine
@testable import shop

/// The description and what is made from it, without running the binary.
struct CommandLineDescriptionTests {
  /// `shop` with one more option on `catalog`, as a maintainer would add it.
  static let extended: CommandLineDescription = {
    var description = CommandLineDescription.shop
    // Its value goes to a field `catalog` does not read, so the invocation stays the same.
    let gift = OptionDescription.path(
      "--gift-wrap", name: "paper", help: "Wrap every item in this paper.",
      defaults: ["$SHOP_PAPER", "brown paper"], sets: .orders)
    for index in description.commands.indices where description.commands[index].name == "catalog" {
      description.commands[index].options.insert(gift, at: 0)
    }
    return description
  }()

  @Test func addingAnOptionToTheDescriptionIsEnoughForAllFour() throws {
    let description = CommandLineDescriptionTests.extended
    let catalog = try #require(description.command(named: "catalog"))
    let arguments = [["catalog"], ["--gift-wrap=red"], ["--json"]].map {
      $0.flatMap { Array($0.utf8) }
    }
    guard case .command(let parsed) = try CommandLineParser(description).parse(arguments) else {
      Issue.record("not parsed as a command")
      return
    }
    #expect(parsed.values[path: .orders] == FilePath("red"))
    #expect(
      try Invocation(parsing: arguments, in: description)
        == .catalog(catalogPath: nil, format: .json, explain: false))
    #expect(HelpText.usage(catalog, in: description).contains("[--gift-wrap <paper>]"))
    let help = HelpText.text(for: catalog, in: description)
    #expect(help.contains("  --gift-wrap <paper>     Wrap every item in this paper."))
    #expect(help.contains("(default: $SHOP_PAPER,"))
    #expect(Completions.bash(description).contains("--gift-wrap"))
    #expect(
      Completions.zsh(description).contains(
        "'--gift-wrap=[Wrap every item in this paper.]:paper:_files'"))
    #expect(
      Completions.fish(description).contains(
        "-l gift-wrap -r -F -d 'Wrap every item in this paper.'"))
    #expect(Manual.page(description).contains("\\fB\\-\\-gift\\-wrap\\fR \\fIpaper\\fR"))
    // And without it, none of them knows the option.
    #expect(throws: UsageError.self) { try CommandLineParser(.shop).parse(arguments) }
    for text in [
      Completions.bash(.shop), Completions.zsh(.shop), Completions.fish(.shop),
      Manual.page(.shop).replacing("\\-", with: "-"),
    ] {
      #expect(!text.contains("gift-wrap"))
    }
  }

  /// Each command's options are counted by raw value, not read from `allCases`: a raw value
  /// set out of order would drop the options after it, and fails here.
  @Test func everyCaseOfACommandsOptionsIsDescribed() {
    func check<Options: CommandOptions>(_: Options.Type) {
      #expect(
        Options.described.map(\.long) == Options.allCases.map { $0.described.long },
        "\(Options.self)")
    }
    check(PlaceOption.self)
    check(BatchOption.self)
    check(VoidOption.self)
    check(OrdersOption.self)
    check(SummaryOption.self)
    check(CatalogOption.self)
    check(HelpCommandOption.self)
    check(CompletionsOption.self)
    check(ManualOption.self)
  }

  @Test func theDescriptionIsSound() {
    #expect(CommandLineDescription.shop.problems == [])
    #expect(CommandLineDescriptionTests.extended.problems == [])
  }

  /// The validator finds each kind of mistake a maintainer could make in the description.
  @Test func theValidatorFindsWhatIsWrong() throws {
    var description = CommandLineDescription.shop
    let catalog = try #require(description.commands.firstIndex { $0.name == "catalog" })
    // A conflict with an option catalog does not declare.
    description.commands[catalog].conflicts.append(Conflict(.option(.json), .option(.memory)))
    #expect(
      description.problems == [
        "catalog: the conflict --json/--memory names --memory, which catalog does not declare"
      ])
    // The same name twice, a value that does not fit its field, defaults on a flag.
    description = .shop
    description.commands[catalog].options.append(.json)
    var quiet = OptionDescription.quiet
    quiet.defaults = ["loud"]
    description.commands[catalog].options.append(quiet)
    var last = OptionDescription.last
    last.value = ValueDescription(name: "n", kind: .path)
    description.commands[catalog].options.append(last)
    description.commands[catalog].conflicts.append(Conflict(.operand(.numbers), .option(.json)))
    #expect(
      description.problems == [
        "catalog: option --json is declared twice",
        "catalog: --quiet is a flag and can't have defaults",
        "catalog: --last's value does not fit where it goes",
        "catalog: the conflict NUMBER/--json names NUMBER, which catalog does not declare",
      ])
    // SKUs listed for completion by a command that does not take that option.
    description = .shop
    description.skuListing = ("orders", .catalog)
    #expect(
      description.problems == [
        "the SKU listing orders --catalog is not a declared command and option"
      ])
  }

  @Test func everyCommandAndOptionIsInEveryScriptAndTheManual() {
    let description = CommandLineDescription.shop
    let scripts = Shell.allCases.map { Completions.script(for: $0, description) }
    let manual = Manual.page(description).replacing("\\-", with: "-")
    for command in description.commands {
      for script in scripts + [manual] { #expect(script.contains(command.name)) }
      #expect(manual.contains(".SS shop \(command.name)\n"))
      for option in command.options {
        #expect(scripts[0].contains(option.long), "bash \(command.name) \(option.long)")
        #expect(scripts[1].contains("\(option.long)"), "zsh \(command.name) \(option.long)")
        #expect(
          scripts[2].contains("__fish_seen_subcommand_from \(command.name)'")
            && scripts[2].contains("-l \(option.long.dropFirst(2))"),
          "fish \(command.name) \(option.long)")
        #expect(manual.contains(option.long))
      }
    }
    for entry in description.environment + description.files + description.exitStatuses {
      #expect(manual.contains(entry.name))
    }
    // zsh: one _arguments spec per option and command; fish: one line per command and option.
    let fishOptionLines = scripts[2].split(separator: "\n").filter {
      $0.hasPrefix("complete ") && $0.contains(" -l ")
    }
    #expect(
      fishOptionLines.count
        == description.options.count + description.commands.map(\.options.count).reduce(0, +))
    let zshOptionSpecs = scripts[1].split(separator: "\n").filter {
      $0.trimmingPrefix(while: { $0 == " " }).hasPrefix("'-")
        || $0.trimmingPrefix(while: { $0 == " " }).hasPrefix("'(")
    }
    #expect(
      zshOptionSpecs.count
        == description.options.count + description.commands.map(\.options.count).reduce(0, +))
  }

  @Test func theCommandsOfTheDescriptionAreTheCommandsShopRuns() {
    #expect(CommandLineDescription.shop.commands.map(\.name) == Command.allCases.map(\.rawValue))
  }

  @Test(arguments: [
    ("plcae", "place"), ("palce", "place"), ("plac", "place"), ("bach", "batch"),
    ("order", "orders"), ("catalgo", "catalog"), ("hlep", "help"), ("manuel", "manual"),
  ])
  func aTypoSuggestsTheCommand(typed: String, meant: String) {
    #expect(Suggestion.nearest(to: typed, among: Command.allCases.map(\.rawValue)) == meant)
  }

  @Test func farOffWordsSuggestNothing() {
    let commands = Command.allCases.map(\.rawValue)
    for typed in ["frobnicate", "x", "", "pl", "nosuch", "zzzzzz"] {
      #expect(Suggestion.nearest(to: typed, among: commands) == nil, "\(typed)")
    }
    #expect(Suggestion.nearest(to: "--jsno", among: ["--json", "--quiet"]) == "--json")
  }

  @Test func ordersFormsParse() throws {
    func parse(_ words: String...) throws -> Invocation {
      try Invocation(parsing: words.map { Array($0.utf8) })
    }
    #expect(try parse("orders") == .orders(OrdersOptions()))
    #expect(
      try parse("orders", "--json", "1001", "1003")
        == .orders(OrdersOptions(style: .json, selection: .numbers([1001, 1003]))))
    #expect(
      try parse("orders", "--last=2", "--json")
        == .orders(OrdersOptions(style: .json, selection: .last(2))))
    #expect(try parse("orders", "--count") == .orders(OrdersOptions(selection: .count)))
    guard case .orders(let options) = try parse("orders", "--orders", "postgresql://h/db") else {
      Issue.record("not orders")
      return
    }
    #expect(options.ordersPath?.bytes == Array("postgresql://h/db".utf8))
  }

  @Test func pathsKeepTheirBytes() throws {
    let path: [UInt8] = [0x6F, 0xFF, 0x2E, 0x63, 0x73, 0x76]
    let catalog = try Invocation(parsing: [Array("catalog".utf8), Array("--catalog".utf8), path])
    guard case .catalog(let catalogPath, format: .text, explain: false) = catalog else {
      Issue.record("not catalog")
      return
    }
    #expect(catalogPath?.bytes == path)
    let batch = try Invocation(parsing: [Array("batch".utf8), Array("--".utf8), [0x2D, 0xFE]])
    guard case .batch(_, let input) = batch else {
      Issue.record("not batch")
      return
    }
    #expect(input?.bytes == [0x2D, 0xFE])
  }

  @Test func theUsageErrorIsOneShopErrorOfThreeLines() throws {
    let error = UsageError(
      reason: "no items: expected SKU=QTY...",
      command: CommandLineDescription.shop.command(named: "place"),
      in: .shop)
    #expect(error.status == .usage)
    #expect(
      error.message
        == "no items: expected SKU=QTY...\nUsage: shop place [options] SKU=QTY...\n"
        + "  See 'shop place --help' for more information.")
  }
}
