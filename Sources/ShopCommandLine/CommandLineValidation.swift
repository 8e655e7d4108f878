import ShopCore

/// What a description must hold to be parsed, helped and completed as it says, checked the
/// way swift-argument-parser's validators check a command: a test asks that `.shop` has no
/// problem, so a mistake in the description fails the build's tests, not a user.
extension CommandLineDescription {
  /// Each problem in one line; empty when the description is sound.
  var problems: [String] {
    var problems = CommandLineDescription.duplicates(options.flatMap(\.names))
      .map { "\(program): option \($0) is declared twice" }
    problems += CommandLineDescription.duplicates(commands.map(\.name))
      .map { "command \($0) is declared twice" }
    for option in options { problems += option.problems(in: program) }
    for command in commands { problems += command.problems }
    let (listing, option) = skuListing
    if command(named: listing)?.options.contains(option) != true {
      problems.append(
        "the SKU listing \(listing) \(option.long) is not a declared command and option")
    }
    return problems
  }

  static func duplicates(_ names: [String]) -> [String] {
    var seen: [String] = []
    var twice: [String] = []
    for name in names {
      if seen.contains(name), !twice.contains(name) { twice.append(name) }
      seen.append(name)
    }
    return twice
  }
}

extension CommandDescription {
  var problems: [String] {
    var problems = CommandLineDescription.duplicates(options.flatMap(\.names))
      .map { "\(name): option \($0) is declared twice" }
    for option in options { problems += option.problems(in: name) }
    for conflict in conflicts {
      let (first, second) = (conflict.first, conflict.second)
      for side in [first, second] where !declares(side) {
        problems.append(
          "\(name): the conflict \(first.name)/\(second.name) names \(side.name), "
            + "which \(name) does not declare")
      }
    }
    if let repeating = operands.firstIndex(where: \.isRepeating), repeating != operands.count - 1 {
      problems.append("\(name): only the last operand may repeat")
    }
    return problems
  }

  private func declares(_ side: Conflicting) -> Bool {
    switch side {
    case .option(let option): return options.contains { $0.long == option.long }
    case .operand(let operand): return operands.contains { $0.name == operand.name }
    }
  }
}

extension OptionDescription {
  func problems(in owner: String) -> [String] {
    var problems: [String] = []
    if !long.hasPrefix("--") { problems.append("\(owner): \(long) must start with --") }
    if let short, short.count != 2 || !short.hasPrefix("-") {
      problems.append("\(owner): \(short) must be one letter after -")
    }
    if value == nil, !defaults.isEmpty {
      problems.append("\(owner): \(long) is a flag and can't have defaults")
    }
    let fits: Bool
    switch (target, value?.kind) {
    case (.flag, nil), (.help, nil), (.version, nil): fits = true
    case (.path, .path?), (.number, .count?), (.number, .orderNumber?), (.sku, .sku?),
      (.time, .time?), (.reference, .reference?):
      fits = true
    case (.grouping, .word(let words)?): fits = words == Summary.Grouping.words
    default: fits = false
    }
    if !fits { problems.append("\(owner): \(long)'s value does not fit where it goes") }
    return problems
  }
}
