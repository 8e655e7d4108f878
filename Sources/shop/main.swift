// The composition root: the one place that reads the command line, the environment and the
// standard streams, and the one place where adapters are built and wired into the use case.
// Everything else only asks for its parts through ShopCore's ports.

import ShopAdapters
import ShopCore

/// The variables `shop` reads, read once, up front, as the bytes they hold.
struct Environment {
  let shopCatalog = System.environmentValue("SHOP_CATALOG")
  let shopOrders = System.environmentValue("SHOP_ORDERS")
  let xdgDataHome = System.environmentValue("XDG_DATA_HOME")
  let home = System.environmentValue("HOME")
}

/// Where reports and errors go, and which standard descriptors were closed at start.
struct Terminal {
  let standard: StandardDescriptors
  let errors = DescriptorOutput(descriptor: .standardError, name: "standard error")

  /// The files standard output and error write to, which no orders file may be.
  var printsTo: [(name: String, file: FileIdentity)] {
    [("standard output", Descriptor.standardOutput), ("standard error", .standardError)]
      .compactMap { name, descriptor in descriptor.regularFile.map { (name, $0) } }
  }

  /// Standard output for reports of saved orders: a reader that goes away is an error.
  func reports() throws(StreamError) -> DescriptorOutput {
    try output(.isAnError)
  }

  /// Standard output for a listing or help: a reader that goes away ends it quietly.
  func listing() throws(StreamError) -> DescriptorOutput {
    try output(.endsTheCommand)
  }

  /// Standard output, refused when it was closed: nothing is placed or listed whose report
  /// nobody can read.
  private func output(_ readerGone: DescriptorOutput.ReaderGone) throws(StreamError)
    -> DescriptorOutput
  {
    guard !standard.outputWasClosed else {
      throw .cannotWrite(name: "standard output", SystemError.closedDescriptor)
    }
    return DescriptorOutput(
      descriptor: .standardOutput, name: "standard output", readerGone: readerGone)
  }

  /// Standard input for a batch, refused when it was closed.
  func input() throws(StreamError) -> BatchInput {
    guard !standard.inputWasClosed else {
      throw .cannotRead(name: "standard input", SystemError.closedDescriptor)
    }
    return BatchInput(descriptor: .standardInput, name: "standard input")
  }
}

// Which catalog: --catalog, else $SHOP_CATALOG, else the built-in prices.
func makeCatalog(path flag: FilePath?, _ environment: Environment) throws -> any Catalog {
  if let path = flag { return try FileCatalog(path: path) }
  if let path = environment.shopCatalog, !path.isEmpty {
    return try FileCatalog(path: FilePath(path))
  }
  return MemoryCatalog(entries: MemoryCatalog.builtInEntries)
}

// Which store: memory for this run only; else, at --orders, $SHOP_ORDERS or the XDG data
// folder, PostgreSQL for a postgres:// URI or the shared file. The one place that decides, for
// place, batch and orders alike.
func makeStore(
  flag: FilePath?, memory: Bool, _ environment: Environment, _ terminal: Terminal
) throws -> any Orders & OrderHistory {
  if memory { return MemoryOrders() }
  let location = ordersLocation(
    flag: flag, shopOrders: environment.shopOrders, xdgDataHome: environment.xdgDataHome,
    home: environment.home)
  guard let location else { throw NoOrdersLocation() }
  guard location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") else {
    return try FileOrders(path: location, streams: terminal.printsTo)
  }
  // A URI is never taken for a path: no file named `postgres:` is ever made.
  #if PostgreSQL
    return PostgresOrders(uri: String(decoding: location.bytes, as: UTF8.self))
  #else
    throw PostgreSQLNotBuilt()
  #endif
}

// Which report: loud text, quiet, or JSON, each writing where the root says.
func makeReport(_ style: ReportStyle, _ terminal: Terminal) throws -> any Report {
  switch style {
  case .text: return TextReport(output: try terminal.reports())
  case .quiet: return QuietReport(errors: terminal.errors)
  case .json: return JSONReport(output: try terminal.reports())
  }
}

// The app: one use case, wired from the choices above. The report comes first, so a closed
// standard output stops the command before a catalog or store is touched.
func makePlaceOrder(_ options: PlacementOptions, _ environment: Environment, _ terminal: Terminal)
  throws -> PlaceOrder
{
  let report = try makeReport(options.report, terminal)
  return PlaceOrder(
    catalog: try makeCatalog(path: options.catalogPath, environment),
    orders: try makeStore(
      flag: options.ordersPath, memory: options.memory, environment, terminal),
    clock: SystemClock(),
    report: report)
}

/// Writes generated text (help, completions, the manual) to standard output.
func show(_ text: String, _ terminal: Terminal) throws -> ExitStatus {
  let output = try terminal.listing()
  output.write(text)
  try output.flush()
  return .success
}

func run(_ invocation: Invocation, _ environment: Environment, _ terminal: Terminal) throws
  -> ExitStatus
{
  let commandLine = CommandLineDescription.shop
  switch invocation {
  case .help(let command):
    let described = command.flatMap { commandLine.command(named: $0.rawValue) }
    return try show(HelpText.text(for: described, in: commandLine), terminal)

  case .completions(let shell):
    return try show(Completions.script(for: shell, commandLine), terminal)

  case .manual:
    return try show(Manual.page(commandLine), terminal)

  case .version:
    return try show(commandLine.version + "\n", terminal)

  case .place(let options, let cart, let reference):
    switch try makePlaceOrder(options, environment, terminal).place(cart, reference: reference) {
    case .placed, .alreadyPlaced: return .success
    case .unknown, .malformed, .conflict: return .rejected
    case .tooLarge: throw OrderTooLarge()
    }

  case .batch(let options, let path):
    let placeOrder = try makePlaceOrder(options, environment, terminal)
    let input = try path.map { try BatchInput(path: $0) } ?? terminal.input()
    var rejected = 0
    while let group = try input.nextGroup() {
      rejected += try placeOrder.place(group)
    }
    return rejected == 0 ? .success : .rejected

  case .orders(let options):
    let output = try terminal.listing()
    let store = try makeStore(flag: options.ordersPath, memory: false, environment, terminal)
    let listing = OrderListing(output: output, style: options.json ? .json : .text)
    switch options.selection {
    case .all: try listing.all(of: store)
    case .count: try listing.count(of: store)
    case .last(let count): try listing.last(count, of: store)
    case .numbers(let numbers):
      return try listing.orders(numbered: numbers, of: store) == 0 ? .success : .rejected
    case .reference(let reference):
      return try listing.order(referenced: reference, of: store) ? .success : .rejected
    }
    return .success

  case .catalog(let path, let json):
    let output = try terminal.listing()
    CatalogListing(output: output, json: json).list(try makeCatalog(path: path, environment))
    try output.flush()
    return .success
  }
}

// Before anything else: no file opened from here on can take a standard descriptor's number.
let terminal = Terminal(standard: System.secureStandardDescriptors())
// A reader that closes our pipe makes a write fail (and the command say so), not a silent
// death by signal.
System.ignoreBrokenPipes()
var status: ExitStatus
do {
  let invocation = try Invocation(parsing: System.arguments())
  status = try run(invocation, Environment(), terminal)
} catch let error as ShopError {
  status = error.status
  if !error.message.isEmpty { terminal.errors.write("Error: \(error.message)\n") }
} catch {
  status = .software
  terminal.errors.write("Error: internal error (please report this bug): \(error)\n")
}
// Nothing to do if standard error can't be written: the status still says what happened.
try? terminal.errors.flush()
System.exit(status.rawValue)
