/// What a shell offers where a value or an operand goes, decided once from its kind: each
/// shell's script only spells the offer in its own syntax.
enum CompletionOffer: Equatable {
  case files
  /// The SKUs of the catalog the line would use.
  case skus
  case words([String])
  /// Nothing to offer: any text may go there.
  case nothing

  /// For an option's value: a path or one of a choice's words; nil for a flag.
  init(value kind: ValueKind?) {
    switch kind {
    case .path?: self = .files
    case .word(let words)?: self = .words(words)
    default: self = .nothing
    }
  }

  /// For an operand, which may also be a cart's item or a command's name.
  init(operand kind: ValueKind, in description: CommandLineDescription) {
    switch kind {
    case .item: self = .skus
    case .command: self = .words(description.commands.map(\.name))
    case .path, .word, .count, .orderNumber, .time, .reference, .sku: self.init(value: kind)
    }
  }
}
