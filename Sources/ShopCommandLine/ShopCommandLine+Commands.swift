import ShopCore

// Each command's options, as the cases of an enum of its own, in the order help lists them.
// Two exhaustive `switch`es complete an option: `described` here (what the parser, help, the
// manual and the completions know of it) and its meaning in Invocation+Parsing.swift (what it
// sets in the command's options). A case added to one of these enums and not completed in
// both places does not compile.

/// A command's options: the cases of its enum, each described by an exhaustive `switch`.
protocol CommandOptions: CaseIterable, RawRepresentable<Int> {
  var described: OptionDescription { get }
}

extension CommandOptions {
  /// Every case described, in the order declared. Counted by raw value (0, 1, ...) rather than
  /// read from `allCases`: an array of each enum would cost the runtime its generic metadata,
  /// nine of them at every start-up (callgrind).
  static var described: [OptionDescription] {
    var options: [OptionDescription] = []
    var raw = 0
    while let option = Self(rawValue: raw) {
      options.append(option.described)
      raw += 1
    }
    return options
  }
}

/// The options of `shop place`.
enum PlaceOption: Int, CommandOptions {
  case reference, quiet, json, catalog, orders, memory, explain, help

  var described: OptionDescription {
    switch self {
    case .reference: .reference
    case .quiet: .quiet
    case .json: .json
    case .catalog: .catalog
    case .orders: .orders
    case .memory: .memory
    case .explain: .explain
    case .help: .help
    }
  }
}

/// The options of `shop batch`: `place`'s but `--ref` (a line's `@REF`), with `-q` saying
/// where the lines not placed go.
enum BatchOption: Int, CommandOptions {
  case quiet, json, catalog, orders, memory, explain, help

  var described: OptionDescription {
    switch self {
    case .quiet:
      .quiet.helping(
        """
        Report nothing on standard output; errors, and the lines not placed, still go to \
        standard error.
        """)
    case .json: .json
    case .catalog: .catalog
    case .orders: .orders
    case .memory: .memory
    case .explain: .explain
    case .help: .help
    }
  }
}

/// The options of `shop void`.
enum VoidOption: Int, CommandOptions {
  case reference, quiet, json, orders, explain, help

  var described: OptionDescription {
    switch self {
    case .reference: .voidReference
    case .quiet: .quiet.helping("Report nothing on standard output; the exit status tells.")
    case .json: .json.helping("Report the void as stored, as one JSON object.")
    case .orders: .orders
    case .explain: .explain
    case .help: .help
    }
  }
}

/// The options of `shop orders`.
enum OrdersOption: Int, CommandOptions {
  case orders, json, csv, count, last, since, until, reference, sku, explain, help

  var described: OptionDescription {
    switch self {
    case .orders: .orders
    case .json: .json.helping("Print each order as stored, one JSON object per line.")
    case .csv: .csv
    case .count: .count
    case .last: .last
    case .since: .since
    case .until: .until
    case .reference: .referenceSought
    case .sku: .skuSought
    case .explain: .explain
    case .help: .help
    }
  }
}

/// The options of `shop summary`.
enum SummaryOption: Int, CommandOptions {
  case orders, since, until, by, sku, json, csv, explain, help

  var described: OptionDescription {
    switch self {
    case .orders: .orders
    case .since: .since
    case .until: .until
    case .by: .by
    case .sku: .skuSummed
    case .json: .json.helping("Print one JSON object per line.")
    case .csv: .csv.helping("Print CSV (RFC 4180, CRLF line ends) with a header naming the sums.")
    case .explain: .explain
    case .help: .help
    }
  }
}

/// The options of `shop catalog`.
enum CatalogOption: Int, CommandOptions {
  case catalog, json, explain, help

  var described: OptionDescription {
    switch self {
    case .catalog: .catalog
    case .json: .json.helping("Print one JSON object per SKU.")
    case .explain: .explain
    case .help: .help
    }
  }
}

/// The options of `shop help`: only its own help. Each command has an enum of its own, so an
/// option added to one is given a meaning there, not shared unseen with the others.
enum HelpCommandOption: Int, CommandOptions {
  case help

  var described: OptionDescription {
    switch self {
    case .help: .help
    }
  }
}

/// The options of `shop completions`.
enum CompletionsOption: Int, CommandOptions {
  case help

  var described: OptionDescription {
    switch self {
    case .help: .help
    }
  }
}

/// The options of `shop manual`.
enum ManualOption: Int, CommandOptions {
  case help

  var described: OptionDescription {
    switch self {
    case .help: .help
    }
  }
}
