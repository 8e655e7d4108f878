import ShopConventions
import ShopCore

/// The one description of `shop`'s command line; everything a user reads about it is made from
/// here (the tables of docs/commands.md are checked against it by the tests). Each command's
/// options are the cases of its enum (ShopCommandLine+Commands.swift).
extension CommandLineDescription {
  package static let shop = CommandLineDescription(
    program: "shop",
    version: "0.1.0",
    abstract: "Place orders from the command line; every order is on disk before it is reported.",
    discussion: "",
    options: [.version, .help],
    commands: [
      CommandDescription(
        name: "place",
        abstract: "Place one order.",
        discussion: """
          Prints 'order NUMBER for PAYABLE', or 'no SKU, ...' when the catalog lacks an item \
          (exit 1, nothing saved), with '(did you mean SKU?)' after one close to a SKU it has. \
          A total of 200 or more pays 10% less. With --ref, an order the store already holds \
          under that ref is not placed again: the same items print 'order NUMBER for PAYABLE \
          (already placed)' (exit 0), other items 'ref REF is order NUMBER, with other items' \
          (exit 1).
          """,
        options: PlaceOption.described,
        operands: [.items],
        conflicts: [
          Conflict(.option(.quiet), .option(.json)), Conflict(.option(.memory), .option(.orders)),
        ]),
      CommandDescription(
        name: "batch",
        abstract: "Place one order per line of a file or standard input.",
        discussion: """
          Each line is 'SKU=QTY ...' as for 'shop place'; blank lines and lines starting with \
          '#' are skipped. A line may start with '@REF', the order's ref, as 'place --ref REF'. \
          Reports one line per order as it is saved. The report of a line not placed starts \
          with 'line N: ' (with --quiet it goes to standard error), and makes the exit status 1.
          """,
        options: BatchOption.described,
        operands: [
          OperandDescription(
            name: "FILE", kind: .path, isOptional: true, isRepeating: false,
            help: "The orders to place; '-' or none reads standard input.")
        ],
        conflicts: [
          Conflict(.option(.quiet), .option(.json)), Conflict(.option(.memory), .option(.orders)),
        ]),
      CommandDescription(
        name: "void",
        abstract: "Take an order back: record a void of it, kept in the history with its time.",
        discussion: """
          The void is a record of its own, numbered after the last order, that names the \
          order it takes back; nothing is deleted or rewritten. Prints 'order NUMBER void \
          (void N)' once the void is saved. An order already void prints 'order NUMBER \
          already void (void N)' (exit 0), so a script may run it again; a NUMBER with no \
          record prints 'no order NUMBER' (exit 1); a void is not taken back (exit 1). With \
          --ref, a void the store already holds under that ref is answered as already void, \
          and a ref another record holds is refused (exit 1).
          """,
        options: VoidOption.described,
        operands: [.voided],
        conflicts: [Conflict(.option(.quiet), .option(.json))]),
      CommandDescription(
        name: "orders",
        abstract: "List the saved orders, oldest first.",
        discussion: """
          With NUMBERs, lists only those orders; with --last N, only the newest N; with \
          --ref REF, the order that holds REF; with --count, prints only how many orders are \
          saved. --since and --until keep only the \
          orders placed in that time, for every form but NUMBERs and --ref, which name their \
          orders (with either, a range is a usage error): --last N lists the newest N of them, \
          --count counts them. --sku SKU keeps only the orders that hold SKU, in every form \
          but NUMBERs and --ref. A voided order ends 'voided by N'; a void is a line of its \
          own, 'void of N'; --count counts both.
          """,
        options: OrdersOption.described,
        operands: [
          .numbers
        ],
        conflicts: [
          Conflict(.option(.json), .option(.count)), Conflict(.option(.count), .option(.last)),
          Conflict(.option(.count), .operand(.numbers)),
          Conflict(.option(.last), .operand(.numbers)),
          Conflict(.option(.json), .option(.csv)), Conflict(.option(.csv), .option(.count)),
          Conflict(.option(.csv), .operand(.numbers)),
          Conflict(.option(.since), .operand(.numbers)),
          Conflict(.option(.until), .operand(.numbers)),
          Conflict(.option(.referenceSought), .option(.count)),
          Conflict(.option(.referenceSought), .option(.last)),
          Conflict(.option(.referenceSought), .operand(.numbers)),
          Conflict(.option(.referenceSought), .option(.since)),
          Conflict(.option(.referenceSought), .option(.until)),
          Conflict(.option(.skuSought), .operand(.numbers)),
          Conflict(.option(.skuSought), .option(.referenceSought)),
        ]),
      CommandDescription(
        name: "summary",
        abstract: "Sum the saved orders: how many, their totals, what was paid, the discount.",
        discussion: """
          Prints how many orders were placed in the range (all of them without --since and \
          --until), how many of them were voided, and over the orders not voided the sum of \
          their totals, of what was paid, and the discount given: 'orders 3  voided 0  total \
          470  payable 445  discount 25'. With --by day, one such line per UTC day that has \
          orders, oldest first; with --by sku, per SKU by name, the quantity sold, the revenue \
          (price times quantity, before any order's discount) and how many orders have it; \
          with --sku SKU, that line for one SKU.
          """,
        options: SummaryOption.described,
        operands: [],
        conflicts: [
          Conflict(.option(.json), .option(.csv)), Conflict(.option(.by), .option(.skuSummed)),
        ]),
      CommandDescription(
        name: "catalog",
        abstract: "List the catalog's SKUs and prices, sorted by SKU.",
        discussion: "",
        options: CatalogOption.described,
        operands: [],
        conflicts: []),
      CommandDescription(
        name: "help",
        abstract: "Show help for shop or one of its commands.",
        discussion: "'shop help COMMAND' prints what 'shop COMMAND --help' prints.",
        options: HelpCommandOption.described,
        operands: [
          OperandDescription(
            name: "COMMAND", kind: .command, isOptional: true, isRepeating: false,
            help: "The command to explain; none explains shop itself.")
        ],
        conflicts: []),
      CommandDescription(
        name: "completions",
        abstract: "Print the completion script for a shell.",
        discussion: """
          'make install' installs all three. To try one in the running shell: \
          'source <(shop completions bash)'. Completes commands, options, file names and, \
          for 'shop place', the SKUs of the catalog on the command line.
          """,
        options: CompletionsOption.described,
        operands: [
          OperandDescription(
            name: "SHELL", kind: .word(["bash", "zsh", "fish"]), isOptional: false,
            isRepeating: false, help: "bash, zsh or fish.")
        ],
        conflicts: []),
      CommandDescription(
        name: "manual",
        abstract: "Print the manual page, in roff.",
        discussion: "'make install' installs it; to read it now: 'shop manual | man -l -'.",
        options: ManualOption.described,
        operands: [],
        conflicts: []),
    ],
    skuListing: (command: "catalog", option: .catalog),
    environment: [
      Entry(name: "SHOP_CATALOG", text: "The catalog file, when --catalog is not given."),
      Entry(
        name: "SHOP_ORDERS",
        text: "The orders file or postgresql:// URI, when --orders is not given."),
      Entry(
        name: "XDG_DATA_HOME",
        text: """
          When it is an absolute path, the orders file is $XDG_DATA_HOME/shop/orders.jsonl, \
          unless --orders or SHOP_ORDERS says otherwise.
          """),
      Entry(
        name: "HOME",
        text: """
          Otherwise the orders file is $HOME/.local/share/shop/orders.jsonl. An empty \
          variable counts as unset.
          """),
      Entry(
        name: "SHOP_TIMEOUT",
        text: """
          How many whole seconds (0 to 86400; default 30) orders and summary wait for \
          another process's write lock on an orders file before they give up with 75.
          """),
    ],
    files: [
      Entry(
        name: "~/.local/share/shop/orders.jsonl",
        text: """
          The orders file when neither --orders, SHOP_ORDERS nor XDG_DATA_HOME names one: \
          JSON Lines, one order per line, only ever appended, shared safely between processes.
          """),
      Entry(
        name: "$XDG_DATA_HOME/shop/orders.jsonl",
        text: "The orders file when XDG_DATA_HOME is set and neither --orders nor SHOP_ORDERS is."),
    ],
    exitStatuses: [
      Entry(
        .success,
        "Placed (every order of a batch placed, or already placed under its ref with the same "
          + "items); voided, or already void; a listing or help printed."
      ),
      Entry(
        .rejected,
        "Rejected: an unknown SKU, a ref already placed with other items, (batch) a line "
          + "rejected or malformed, (orders, void) a NUMBER or ref with no order, or (void) a "
          + "void of a void or a ref another record holds."
      ),
      Entry(.usage, "Usage error: a bad option, a bad item, no items, an unknown command."),
      Entry(
        .dataError,
        "Bad data: a total too large, a bad catalog line, a bad orders file line, a ref held "
          + "twice."
      ),
      Entry(
        .noInput,
        "An input can't be read: the catalog, a batch FILE or input, the orders file; or the "
          + "catalog or orders file is not a regular file (a FIFO, a device, a folder)."
      ),
      Entry(
        .unavailable,
        "The orders database can't be reached, did not answer in time, or refused for lack of a "
          + "privilege; nothing of the group was saved."
      ),
      Entry(.software, "Internal error (a bug: please report it)."),
      Entry(
        .osError,
        "The static build was started without /proc (nothing was done), or the memory a "
          + "command needs can't be had (every order reported is saved)."
      ),
      Entry(
        .cannotCreate,
        "The orders file or its folder can't be created or opened for writing, or it is not a "
          + "regular file; or nothing says where it is."
      ),
      Entry(
        .ioError,
        "A write failed: a full disk, a file-size limit, an I/O error, a closed standard output, "
          + "the orders file replaced while held; with refs, run the same command again."
      ),
      Entry(
        .temporaryFailure,
        "The outcome is unknown: with refs, run the same command again; without, check "
          + "'\(listingNewest("N"))' first. Or orders or summary gave up waiting for a "
          + "writer's lock (SHOP_TIMEOUT): nothing was read; run it again."
      ),
    ])

