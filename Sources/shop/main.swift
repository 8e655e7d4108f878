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

// lead: the adapters still take String paths; until they take FilePath, paths are decoded here.
func text(_ path: FilePath?) -> String? {
  path.map { String(decoding: $0.bytes, as: UTF8.self) }
}

// Which catalog: --catalog, else $SHOP_CATALOG, else the built-in prices.
func makeCatalog(path flag: FilePath?, _ environment: Environment) throws -> any Catalog {
  guard let path = text(flag) ?? environment.shopCatalog else {
    return MemoryCatalog(prices: MemoryCatalog.builtInPrices)
  }
  return try FileCatalog(path: path)
}

// Which orders file: --orders, else $SHOP_ORDERS, else the XDG data folder.
func ordersPath(flag: FilePath?, _ environment: Environment) throws -> String {
  let path = ordersLocation(
    flag: text(flag), shopOrders: environment.shopOrders, xdgDataHome: environment.xdgDataHome,
    home: environment.home)
  guard let path else { throw NoOrdersLocation() }
  return path
}

// Which store: memory for this run only, or the shared file.
func makeOrders(_ options: PlacementOptions, _ environment: Environment) throws -> any Orders {
  if options.memory { return MemoryOrders() }
  return FileOrders(path: try ordersPath(flag: options.ordersPath, environment))
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
    let described = command.flatMap { CommandLineDescription.shop.command(named: $0.rawValue) }
    terminal.output.write(HelpText.text(for: described, in: .shop))
    return ExitStatus.placed

  case .completions(let shell):
    terminal.output.write(Completions.script(for: shell, .shop))
    return ExitStatus.placed

  case .manual:
    terminal.output.write(Manual.page(.shop))
    return ExitStatus.placed

  case .version:
    terminal.output.write(CommandLineDescription.shop.version + "\n")
    return ExitStatus.placed

  case .place(let options, let cart):
    switch try makePlaceOrder(options, environment, terminal).place(cart) {
    case .placed: return ExitStatus.placed
    case .unknown, .malformed: return ExitStatus.rejected
    case .tooLarge: throw TotalTooLarge()
    }

  case .batch(let options, let path):
    let input =
      try text(path).map { path throws(FileError) in try BatchInput(path: path) }
      ?? BatchInput(descriptor: STDIN_FILENO, name: "standard input")
    let placeOrder = try makePlaceOrder(options, environment, terminal)
    var rejected = 0
    while let group = try input.nextGroup() {
      rejected += try placeOrder.place(group)
    }
    return rejected == 0 ? ExitStatus.placed : ExitStatus.rejected

  case .orders(let options):
    let orders = FileOrders(path: try ordersPath(flag: options.ordersPath, environment))
    switch options.selection {
    case .count: terminal.output.write("\(try orders.count())\n")
    case .all:
      try OrderListing(output: terminal.output, style: options.json ? .json : .text).list(orders)
    case .last, .numbers:
      // lead: issue 10 lists the newest N and chosen numbers; until then, say so.
      throw UsageError(
        reason: "listing chosen orders is not available yet",
        command: CommandLineDescription.shop.command(named: "orders"), in: .shop)
    }
    return ExitStatus.placed

  case .catalog(let path, let json):
    CatalogListing(output: terminal.output, json: json).list(
      try makeCatalog(path: path, environment))
    return ExitStatus.placed
  }
}

/// The arguments after the program's name, as the bytes the program was given: a path need not
/// be UTF-8, and `CommandLine.arguments` would repair it into another name.
func arguments() -> [[UInt8]] {
  // A program may be started with no argv at all: a range 1..<0 would trap.
  stride(from: 1, to: Int(CommandLine.argc), by: 1).map { index in
    guard let argument = CommandLine.unsafeArgv[index] else { return [] }
    var bytes: [UInt8] = []
    var offset = 0
    while argument[offset] != 0 {
      bytes.append(UInt8(bitPattern: argument[offset]))
      offset += 1
    }
    return bytes
  }
}

// A reader that closed our pipe is an output error (exit 74), not a silent death by signal.
signal(SIGPIPE, SIG_IGN)
let terminal = Terminal(
  output: DescriptorOutput(descriptor: STDOUT_FILENO, name: "standard output"),
  errors: DescriptorOutput(descriptor: STDERR_FILENO, name: "standard error"))
var status: Int32
do {
  let invocation = try Invocation(parsing: arguments())
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
