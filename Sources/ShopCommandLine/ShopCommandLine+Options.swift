import ShopCore

// Every option of `shop`, declared once; each command's options are an enum of their own
// (ShopCommandLine+Commands.swift).

extension OptionDescription {
  package static let help = OptionDescription(
    short: "-h", long: "--help", help: "Show help information.", target: .help)
  package static let version = OptionDescription(
    long: "--version", help: "Show the version, release or debug, and if PostgreSQL works.",
    target: .version)
  package static let quiet = OptionDescription.flag(
    short: "-q", "--quiet",
    help: "Report nothing on standard output; errors still go to standard error.", sets: .quiet)
  package static let json = OptionDescription.flag(
    "--json", help: "Report one JSON object per line.", sets: .json)
  package static let memory = OptionDescription.flag(
    "--memory", help: "Keep orders in memory for this run only.", sets: .memory)
  package static let count = OptionDescription.flag(
    "--count", help: "Print only how many records there are, orders and voids alike.",
    sets: .count)
  package static let last = OptionDescription.count(
    "--last", name: "n", help: "List only the newest N orders.", sets: .last)
  package static let explain = OptionDescription.flag(
    "--explain",
    help: """
      Print which catalog, store and report this command line would use, and why; read, \
      write and connect to nothing.
      """, sets: .explain)

  package static let reference = OptionDescription(
    long: "--ref", value: ValueDescription(name: "ref", kind: .reference),
    help: "The order's ref: 1-64 letters, digits, '-', '_', '.', ':' or '/'. Placed at most once.",
    target: .reference)

  /// `void --ref`: the same value as `place --ref`, given to a void.
  static let voidReference = OptionDescription(
    long: "--ref", value: ValueDescription(name: "ref", kind: .reference),
    help: "The void's ref, as for place: a rerun under it records nothing new.",
    target: .reference)

  /// `orders --ref`: the same value as `place --ref`, sought rather than given.
  package static let referenceSought = OptionDescription(
    long: "--ref", value: ValueDescription(name: "ref", kind: .reference),
    help: "List only the order that holds this ref (status 1 when none does).",
    target: .reference)

  package static let catalog = OptionDescription.path(
    "--catalog", name: "path",
    help: "The catalog, a CSV file of sku,price lines (a header may name more columns).",
    defaults: ["$SHOP_CATALOG", OptionDescription.builtInCatalog],
    sets: .catalog)

  /// The last default of `--catalog`, which help and the manual follow with the built-in prices
  /// the root gives them (``CommandLineDescription/telling(builtInPrices:)``).
  static let builtInCatalog = "the built-in catalog"

  package static let orders = OptionDescription.path(
    "--orders", name: "path-or-uri",
    help: "The orders file, or a postgresql:// URI (PostgreSQL build).",
    defaults: [
      "$SHOP_ORDERS", "$XDG_DATA_HOME/shop/orders.jsonl", "~/.local/share/shop/orders.jsonl",
    ], sets: .orders)

  package static let by = OptionDescription(
    long: "--by", value: ValueDescription(name: "group", kind: .word(Summary.Grouping.words)),
    help: "One line per day or per SKU: \(Suggestion.either(Summary.Grouping.words)).",
    target: .grouping)
  package static let csv = OptionDescription.flag(
    "--csv",
    help: """
      Print CSV (RFC 4180, CRLF line ends) with a header: number, placedAt, items, total, \
      payable, ref, voids, voidedBy.
      """, sets: .csv)

  /// `orders --sku`: the orders that hold a SKU.
  package static let skuSought = OptionDescription(
    long: "--sku", value: ValueDescription(name: "sku", kind: .sku),
    help: "List only the orders that hold this SKU.", target: .sku)

  /// `summary --sku`: one SKU's sums.
  package static let skuSummed = OptionDescription(
    long: "--sku", value: ValueDescription(name: "sku", kind: .sku),
    help: "Print only this SKU's line of --by sku (zeros when none was sold).",
    target: .sku)

  package static let since = OptionDescription.time(
    "--since",
    help: """
      Only orders placed at TIME or later: a date (2026-12-01: from its midnight, UTC), an \
      RFC 3339 time (2026-12-01T09:30:00Z, 2026-12-01T15:00:00+05:30, with a fraction, as \
      date -Iseconds and toISOString() write), or today or yesterday (UTC days).
      """, sets: .since)

  package static let until = OptionDescription.time(
    "--until",
    help: """
      Only orders placed before TIME, which is left out: --since 2026-12-01 --until \
      2026-12-02 is the one day.
      """, sets: .until)
}

extension OperandDescription {
  package static let numbers = OperandDescription(
    name: "NUMBER", kind: .orderNumber, isOptional: true, isRepeating: true,
    help: "The number of an order to list, such as 1001.")

  static let voided = OperandDescription(
    name: "NUMBER", kind: .orderNumber, isOptional: false, isRepeating: false,
    help: "The number of the order to take back, such as 1001.")

  package static let items = OperandDescription(
    name: "SKU=QTY", kind: .item, isOptional: false, isRepeating: true,
    help: """
      An item: SKU is 1-64 letters, digits, '-', '_' or '.'; QTY is a whole number from 1 to \
      1000000. A SKU given twice adds up. Use '--' before items that start with '-'.
      """)
}