  /// The built-in prices as help, the manual and `--explain` tell them: `pen 30, lamp 190`.
  package static func told(_ prices: [(sku: String, price: Int)]) -> String {
    var text = ""
    for (sku, price) in prices {
      if !text.isEmpty { text += ", " }
      text += sku + " " + String(price)
    }
    return text
  }

  /// This description with `--catalog`'s last default followed by the built-in prices, as
  /// help, completions and the manual tell it: the prices are the root's, passed from its one
  /// list.
  package func telling(builtInPrices prices: [(sku: String, price: Int)]) -> Self {
    func told(_ option: OptionDescription) -> OptionDescription {
      var option = option
      option.defaults = option.defaults.map {
        $0 == OptionDescription.builtInCatalog
          ? "\($0): \(CommandLineDescription.told(prices))" : $0
      }
      return option
    }
    var description = self
    description.options = options.map(told)
    for index in description.commands.indices {
      description.commands[index].options = commands[index].options.map(told)
    }
    return description
  }

  /// The command line that lists the newest `count` orders, `shop orders --last 2`: what to
  /// run before placing again orders whose outcome is unknown.
  package static func listingNewest(_ count: String) -> String {
    "shop \(Command.orders.rawValue) \(OptionDescription.last.long) \(count)"
  }

  /// What an error adds when the outcome of the newest `count` orders is unknown.
  package static func checkBeforePlacingAgain(newest count: Int) -> String {
    let them = count == 1 ? "it" : "them"
    return "; check with `\(listingNewest("\(count)"))` before placing \(them) again"
  }
}
