import ShopConventions
import ShopCore

// Over 300 lines on purpose: one pass over the arguments against the description, whose
// rules (clusters, `--`, values, operands) depend on each other.

/// A command line read against a description, before it means anything to `shop`: which
/// command, which options, which operands, all still bytes.
enum ParsedLine: Equatable {
  /// `shop`, `shop --help`, `shop help [COMMAND]`, `shop COMMAND --help`.
  case help(command: String?)
  case version
  case command(ParsedCommand)
}

/// One command's options and operands, every one checked against its description: each
/// option's value is where its ``OptionTarget`` puts it, the operands are still bytes.
struct ParsedCommand: Equatable {
  let name: String
  var values = OptionValues()
  var operands: [[UInt8]] = []
  /// The long names of the options given, for the conflicts.
  fileprivate(set) var given: [String] = []

  init(name: String) {
    self.name = name
  }
}

/// Reads arguments as bytes (a path may be any bytes but NUL) by a description: options and
/// operands in any order after the command, `--` ends the options, `--name VALUE` and
/// `--name=VALUE` agree.
struct CommandLineParser {
  let description: CommandLineDescription
  /// What `today` and `yesterday` count from (the root's clock); nil refuses them.
  let now: Timestamp?

  init(_ description: CommandLineDescription, now: Timestamp? = nil) {
    self.description = description
    self.now = now
  }

  func parse(_ arguments: [[UInt8]]) throws(UsageError) -> ParsedLine {
    guard let first = arguments.first else { return .help(command: nil) }
    let name = String(decoding: first, as: UTF8.self)
    if first.first == UInt8(ascii: "-") {
      let option = description.options.first { $0.names.contains(name) }
      switch option?.target {
      case .help?:
        // `shop --help place` is `shop help place`; anything else after it is a mistake.
        guard let topic = arguments.dropFirst().first else { return .help(command: nil) }
        if topic.first == UInt8(ascii: "-") {
          throw error(
            "unexpected option \(TerminalText.quoted(topic)) after \(option?.long ?? name)", nil)
        }
        try check(topic, .command, "COMMAND", nil)
        if let extra = arguments.dropFirst(2).first {
          throw error("unexpected argument \(TerminalText.quoted(extra))", nil)
        }
        return .help(command: String(decoding: topic, as: UTF8.self))
      case .version?:
        if let extra = arguments.dropFirst().first {
          throw error(
            "unexpected argument \(TerminalText.quoted(extra)) after \(option?.long ?? name)",
            nil)
        }
        return .version
      default:
        // `--help=1` is the flag given a value, as `shop place --help=1` says it is.
        if let equals = first.firstIndex(of: UInt8(ascii: "=")) {
          let flag = String(decoding: first[..<equals], as: UTF8.self)
          if let option = description.options.first(where: { $0.names.contains(flag) }),
            option.target == .help || option.target == .version
          {
            throw error("option '\(option.long)' takes no value", nil)
          }
        }
        try checkNotBeforeItsCommand(first, arguments)
        let names = description.options.map { $0.long }
        throw error(unknown("option", first, among: names), nil)
      }
    }
    guard let command = description.command(named: name) else {
      throw error(unknown("command", first, among: description.commands.map { $0.name }), nil)
    }
    let rest = Array(arguments.dropFirst())
    do {
      return try parse(command, rest)
    } catch {
      // Help wins over every other mistake of the line, as argument-parser's does.
      if command.asksForHelp(rest) { return .help(command: command.name) }
      throw error
    }
  }

