import ShopConventions
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

  /// Gives each option of the command its meaning, by an exhaustive `switch` over the
  /// command's options (ShopCommandLine+Commands.swift): an option declared for a command
  /// and given no meaning here does not compile.
  private init(
    _ command: Command, _ parsed: ParsedCommand, _ described: CommandDescription,
    _ description: CommandLineDescription
  ) throws(UsageError) {
    let values = parsed.values
    switch command {
    case .place:
      var options = PlacementOptions()
      var reference: Reference?
      for option in PlaceOption.allCases {
        switch option {
        case .reference: reference = values.reference
        case .quiet: if values[flag: .quiet] { options.report = .quiet }
        case .json: if values[flag: .json] { options.report = .json }
        case .catalog: options.catalogPath = values[path: .catalog]
        case .orders: options.ordersPath = values[path: .orders]
        case .memory: options.memory = values[flag: .memory]
        case .explain: options.explain = values[flag: .explain]
        case .help: break  // The parser answers it.
        }
      }
      switch CartSyntax.cart(arguments: parsed.operands) {
      case .success(let cart): self = .place(options, cart, reference)
      case .failure(let error):
        throw UsageError(reason: "\(error)", command: described, in: description)
      }
    case .batch:
      var options = PlacementOptions()
      for option in BatchOption.allCases {
        switch option {
        case .quiet: if values[flag: .quiet] { options.report = .quiet }
        case .json: if values[flag: .json] { options.report = .json }
        case .catalog: options.catalogPath = values[path: .catalog]
        case .orders: options.ordersPath = values[path: .orders]
        case .memory: options.memory = values[flag: .memory]
        case .explain: options.explain = values[flag: .explain]
        case .help: break
        }
      }
      let input = parsed.operands.first.flatMap { $0 == [UInt8(ascii: "-")] ? nil : $0 }
      self = .batch(options, input: input.map(FilePath.init))
    case .void:
      var options = VoidOptions()
      var reference: Reference?
      for option in VoidOption.allCases {
        switch option {
        case .reference: reference = values.reference
        case .quiet: if values[flag: .quiet] { options.report = .quiet }
        case .json: if values[flag: .json] { options.report = .json }
        case .orders: options.ordersPath = values[path: .orders]
        case .explain: options.explain = values[flag: .explain]
        case .help: break
        }
      }
      // The parser checked the operand: one whole number from 1 that fits `Int`.
      guard let number = parsed.operands.first.flatMap(CommandLineParser.number) else {
        throw UsageError(reason: "missing NUMBER", command: described, in: description)
      }
      self = .void(options, number: number, reference)
    case .orders:
      var options = OrdersOptions()
      if !parsed.operands.isEmpty {
        options.selection = .numbers(parsed.operands.compactMap(CommandLineParser.number))
      }
      // The forms of the selection conflict with each other, so at most one is given.
      for option in OrdersOption.allCases {
        switch option {
        case .orders: options.ordersPath = values[path: .orders]
        case .json: if values[flag: .json] { options.style = .json }
        case .csv: if values[flag: .csv] { options.style = .csv }
        case .count: if values[flag: .count] { options.selection = .count }
        case .last: if let last = values[number: .last] { options.selection = .last(last) }
        case .since, .until: break  // Read together, as the range, below.
        case .reference:
          if let reference = values.reference { options.selection = .reference(reference) }
        case .sku: options.sku = values.sku
        case .explain: options.explain = values[flag: .explain]
        case .help: break
        }
      }
      options.range = try TimeRange(values, described, description)
      self = .orders(options)
    case .summary:
      var options = SummaryOptions()
      for option in SummaryOption.allCases {
        switch option {
        case .orders: options.ordersPath = values[path: .orders]
        case .since, .until: break  // Read together, as the range, below.
        case .by: options.grouping = values.grouping ?? .none
        case .sku: options.sku = values.sku
        case .json: if values[flag: .json] { options.style = .json }
        case .csv: if values[flag: .csv] { options.style = .csv }
        case .explain: options.explain = values[flag: .explain]
        case .help: break
        }
      }
      options.range = try TimeRange(values, described, description)
      self = .summary(options)
    case .catalog:
      var (path, format, explain): (FilePath?, CatalogFormat, Bool) = (nil, .text, false)
      for option in CatalogOption.allCases {
        switch option {
        case .catalog: path = values[path: .catalog]
        case .json: if values[flag: .json] { format = .json }
        case .explain: explain = values[flag: .explain]
        case .help: break
        }
      }
      self = .catalog(catalogPath: path, format: format, explain: explain)
    case .help:
      for option in HelpCommandOption.allCases {
        switch option {
        case .help: break
        }
      }
      let topic = parsed.operands.first.map { String(decoding: $0, as: UTF8.self) }
      self = .help(topic.flatMap(Command.init(rawValue:)))
    case .completions:
      for option in CompletionsOption.allCases {
        switch option {
        case .help: break
        }
      }
      let name = parsed.operands.first.map { String(decoding: $0, as: UTF8.self) }
      guard let shell = name.flatMap(Shell.init(rawValue:)) else {
        throw UsageError(reason: "missing SHELL", command: described, in: description)
      }
      self = .completions(shell)
    case .manual:
      for option in ManualOption.allCases {
        switch option {
        case .help: break
        }
      }
      self = .manual
    }
  }
}

extension TimeRange {
  /// `--since` and `--until`, each checked by the parser. An `--until` at or before `--since`,
  /// as typed, is taken for a mistake; one later only by a fraction of a second (`09:30:00.2`
  /// to `09:30:01`) is a range, empty once both count as whole seconds.
  fileprivate init(
    _ values: OptionValues, _ described: CommandDescription,
    _ description: CommandLineDescription
  ) throws(UsageError) {
    if let since = values[time: .since], let until = values[time: .until],
      until.instant <= since.instant
    {
      let reason =
        "'\(OptionDescription.until.long)' \(TerminalText.quoted(until.text)) must be later than '\(OptionDescription.since.long)' "
        + TerminalText.quoted(since.text)
      throw UsageError(reason: reason, command: described, in: description)
    }
    self.init(since: values[time: .since]?.timestamp, until: values[time: .until]?.timestamp)
  }
}
