import ShopConventions
import ShopCore

/// What a program accepts, written once as a value: its commands, their options and operands,
/// and their help. The parser, the usage lines, `--help`, the completion scripts and the manual
/// are all made from one of these, so they can't disagree. `shop`'s own is
/// ``CommandLineDescription/shop``; tests build others.
package struct CommandLineDescription: Sendable {
  package var program: String
  package var version: String
  /// One line: what the program is for.
  var abstract: String
  var discussion: String
  /// The program's own options, before any command: `--help`, `--version`.
  var options: [OptionDescription]
  var commands: [CommandDescription]
  /// Where `place` finds its SKUs for completion: `program command option VALUE`, whose output
  /// has one SKU at the start of each line. The option is the declared one, not its name.
  var skuListing: (command: String, option: OptionDescription)
  var environment: [Entry]
  var files: [Entry]
  var exitStatuses: [Entry]

  package func command(named name: String) -> CommandDescription? {
    commands.first { $0.name == name }
  }

  /// Every value given anywhere in `arguments` to an option that sets `field` in any command
  /// (`--orders PATH`, `--orders=PATH`), read without parsing: for a command line the parser
  /// refused, so that its error is never printed into the file such a value names.
  package func values(of field: OptionValues.Path, in arguments: [[UInt8]]) -> [[UInt8]] {
    // Loops, not key paths: the runtime builds a key path on first use (callgrind: 40k
    // instructions of every start-up).
    var names: [[UInt8]] = []
    func add(_ options: [OptionDescription]) {
      for option in options where option.target == .path(field) {
        for name in option.names { names.append(Array(name.utf8)) }
      }
    }
    add(options)
    for command in commands { add(command.options) }
    var values: [[UInt8]] = []
    for (index, argument) in arguments.enumerated() {
      for name in names {
        if argument == name, index + 1 < arguments.count {
          values.append(arguments[index + 1])
        } else if argument.count > name.count, argument.starts(with: name + [UInt8(ascii: "=")]) {
          values.append(Array(argument[(name.count + 1)...]))
        }
      }
    }
    return values
  }
}

/// A name and what it means: a variable, a file, an exit status.
struct Entry: Sendable, Equatable {
  let name: String
  let text: String

  init(name: String, text: String) {
    self.name = name
    self.text = text
  }

  /// An exit status, named by its number.
  init(_ status: ExitStatus, _ text: String) {
    self.init(name: "\(status.rawValue)", text: text)
  }
}

/// One command and everything that may follow it.
package struct CommandDescription: Sendable {
  var name: String
  var abstract: String
  /// Paragraphs after the abstract, for help and the manual; may be empty.
  var discussion: String
  var options: [OptionDescription]
  var operands: [OperandDescription]
  /// Pairs that can't be given together, each an option or operand of this command (checked
  /// by ``CommandLineDescription/problems``).
  var conflicts: [Conflict]

  /// Whether an argument before `--` is this command's help flag itself.
  func asksForHelp(_ arguments: [[UInt8]]) -> Bool {
    // Loops, not a key path, which the runtime would build on every run.
    for argument in arguments {
      if argument == Array("--".utf8) { return false }
      for option in options where option.target == .help {
        for name in option.names where argument == Array(name.utf8) { return true }
      }
    }
    return false
  }

  func option(named name: String) -> OptionDescription? {
    options.first { $0.short == name || $0.long == name }
  }
}

/// Two sides that can't be given together. A struct rather than a tuple: an array of tuples
/// costs the runtime their generic metadata at every start-up (callgrind).
struct Conflict: Sendable {
  var first: Conflicting
  var second: Conflicting

  init(_ first: Conflicting, _ second: Conflicting) {
    self.first = first
    self.second = second
  }
}

/// One side of a conflict: an option, or an operand such as `NUMBER`.
enum Conflicting: Sendable {
  case option(OptionDescription)
  case operand(OperandDescription)

  /// `--json`, `NUMBER`.
  var name: String {
    switch self {
    case .option(let option): return option.long
    case .operand(let operand): return operand.name
    }
  }
}

