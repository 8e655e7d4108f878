import ShopAdapters
import ShopCore

extension Invocation {
  /// Reads the arguments after the program's name, as the bytes the program was given, by
  /// `description` (checked there: names, values, conflicts, operands), then gives them meaning.
  /// `now` is the clock's time, from which `today` and `yesterday` count; nil refuses them.
  package init(
    parsing arguments: [[UInt8]], in description: CommandLineDescription = .shop,
    now: Timestamp? = nil
  ) throws(UsageError) {
    switch try CommandLineParser(description, now: now).parse(arguments) {
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
    let values = parsed.values
    switch command {
    case .place:
      switch CartSyntax.cart(arguments: parsed.operands) {
      case .success(let cart):
        self = .place(PlacementOptions(values), cart, values.references[.reference])
      case .failure(let error):
        throw UsageError(reason: "\(error)", command: described, in: description)
      }
    case .batch:
      let input = parsed.operands.first.flatMap { $0 == [UInt8(ascii: "-")] ? nil : $0 }
      self = .batch(PlacementOptions(values), input: input.map(FilePath.init))
    case .void:
      var options = VoidOptions(ordersPath: values.paths[.orders], explain: values.flags[.explain])
      options.report = values.flags[.quiet] ? .quiet : values.flags[.json] ? .json : .text
      // The parser checked the operand: one whole number from 1 that fits `Int`.
      guard let number = parsed.operands.first.flatMap(CommandLineParser.number) else {
        throw UsageError(reason: "missing NUMBER", command: described, in: description)
      }
      self = .void(options, number: number, values.references[.reference])
    case .orders:
      var options = OrdersOptions(
        ordersPath: values.paths[.orders], json: values.flags[.json])
      options.explain = values.flags[.explain]
      options.csv = values.flags[.csv]
      options.range = try TimeRange(values, described, description)
      options.sku = values.words[.sku]
      if values.flags[.count] {
        options.selection = .count
      } else if let last = values.numbers[.last] {
        options.selection = .last(last)
      } else if let reference = values.references[.reference] {
        options.selection = .reference(reference)
      } else if !parsed.operands.isEmpty {
        options.selection = .numbers(parsed.operands.compactMap(CommandLineParser.number))
      }
      self = .orders(options)
    case .summary:
      var options = SummaryOptions(
        ordersPath: values.paths[.orders], json: values.flags[.json])
      options.explain = values.flags[.explain]
      options.csv = values.flags[.csv]
      options.sku = values.words[.sku]
      options.range = try TimeRange(values, described, description)
      switch values.words[.by] {
      case "day": options.grouping = .day
      case "sku": options.grouping = .sku
      default: options.grouping = .none
      }
      self = .summary(options)
    case .catalog:
      self = .catalog(
        catalogPath: values.paths[.catalog], json: values.flags[.json],
        explain: values.flags[.explain])
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

extension TimeRange {
  /// `--since` and `--until`, each checked by the parser; a range that ends where it starts
  /// or before can hold no order, so it is taken for a mistake.
  fileprivate init(
    _ values: OptionValues, _ described: CommandDescription,
    _ description: CommandLineDescription
  ) throws(UsageError) {
    if let since = values.times[.since], let until = values.times[.until],
      until.timestamp <= since.timestamp
    {
      let reason =
        "'\(OptionDescription.until.long)' \(TerminalText.quoted(until.text)) must be later than '\(OptionDescription.since.long)' "
        + TerminalText.quoted(since.text)
      throw UsageError(reason: reason, command: described, in: description)
    }
    self.init(since: values.times[.since]?.timestamp, until: values.times[.until]?.timestamp)
  }
}

extension PlacementOptions {
  fileprivate init(_ values: OptionValues) {
    self.init()
    report = values.flags[.quiet] ? .quiet : values.flags[.json] ? .json : .text
    catalogPath = values.paths[.catalog]
    ordersPath = values.paths[.orders]
    memory = values.flags[.memory]
    explain = values.flags[.explain]
  }
}
