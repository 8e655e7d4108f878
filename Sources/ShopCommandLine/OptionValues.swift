import ShopAdapters
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
  /// One of some words.
  case word(OptionValues.Word)
  /// A date or a UTC time, with the text typed.
  case time(OptionValues.Time)
  /// An order's reference.
  case reference(OptionValues.Ref)
  /// `-h`, `--help`: show help instead of running.
  case help
  /// `--version`, before any command.
  case version
}

/// Every option's value once parsed, each where its description's target puts it: one store
/// per kind of value, indexed by that kind's fields, so a field is set and read by its enum
/// case and a new option of a kind needs only a new case (and the store's count raised).
package struct OptionValues: Equatable, Sendable {
  enum Flag: Int, CaseIterable, Sendable { case quiet, json, memory, explain, count, csv }
  package enum Path: Int, CaseIterable, Sendable { case catalog, orders }
  enum Number: Int, CaseIterable, Sendable { case last }
  enum Word: Int, CaseIterable, Sendable { case by, sku }
  enum Time: Int, CaseIterable, Sendable { case since, until }
  enum Ref: Int, CaseIterable, Sendable { case reference }

  /// True for the flags given.
  var flags = OptionFields<Flag, 6, Bool>(repeating: false)
  var paths = OptionFields<Path, 2, FilePath?>(repeating: nil)
  var numbers = OptionFields<Number, 1, Int?>(repeating: nil)
  var words = OptionFields<Word, 2, String?>(repeating: nil)
  var times = OptionFields<Time, 2, TypedTime?>(repeating: nil)
  var references = OptionFields<Ref, 1, Reference?>(repeating: nil)
}

/// One value for each case of `Field`, whose raw values are 0 up to `count`, kept inline:
/// a dictionary or an array would have the runtime build its generic type's metadata on
/// first use, a tenth of the instructions of a `shop place`.
struct OptionFields<Field: RawRepresentable<Int> & CaseIterable, let count: Int, Value> {
  private var values: InlineArray<count, Value>

  init(repeating value: Value) {
    values = InlineArray(repeating: value)
  }

  subscript(field: Field) -> Value {
    get { values[field.rawValue] }
    set { values[field.rawValue] = newValue }
  }
}

extension OptionFields: Equatable where Value: Equatable {
  static func == (left: Self, right: Self) -> Bool {
    Field.allCases.allSatisfy { left[$0] == right[$0] }
  }
}

extension OptionFields: Sendable where Value: Sendable {}

/// A time as typed (for messages) and the instant it names.
struct TypedTime: Equatable, Sendable {
  let text: [UInt8]
  let timestamp: Timestamp
}