/// One option: `-q, --quiet` or `--orders <path>`.
package struct OptionDescription: Sendable, Equatable {
  var short: String?
  package var long: String
  /// The name as an explanation cites it: `-q` where there is a short one.
  package var shortest: String { short ?? long }
  /// nil for a flag.
  var value: ValueDescription?
  var help: String
  /// What is used when the option is absent, in the order they are tried.
  var defaults: [String] = []
  /// Where the parser puts what was given.
  var target: OptionTarget

  /// The same option, told in another command's words: one name, declared once.
  func helping(_ help: String) -> OptionDescription {
    var described = self
    described.help = help
    return described
  }

  /// A flag that sets `field`.
  static func flag(
    short: String? = nil, _ long: String, help: String,
    sets field: OptionValues.Flag
  ) -> OptionDescription {
    OptionDescription(short: short, long: long, value: nil, help: help, target: .flag(field))
  }

  /// An option whose value is a path, kept in `field`.
  static func path(
    _ long: String, name: String, help: String, defaults: [String] = [],
    sets field: OptionValues.Path
  ) -> OptionDescription {
    OptionDescription(
      long: long, value: ValueDescription(name: name, kind: .path), help: help,
      defaults: defaults, target: .path(field))
  }

  /// An option whose value is a date or UTC time, kept in `field`.
  static func time(
    _ long: String, help: String, sets field: OptionValues.Time
  ) -> OptionDescription {
    OptionDescription(
      long: long, value: ValueDescription(name: "time", kind: .time), help: help,
      target: .time(field))
  }

  /// An option whose value is a count (`--last 3`), kept in `field`.
  static func count(
    _ long: String, name: String, help: String,
    sets field: OptionValues.Number
  ) -> OptionDescription {
    OptionDescription(
      long: long, value: ValueDescription(name: name, kind: .count), help: help,
      target: .number(field))
  }

  var names: [String] { (short.map { [$0] } ?? []) + [long] }

  /// `-q, --quiet` or `--orders <path>`, as help and the manual show it.
  var label: String {
    let value = self.value.map { " <\($0.name)>" } ?? ""
    return names.joined(separator: ", ") + value
  }
}

/// The value an option takes.
struct ValueDescription: Sendable, Equatable {
  /// As shown in `<...>`: `path`, `n`.
  var name: String
  var kind: ValueKind
}

/// What a value or operand is: how it is checked and how a shell completes it.
enum ValueKind: Sendable, Equatable {
  /// A file name; its bytes are kept exactly.
  case path
  /// How many, a whole number from 1 that fits `Int` (`--last 3`).
  case count
  /// An order's number, a whole number from 1 that fits `Int` (`1001`).
  case orderNumber
  /// A date or a UTC time in ISO 8601, as ``TimeArgument`` reads it.
  case time
  /// `SKU=QTY`, checked by CartSyntax; the SKUs are completed from the catalog.
  case item
  /// The name of one of the program's commands.
  case command
  /// One of these words.
  case word([String])
  /// An order's reference, checked by ``Reference``.
  case reference
  /// A SKU, checked by ``ShopCore/SKU``.
  case sku
}

/// The operands after the options: `SKU=QTY...`, `[FILE]`.
struct OperandDescription: Sendable, Equatable {
  /// As shown in usage lines: `SKU=QTY`, `FILE`.
  var name: String
  var kind: ValueKind
  var isOptional: Bool
  var isRepeating: Bool
  var help: String

  /// `SKU=QTY...`, `[FILE]`, `[NUMBER...]`.
  var usage: String {
    let name = self.name + (isRepeating ? "..." : "")
    return isOptional ? "[\(name)]" : name
  }
}

extension String {
  /// The first sentence, for the one-line descriptions of completion scripts.
  var firstSentence: String {
    let words = split(separator: " ", omittingEmptySubsequences: false)
    guard let end = words.firstIndex(where: { $0.hasSuffix(".") }) else { return self }
    return words[...end].joined(separator: " ")
  }
}
