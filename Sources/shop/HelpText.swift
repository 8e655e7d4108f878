/// What `--help` prints, laid out as swift-argument-parser lays out its help.
enum HelpText {
  static let version = "0.1.0"

  static func usage(_ command: Command?) -> String {
    switch command {
    case nil: return "shop <command> [options]"
    case .place: return "shop place [options] SKU=QTY..."
    case .batch: return "shop batch [options] [FILE]"
    case .orders: return "shop orders [--orders PATH] [--json | --count]"
    case .catalog: return "shop catalog [--catalog PATH] [--json]"
    }
  }

  static func text(for command: Command?) -> String {
    switch command {
    case nil: return top
    case .place: return place
    case .batch: return batch
    case .orders: return orders
    case .catalog: return catalog
    }
  }

  private static let placementOptions = """
      -q, --quiet             Report nothing on standard output (errors still go to
                              standard error).
      --json                  Report one JSON object per line.
      --catalog <path>        The catalog, a CSV file of sku,price lines.
                              (default: $SHOP_CATALOG, else pen 30 and lamp 190)
      --orders <path>         The orders file, JSON Lines, shared safely between
                              processes.
                              (default: $SHOP_ORDERS, else
                              $XDG_DATA_HOME/shop/orders.jsonl)
      --memory                Keep orders in memory for this run only.
      -h, --help              Show help information.
    """

  private static let top = """
    OVERVIEW: Place orders from the command line; every order is on disk before it is
    reported.

    USAGE: \(usage(nil))

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      place                   Place one order.
      batch                   Place one order per line of a file or standard input.
      orders                  List the saved orders.
      catalog                 List the catalog's SKUs and prices.

      See 'shop help <subcommand>' for detailed help.

    """

  private static let place = """
    OVERVIEW: Place one order.

    Prints 'order NUMBER for PAYABLE', or 'no SKU, ...' when the catalog lacks an item
    (exit 1, nothing saved). A total of 200 or more pays 10% less.

    USAGE: \(usage(.place))

    ARGUMENTS:
      <SKU=QTY>               An item: SKU is 1-64 letters, digits, '-', '_' or '.';
                              QTY is a whole number from 1 to 1000000. A SKU given
                              twice adds up. Use '--' before items that start with '-'.

    OPTIONS:
    \(placementOptions)

    """

  private static let batch = """
    OVERVIEW: Place one order per line of a file or standard input.

    Each line is 'SKU=QTY ...' as for 'shop place'; blank lines and lines starting
    with '#' are skipped. Reports one line per order as it is saved; a bad line is
    reported as 'line N: ...', skipped, and makes the exit status 1.

    USAGE: \(usage(.batch))

    ARGUMENTS:
      <FILE>                  The orders to place; '-' or none reads standard input.

    OPTIONS:
    \(placementOptions)

    """

  private static let orders = """
    OVERVIEW: List the saved orders, oldest first.

    USAGE: \(usage(.orders))

    OPTIONS:
      --orders <path>         The orders file.
                              (default: $SHOP_ORDERS, else
                              $XDG_DATA_HOME/shop/orders.jsonl)
      --json                  Print each order as stored, one JSON object per line.
      --count                 Print only the number of saved orders.
      -h, --help              Show help information.

    """

  private static let catalog = """
    OVERVIEW: List the catalog's SKUs and prices, sorted by SKU.

    USAGE: \(usage(.catalog))

    OPTIONS:
      --catalog <path>        The catalog, a CSV file of sku,price lines.
                              (default: $SHOP_CATALOG, else pen 30 and lamp 190)
      --json                  Print one JSON object per SKU.
      -h, --help              Show help information.

    """
}
