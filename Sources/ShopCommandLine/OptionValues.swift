import ShopConventions
import ShopCore

/// Where the parser puts an option's value: a field of ``OptionValues`` named by a case of
/// its kind's enum, so a misspelt target does not compile and no option is looked up by its
/// name. Enums rather than key paths: the runtime builds each key path on first use, and the
/// dozen of them were 40% of the instructions of a `shop place`.
enum OptionTarget: Sendable, Equatable {
  /// A flag: the field becomes true when the option is given.
  case flag(OptionValues.Flag)
  /// A path, kept as its bytes.
  case path(OptionValues.Path)
  /// A whole number from 1.
  case number(OptionValues.Number)
  /// How a summary groups its rows, one of ``ShopCore/Summary/Grouping/words``.
  case grouping
  /// A SKU.
  case sku
  /// A date or a UTC time, with the text typed.
  case time(OptionValues.Time)
  /// An order's reference.
  case reference
  /// `-h`, `--help`: show help instead of running.
  case help
  /// `--version`, before any command.
  case version
}

/// Every option's value once parsed, each in a field of its own, set and read through its
/// kind's enum. Each subscript is an exhaustive `switch`: a case added to a kind without its
/// field does not compile, and no count is kept by hand, so no argument can reach a trap.
package struct OptionValues: Equatable, Sendable {
  enum Flag: CaseIterable, Sendable { case quiet, json, memory, explain, count, csv }
  package enum Path: CaseIterable, Sendable { case catalog, orders }
  enum Number: CaseIterable, Sendable { case last }
  enum Time: CaseIterable, Sendable { case since, until }

  private var quiet = false
  private var json = false
  private var memory = false
  private var explain = false
  private var count = false
  private var csv = false
  private var catalog: FilePath?
  private var orders: FilePath?
  private var last: Int?
  private var since: TypedTime?
  private var until: TypedTime?
  /// `--by`; nil when not given.
  var grouping: Summary.Grouping?
  var sku: String?
  var reference: Reference?

  /// True for the flags given.
  subscript(flag flag: Flag) -> Bool {
    get {
      switch flag {
      case .quiet: quiet
      case .json: json
      case .memory: memory
      case .explain: explain
      case .count: count
      case .csv: csv
      }
    }
    set {
      switch flag {
      case .quiet: quiet = newValue
      case .json: json = newValue
      case .memory: memory = newValue
      case .explain: explain = newValue
      case .count: count = newValue
      case .csv: csv = newValue
      }
    }
  }

  subscript(path path: Path) -> FilePath? {
    get {
      switch path {
      case .catalog: catalog
      case .orders: orders
      }
    }
    set {
      switch path {
      case .catalog: catalog = newValue
      case .orders: orders = newValue
      }
    }
  }

  subscript(number number: Number) -> Int? {
    get {
      switch number {
      case .last: last
      }
    }
    set {
      switch number {
      case .last: last = newValue
      }
    }
  }

  subscript(time time: Time) -> TypedTime? {
    get {
      switch time {
      case .since: since
      case .until: until
      }
    }
    set {
      switch time {
      case .since: since = newValue
      case .until: until = newValue
      }
    }
  }
}

/// A time as typed (for messages) and the instant it names, to the last digit typed.
struct TypedTime: Equatable, Sendable {
  let text: [UInt8]
  let instant: TimeArgument.Instant
  /// The whole second orders are compared with.
  var timestamp: Timestamp { instant.timestamp }
}

extension Summary.Grouping {
  /// The word `--by` takes for each grouping: nil for none, the default, which has no word.
  /// A `switch`, so a grouping added to the core has a word here or does not compile.
  package var word: String? {
    switch self {
    case .none: nil
    case .day: "day"
    case .sku: "sku"
    }
  }

  /// `day`, `sku`: the words `--by` is checked against, made from ``word``.
  package static var words: [String] {
    var words: [String] = []
    for grouping in allCases {
      if let word = grouping.word { words.append(word) }
    }
    return words
  }

  /// The grouping `word` names; nil for a word `--by` does not take (the parser has already
  /// refused those, by ``words``).
  init?(word: [UInt8]) {
    guard
      let named = Summary.Grouping.allCases.first(where: {
        $0.word?.utf8.elementsEqual(word) == true
      })
    else { return nil }
    self = named
  }
}
