import ShopAdapters
import ShopCore

extension Invocation {
  /// Reads the arguments after the program's name, as the bytes the program was given, by
  /// `description` (checked there: names, values, conflicts, operands), then gives them meaning.
  init(parsing arguments: [[UInt8]], in description: CommandLineDescription = .shop)
    throws(UsageError)
  {
    switch try CommandLineParser(description).parse(arguments) {
    case .help(let name):
      self = .help(name.flatMap(Command.init(rawValue:)))
    case .version:
      self = .version
    case .command(let parsed):
      guard let command = Command(rawValue: parsed.name),
        let described = description.command(named: parsed.name)
      else {
        throw UsageError(reason: "no command \(parsed.name)", command: nil, in: description)
      }
      self = try Invocation(command, parsed, described, description)
    }
  }

  private init(
    _ command: Command, _ parsed: ParsedCommand, _ described: CommandDescription,
    _ description: CommandLineDescription
  ) throws(UsageError) {
    let path = { (long: String) in parsed.value(long).map(FilePath.init) }
    switch command {
    case .place:
      switch CartSyntax.cart(arguments: parsed.operands) {
      case .success(let cart):
        let reference = parsed.value("--ref").flatMap { Reference($0) }
        self = .place(PlacementOptions(parsed), cart, reference)
      case .failure(let error):
        throw UsageError(reason: "\(error)", command: described, in: description)
      }
    case .batch:
      let input = parsed.operands.first.flatMap { $0 == [UInt8(ascii: "-")] ? nil : $0 }
      self = .batch(PlacementOptions(parsed), input: input.map(FilePath.init))
    case .orders:
      var options = OrdersOptions(ordersPath: path("--orders"), json: parsed.has("--json"))
      if parsed.has("--count") {
        options.selection = .count
      } else if let last = parsed.value("--last").flatMap(CommandLineParser.number) {
        options.selection = .last(last)
      } else if let reference = parsed.value("--ref").flatMap({ Reference($0) }) {
        options.selection = .reference(reference)
      } else if !parsed.operands.isEmpty {
        options.selection = .numbers(parsed.operands.compactMap(CommandLineParser.number))
      }
      self = .orders(options)
    case .catalog:
      self = .catalog(catalogPath: path("--catalog"), json: parsed.has("--json"))
    case .help:
      let topic = parsed.operands.first.map { String(decoding: $0, as: UTF8.self) }
      self = .help(topic.flatMap(Command.init(rawValue:)))
    case .completions:
      let name = parsed.operands.first.map { String(decoding: $0, as: UTF8.self) }
      guard let shell = name.flatMap(Shell.init(rawValue:)) else {
        throw UsageError(reason: "missing SHELL", command: described, in: description)
      }
      self = .completions(shell)
    case .manual:
      self = .manual
    }
  }
}

extension PlacementOptions {
  fileprivate init(_ parsed: ParsedCommand) {
    self.init()
    report = parsed.has("--quiet") ? .quiet : parsed.has("--json") ? .json : .text
    catalogPath = parsed.value("--catalog").map(FilePath.init)
    ordersPath = parsed.value("--orders").map(FilePath.init)
    memory = parsed.has("--memory")
  }
}