  private func parse(_ command: CommandDescription, _ arguments: [[UInt8]]) throws(UsageError)
    -> ParsedLine
  {
    var parsed = ParsedCommand(name: command.name)
    var wantsHelp = false
    var endOfOptions = false
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if endOfOptions || argument == [UInt8(ascii: "-")] || argument.first != UInt8(ascii: "-") {
        parsed.operands.append(argument)
        continue
      }
      if argument == Array("--".utf8) {
        endOfOptions = true
        continue
      }
      var nameBytes = argument[...]
      var attached: [UInt8]?
      if argument.starts(with: "--".utf8), let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
        nameBytes = argument[..<equals]
        attached = Array(argument[(equals + 1)...])
      }
      let name = String(decoding: nameBytes, as: UTF8.self)
      guard let option = command.option(named: name) else {
        let names = command.options.map { $0.long }
        throw error(unknown("option", Array(nameBytes), among: names), command)
      }
      guard let value = option.value else {
        if attached != nil { throw error("option '\(option.long)' takes no value", command) }
        switch option.target {
        case .help: wantsHelp = true
        case .flag(let field): parsed.values[flag: field] = true
        case .version, .path, .number, .grouping, .sku, .time, .reference:
          throw error("option '\(option.long)' is described without a value", command)
        }
        parsed.given.append(option.long)
        continue
      }
      let given: [UInt8]
      if let attached {
        given = attached
      } else {
        guard index < arguments.count,
          arguments[index] == [UInt8(ascii: "-")] || arguments[index].first != UInt8(ascii: "-")
        else {
          // `--last -1` is a number out of range, not an option: say so.
          if value.kind == .count || value.kind == .orderNumber, index < arguments.count,
            arguments[index].dropFirst().allSatisfy(DecimalInteger.isDigit),
            arguments[index].count > 1
          {
            try check(arguments[index], value.kind, "'\(option.long)'", command)
          }
          throw error("missing value for '\(option.long) <\(value.name)>'", command)
        }
        given = arguments[index]
        index += 1
      }
      try check(given, value.kind, "'\(option.long)'", command)
      // Given twice, the last one counts.
      switch option.target {
      case .path(let field): parsed.values[path: field] = FilePath(given)
      case .number(let field): parsed.values[number: field] = CommandLineParser.number(given)
      case .grouping: parsed.values.grouping = Summary.Grouping(word: given)
      case .sku: parsed.values.sku = String(decoding: given, as: UTF8.self)
      case .reference: parsed.values.reference = Reference(given)
      case .time(let field):
        parsed.values[time: field] = TimeArgument.instant(given, now: now).map {
          TypedTime(text: given, instant: $0)
        }
      case .flag, .help, .version:
        throw error("option '\(option.long)' is described as a flag", command)
      }
      parsed.given.append(option.long)
    }
    if wantsHelp { return .help(command: command.name) }
    try checkConflicts(parsed, command)
    try checkOperands(parsed.operands, command)
    return .command(parsed)
  }

  private func checkConflicts(_ parsed: ParsedCommand, _ command: CommandDescription)
    throws(UsageError)
  {
    for conflict in command.conflicts {
      let (first, second) = (conflict.first, conflict.second)
      func given(_ side: Conflicting) -> Bool {
        switch side {
        case .option(let option): return parsed.given.contains(option.long)
        case .operand: return !parsed.operands.isEmpty
        }
      }
      if given(first) && given(second) {
        throw error("\(first.name) and \(second.name) can't be used together", command)
      }
    }
  }

  private func checkOperands(_ operands: [[UInt8]], _ command: CommandDescription)
    throws(UsageError)
  {
    let limit = command.operands.contains { $0.isRepeating } ? Int.max : command.operands.count
    if operands.count > limit {
      let extra = TerminalText.quoted(operands[limit])
      let most = limit == 1 ? ": one \(command.operands[0].name) at most" : ""
      throw error("unexpected argument \(extra)\(most)", command)
    }
    for (index, operand) in command.operands.enumerated() {
      let given =
        operand.isRepeating
        ? Array(operands.dropFirst(index)) : Array(operands.dropFirst(index).prefix(1))
      // Items are counted by CartSyntax, whose message says what an item looks like.
      if given.isEmpty, !operand.isOptional, operand.kind != .item {
        throw error("missing \(operand.name)", command)
      }
      for value in given { try check(value, operand.kind, operand.name, command) }
    }
  }

  /// A command's option given before any command (`shop --catalog F catalog`) is not
  /// unknown: it is in the wrong place, and the error says where it goes.
  private func checkNotBeforeItsCommand(_ first: [UInt8], _ arguments: [[UInt8]])
    throws(UsageError)
  {
    let name = String(decoding: first.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
    let owners = description.commands.filter { $0.option(named: name) != nil }
    guard let option = owners.first?.option(named: name) else { return }
    let given = arguments.dropFirst().lazy.compactMap {
      description.command(named: String(decoding: $0, as: UTF8.self))
    }.first
    let command = given.flatMap { given in owners.first { $0.name == given.name } } ?? owners[0]
    let value = option.value.map { " <\($0.name)>" } ?? ""
    // In the user's own words: `-q` is told as `-q`, not `--quiet`.
    let example = "\(description.program) \(command.name) \(name)\(value)"
    let others = owners.map(\.name).filter { $0 != command.name }
    let also =
      others.isEmpty
      ? "" : " (also an option of \(others.map { "'\($0)'" }.joined(separator: ", ")))"
    throw error(
      "option '\(name)' goes after its command, not before it: '\(example) ...'\(also)",
      given.flatMap { given in owners.contains { $0.name == given.name } ? given : nil })
  }

  /// Checks `value` as a `kind`, for which `what` (an option or operand name) was given.
  private func check(
    _ value: [UInt8], _ kind: ValueKind, _ what: String, _ command: CommandDescription?
  ) throws(UsageError) {
    switch kind {
    case .path:
      if value.isEmpty { throw error("\(what) needs a non-empty path", command) }
    case .count:
      if CommandLineParser.number(value) == nil {
        let quoted = TerminalText.quoted(value)
        // Digits alone, not all zeros, that no count holds: say the bound, not "1 or more".
        let tooLarge =
          !value.isEmpty && value.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
          && value.contains { $0 != UInt8(ascii: "0") }
        throw error(
          tooLarge
            ? "\(what) must be at most \(Int.max), not \(quoted)"
            : "\(what) must be how many orders to list (1 or more), not \(quoted)", command)
      }
    case .orderNumber:
      if CommandLineParser.number(value) == nil {
        let quoted = TerminalText.quoted(value)
        throw error("\(what) must be an order number such as 1001, not \(quoted)", command)
      }
    case .time:
      if TimeArgument.timestamp(value, now: now) == nil {
        let quoted = TerminalText.quoted(value)
        throw error("\(what) must be \(TimeArgument.forms), not \(quoted)", command)
      }
    case .item:
      return
    case .reference:
      if !Reference.isValid(value) {
        let quoted = TerminalText.quoted(value)
        throw error(
          "\(what) must be 1-\(Reference.maximumLength) letters, digits, '-', '_', '.', ':' or "
            + "'/', not \(quoted)", command)
      }
    case .sku:
      if !SKU.isValid(value) {
        let quoted = TerminalText.quoted(value)
        throw error(
          "\(what) must be a SKU: 1-\(SKU.maximumLength) letters, digits, '-', '_' or '.', not "
            + quoted, command)
      }
    case .command:
      let names = description.commands.map { $0.name }
      if !names.contains(String(decoding: value, as: UTF8.self)) {
        throw error(unknown("command", value, among: names), command)
      }
    case .word(let words):
      if !words.contains(String(decoding: value, as: UTF8.self)) {
        let expected = "expected " + Suggestion.either(words)
        throw error(unknown(what.lowercased(), value, among: words, else: expected), command)
      }
    }
  }

  /// A whole number from 1 that fits `Int`, in decimal digits; no sign, no spaces.
  static func number(_ digits: [UInt8]) -> Int? {
    CommandLineParser.counting.value(digits)
  }

  private static let counting = DecimalInteger(
    sign: .none, leadingZeros: .allowed, range: 1...Int.max)

  /// `unknown command 'plcae': did you mean 'place'?`
  private func unknown(
    _ what: String, _ typed: [UInt8], among names: [String], else otherwise: String? = nil
  ) -> String {
    let text = "unknown \(what) \(TerminalText.quoted(typed))"
    guard let near = Suggestion.nearest(to: String(decoding: typed, as: UTF8.self), among: names)
    else { return otherwise.map { "\(text): \($0)" } ?? text }
    return text + ": did you mean '\(near)'?"
  }

  private func error(_ reason: String, _ command: CommandDescription?) -> UsageError {
    UsageError(reason: reason, command: command, in: description)
  }
}

/// The nearest of some names to a mistyped one, as git and swift-argument-parser suggest it:
/// by edit distance, with a swap of two neighbours counting as one edit. The rule is
/// ``Spelling``'s, which mistyped SKUs share.
enum Suggestion {
  static func nearest(to typed: String, among names: [String]) -> String? {
    // A start of exactly one name (`cat` for `catalog`) means that name.
    let starting = names.filter { $0.hasPrefix(typed) && $0 != typed }
    if typed.count >= 3, starting.count == 1 { return starting.first }
    return Spelling.nearest(to: typed, among: names)
  }

  /// `bash, zsh or fish`. A plain loop: `joined` on a slice asked the runtime for generic
  /// metadata, 90k instructions of every start-up (callgrind), since `--by`'s help uses it.
  static func either(_ words: [String]) -> String {
    var text = ""
    for index in 0..<words.count {
      if index > 0 { text += index == words.count - 1 ? " or " : ", " }
      text += words[index]
    }
    return text
  }
}
