// The composition root: the one place that reads the command line and the environment, and
// the one place where adapters are built and wired into the use case. Everything else only
// asks for its parts through ShopCore's ports.

import Glibc
import ShopAdapters
import ShopCore

/// The variables `shop` reads, read once, up front; empty counts as unset.
struct Environment {
  let shopCatalog = Environment.read("SHOP_CATALOG")
  let shopOrders = Environment.read("SHOP_ORDERS")
  let xdgDataHome = Environment.read("XDG_DATA_HOME")
  let home = Environment.read("HOME")

  private static func read(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }
}

/// Where reports and errors go.
struct Terminal {
  let output: DescriptorOutput
  let errors: DescriptorOutput
}

// Which catalog: --catalog, else $SHOP_CATALOG, else the built-in prices.
func makeCatalog(path flag: String?, _ environment: Environment) throws -> any Catalog {
  guard let path = flag ?? environment.shopCatalog else {
    return MemoryCatalog(prices: MemoryCatalog.builtInPrices)
  }
  return try FileCatalog(path: path)
}

// Which orders file: --orders, else $SHOP_ORDERS, else the XDG data folder.
func ordersPath(flag: String?, _ environment: Environment) throws -> String {
  let path = ordersLocation(
    flag: flag, shopOrders: environment.shopOrders, xdgDataHome: environment.xdgDataHome,
    home: environment.home)
  guard let path else { throw NoOrdersLocation() }
  return path
}

// Which store at a location: PostgreSQL for a postgres:// URI, else the shared file. The one
// place that decides, for place, batch and orders alike.
func makeStore(_ location: String) throws -> any Orders & OrderHistory {
  guard location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") else {
    return FileOrders(path: location)
  }
  #if PostgreSQL
    return PostgresOrders(uri: location)
  #else
    throw PostgreSQLNotBuilt()  // Never a file named `postgres:`.
  #endif
}

// Which store for placing: memory for this run only, or the shared one.
func makeOrders(_ options: PlacementOptions, _ environment: Environment) throws -> any Orders {
  if options.memory { return MemoryOrders() }
  return try makeStore(try ordersPath(flag: options.ordersPath, environment))
}

// Which report: loud text, quiet, or JSON, each writing where the root says.
func makeReport(_ style: ReportStyle, _ terminal: Terminal) -> any Report {
  switch style {
  case .text: return TextReport(output: terminal.output)
  case .quiet: return QuietReport(errors: terminal.errors)
  case .json: return JSONReport(output: terminal.output)
  }
}

// The app: one use case, wired from the choices above.
func makePlaceOrder(_ options: PlacementOptions, _ environment: Environment, _ terminal: Terminal)
  throws -> PlaceOrder
{
  PlaceOrder(
    catalog: try makeCatalog(path: options.catalogPath, environment),
    orders: try makeOrders(options, environment),
    clock: SystemClock(),
    report: makeReport(options.report, terminal))
}

func run(_ invocation: Invocation, _ environment: Environment, _ terminal: Terminal) throws
  -> Int32
{
  switch invocation {
  case .help(let command):
    terminal.output.write(HelpText.text(for: command))
    return ExitStatus.placed

  case .version:
    terminal.output.write(HelpText.version + "\n")
    return ExitStatus.placed

  case .place(let options, let cart):
    switch try makePlaceOrder(options, environment, terminal).place(cart) {
    case .placed: return ExitStatus.placed
    case .unknown, .malformed: return ExitStatus.rejected
    case .tooLarge: throw TotalTooLarge()
    }

  case .batch(let options, let path):
    let input =
      try path.map { path throws(FileError) in try BatchInput(path: path) }
      ?? BatchInput(descriptor: STDIN_FILENO, name: "standard input")
    let placeOrder = try makePlaceOrder(options, environment, terminal)
    var rejected = 0
    while let group = try input.nextGroup() {
      rejected += try placeOrder.place(group)
    }
    return rejected == 0 ? ExitStatus.placed : ExitStatus.rejected

  case .orders(let path, let listing):
    let orders = try makeStore(try ordersPath(flag: path, environment))
    switch listing {
    case .count: terminal.output.write("\(try orders.count())\n")
    case .text: try OrderListing(output: terminal.output, style: .text).list(orders)
    case .json: try OrderListing(output: terminal.output, style: .json).list(orders)
    }
    return ExitStatus.placed

  case .catalog(let path, let json):
    CatalogListing(output: terminal.output, json: json).list(
      try makeCatalog(path: path, environment))
    return ExitStatus.placed
  }
}

// A reader that closed our pipe is an output error (exit 74), not a silent death by signal.
signal(SIGPIPE, SIG_IGN)
let terminal = Terminal(
  output: DescriptorOutput(descriptor: STDOUT_FILENO, name: "standard output"),
  errors: DescriptorOutput(descriptor: STDERR_FILENO, name: "standard error"))
var status: Int32
do {
  let invocation = try Invocation(parsing: Array(CommandLine.arguments.dropFirst()))
  status = try run(invocation, Environment(), terminal)
  try terminal.output.flush()
} catch {
  let (message, code) = failure(error)
  // Reports written before the failure are true (their orders are saved): deliver them.
  try? terminal.output.flush()
  terminal.errors.write(message)
  try? terminal.errors.flush()
  status = code
}
exit(status)
