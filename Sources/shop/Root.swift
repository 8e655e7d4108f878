import ShopAdapters
import ShopCommandLine
import ShopCore

/// The composition root, as a function of the process's inputs: the arguments (bytes), the
/// environment (values), the standard streams (ports) and a clock. It parses, builds the one
/// app the command line asks for, runs it, prints its own errors and returns the exit status.
/// main.swift calls it with the real process; tests call it with buffers and fakes. `libpq` is
/// the library a postgres:// store loads, when one is used; a test can name one that is not
/// there.
func runShop(
  arguments: [[UInt8]], environment: Environment, streams: StandardStreams, clock: any WallClock,
  libpq: String = PostgresOrders.standardLibrary
) -> ExitStatus {
  let errors = DescriptorOutput(descriptor: streams.errors, name: "standard error")
  // The stores shop must never print into: the one the environment alone names (the store of
  // every command without `--orders`, even when this one uses another or `--memory`), any
  // file the command line gives to `--orders`, read or not (`--help` reads no store), and
  // the store chosen, once the command line is read.
  let named = CommandLineDescription.shop.values(of: .orders, in: arguments).map(FilePath.init)
  var stores = [chooseStore(flag: nil, memory: false, environment).value.path].compactMap { $0 }
  stores += named
  var status: ExitStatus
  do {
    let invocation = try Invocation(parsing: arguments, now: clock.now())
    if let (flag, memory) = invocation.storeOptions,
      let path = chooseStore(flag: flag, memory: memory, environment).value.path
    {
      stores.append(path)
    }
    // Nothing shop prints may land among the orders: not a report, and not a listing, a help
    // or an explanation either (`shop orders --explain >> orders.jsonl`).
    for path in stores {
      if let stream = streams.stream(writingTo: path) {
        throw FileError.sharedWithStream(path, stream: stream)
      }
    }
    status = try Root(environment: environment, streams: streams, clock: clock, libpq: libpq)
      .run(invocation)
  } catch let error as ShopError {
    status = error.status
    // An error printed into an orders file (`2>> orders.jsonl`) would corrupt it.
    let intoTheStore = stores.contains(where: streams.errorsWriteTo)
    // A library's or a server's words may hold a control character, as may a URI's parts.
    var message = error.message
    if let count = error.newestToCheck {
      let them = count == 1 ? "it" : "them"
      let listing = CommandLineDescription.listingNewest("\(count)")
      message += "; check with `\(listing)` before placing \(them) again"
    }
    if !message.isEmpty, !intoTheStore {
      errors.write("Error: \(TerminalText.lines(message))\n")
    }
  } catch {
    status = .software
    errors.write("Error: internal error (please report this bug): \(error)\n")
  }
  // Nothing to do if standard error can't be written: the status still says what happened.
  try? errors.flush()
  return status
}

/// The wiring: one visible function per choice (which catalog, which store, which report),
/// each building what the decisions in Choices.swift chose, and one app per command.
private struct Root {
  let environment: Environment
  let streams: StandardStreams
  let clock: any WallClock
  let libpq: String

  func run(_ invocation: Invocation) throws -> ExitStatus {
    let commandLine = CommandLineDescription.shop
    switch invocation {
    case .help(let command):
      let described = command.flatMap { commandLine.command(named: $0.rawValue) }
      return try show(HelpText.text(for: described, in: commandLine))
    case .completions(let shell):
      return try show(Completions.script(for: shell, commandLine))
    case .manual:
      return try show(Manual.page(commandLine))
    case .version:
      let line = BuildInfo.current.versionLine(
        program: commandLine.program, version: commandLine.version)
      return try show(line + "\n")

    case .place(let options, let cart, let reference):
      if options.explain { return try show(explain(options, input: nil)) }
      switch try makePlaceOrder(options).place(cart, reference: reference) {
      case .placed, .alreadyPlaced: return .success
      case .unknown, .malformed, .conflict: return .rejected
      case .tooLarge: throw OrderTooLarge()
      }

    case .batch(let options, let path):
      if options.explain { return try show(explain(options, input: path)) }
      return try makeBatch(options, path: path).run() == 0 ? .success : .rejected

    case .void(let options, let number, let reference):
      let store = chooseStore(flag: options.ordersPath, memory: false, environment)
      if options.explain {
        return try show(
          Explanation.void(store, report: chooseReport(options.report), clock: clock, libpq: libpq)
            .text)
      }
      switch try makeVoidOrder(options, store: store).void(number, reference: reference) {
      case .voided, .alreadyVoid: return .success
      case .noOrder, .notAnOrder, .conflict: return .rejected
      }

    case .orders(let options):
      let store = chooseStore(flag: options.ordersPath, memory: false, environment)
      if options.explain {
        return try show(Explanation.orders(store, listing: options.listingWhy, libpq: libpq).text)
      }
      let output = try streams.listing()
      let style: OrderListing.Style = options.json ? .json : options.csv ? .csv : .text
      let history = try makeStore(store)
      let listing = OrderListing(
        output: output, style: style, lines: history as? any StoredOrderLines,
        notes: DescriptorOutput(descriptor: streams.errors, name: "standard error"))
      let missing = try ListOrders(history: history, listing: listing)
        .run(options.selection, in: options.range, holding: options.sku)
      return missing == 0 ? .success : .rejected

    case .summary(let options):
      let store = chooseStore(flag: options.ordersPath, memory: false, environment)
      if options.explain {
        return try show(Explanation.orders(store, listing: options.summaryWhy, libpq: libpq).text)
      }
      let style: SummaryListing.Style = options.json ? .json : options.csv ? .csv : .text
      let report = SummaryListing(output: try streams.listing(), style: style)
      try Summarise(
        history: try makeStore(store), report: report, by: options.grouping, sku: options.sku
      ).summarise(options.range)
      return .success

    case .catalog(let path, let json, let explain):
      let catalog = chooseCatalog(flag: path, environment)
      if explain { return try show(Explanation.catalog(catalog, json: json).text) }
      let output = try streams.listing()
      CatalogListing(output: output, json: json).list(try makeCatalog(catalog.value))
      try output.flush()
      return .success
    }
  }

  /// Which catalog: a file, or the built-in prices.
  func makeCatalog(_ source: CatalogSource) throws -> any Catalog {
    switch source {
    case .file(let path): return try FileCatalog(path: path)
    case .builtIn: return MemoryCatalog(entries: MemoryCatalog.builtInEntries)
    }
  }

  /// Which store, for place, batch and orders alike. A URI is never taken for a path: no
  /// file named `postgres:` is ever made.
  func makeStore(_ source: Chosen<StoreSource>) throws -> any Orders & OrderHistory {
    switch source.value {
    case .memory: return MemoryOrders()
    case .file(let path): return try FileOrders(path: path, streams: streams.files)
    case .postgreSQL(let uri):
      return PostgresOrders(
        uri: uri, library: libpq,
        connectTimeoutVariable: environment.pgConnectTimeout.map {
          String(decoding: $0, as: UTF8.self)
        })
    case .notAURI(let text, let why): throw NotAURI(text: text, why: why, from: source.why)
    case .nowhere: throw NoOrdersLocation()
    }
  }

  /// Which report: loud text, quiet, or JSON, each writing where the root says.
  func makeReport(_ style: ReportStyle) throws -> any Report {
    switch style {
    case .text: return TextReport(output: try streams.reports())
    case .quiet:
      return QuietReport(
        errors: DescriptorOutput(
          descriptor: streams.errors, name: "standard error"))
    case .json: return JSONReport(output: try streams.reports())
    }
  }

  /// The app of `place` and `batch`. The report comes first, so a closed standard output
  /// stops the command before a catalog or store is touched; the store (which touches no file
  /// yet) before the catalog is read, so a command with no place for its orders stops with 73
  /// whatever its catalog, as `--explain` says it would.
  func makePlaceOrder(_ options: PlacementOptions) throws -> PlaceOrder {
    let report = try makeReport(options.report)
    let orders = try makeStore(
      chooseStore(flag: options.ordersPath, memory: options.memory, environment))
    let catalog = try makeCatalog(chooseCatalog(flag: options.catalogPath, environment).value)
    return PlaceOrder(catalog: catalog, orders: orders, clock: clock, report: report)
  }

  /// The app of `void`: the report first, as for `place`, so a closed standard output stops
  /// the command before the store is touched; then the store that records voids.
  func makeVoidOrder(_ options: VoidOptions, store: Chosen<StoreSource>) throws -> VoidOrder {
    let report: VoidListing
    switch options.report {
    case .text: report = VoidListing(output: try streams.reports(), style: .text)
    case .quiet: report = VoidListing(output: try streams.reports(), style: .quiet)
    case .json: report = VoidListing(output: try streams.reports(), style: .json)
    }
    return VoidOrder(orders: try makeVoids(store), clock: clock, report: report)
  }

  /// Which store records voids: the one `place` would use.
  func makeVoids(_ source: Chosen<StoreSource>) throws -> any OrderVoids {
    switch source.value {
    case .memory: return MemoryOrders()
    case .file(let path): return try FileOrders(path: path, streams: streams.files)
    case .postgreSQL: throw VoidNotOnPostgreSQL()
    case .notAURI(let text, let why): throw NotAURI(text: text, why: why, from: source.why)
    case .nowhere: throw NoOrdersLocation()
    }
  }

  /// The app of `batch`: quiet or loud text into a file, priced straight from the input's
  /// bytes (``PricedBatch``); otherwise one request at a time. Built in the order of `place`'s,
  /// the input opened last.
  func makeBatch(_ options: PlacementOptions, path: FilePath?) throws -> PlaceBatch {
    let report = try makeReport(options.report)
    let orders = try makeStore(
      chooseStore(flag: options.ordersPath, memory: options.memory, environment))
    let catalog = try makeCatalog(chooseCatalog(flag: options.catalogPath, environment).value)
    let opened = try path.map { path throws(FileError) in try BatchInput(path: path) }
    let input = try opened ?? streams.batchInput()
    if let priced = report as? any PricedReport, let file = orders as? FileOrders {
      return PlaceBatch(
        groups: PricedBatch(
          input: input, catalog: catalog, store: file, clock: clock, report: priced))
    }
    return PlaceBatch(
      source: input,
      placeOrder: PlaceOrder(catalog: catalog, orders: orders, clock: clock, report: report))
  }

  /// What `--explain` prints for `place` and `batch`: the same decisions, not built.
  func explain(_ options: PlacementOptions, input: FilePath??) -> String {
    Explanation.placement(
      input: input, catalog: chooseCatalog(flag: options.catalogPath, environment),
      store: chooseStore(flag: options.ordersPath, memory: options.memory, environment),
      report: chooseReport(options.report), clock: clock, libpq: libpq
    ).text
  }

  /// Writes generated text (help, completions, the manual, an explanation) to standard output.
  func show(_ text: String) throws -> ExitStatus {
    let output = try streams.listing()
    output.write(text)
    try output.flush()
    return .success
  }
}

extension StoreSource {
  /// The file it names, if it is one.
  var path: FilePath? {
    if case .file(let path) = self { return path }
    return nil
  }
}

/// `shop void` on a PostgreSQL store: its table has no column for voids yet, so nothing is
/// recorded rather than something other readers would not know.
struct VoidNotOnPostgreSQL: ShopError {
  var status: ExitStatus { .unavailable }
  var message: String {
    "void is not available for a PostgreSQL store yet (its table has no column for voids); "
      + "nothing was saved"
  }
}

/// `--orders` or `SHOP_ORDERS` reads as a URI but is none: a usage error (64) that says what
/// a URI looks like and how to name a file that starts so, before anything is read or made.
struct NotAURI: ShopError {
  /// The value as given, its password hidden in the message.
  let text: String
  let why: String
  /// Where the value came from: `from --orders` or `from $SHOP_ORDERS`.
  let from: String

  var status: ExitStatus { .usage }
  var message: String {
    // A look-alike may hold a password where a URI would: hidden as in a URI.
    var shown = ConnectionURI.redacting(text, wholeURI: true)
    if let colon = shown.firstIndex(of: ":") {
      let rest = shown[shown.index(after: colon)...].drop { $0 == "/" }
      shown =
        String(shown[...colon]) + String(shown[shown.index(after: colon)..<rest.startIndex])
        + ConnectionURI.redacting("x://" + rest, wholeURI: true).dropFirst(4)
    }
    return "'\(shown)' (\(from)) is not a PostgreSQL URI: \(why). A URI is "
      + "postgresql://[user@][host][:port]/database in lower case, as in "
      + "postgresql://shop@db.example:5432/shop or postgresql:///shop (a local socket); "
      + "a file or folder whose name starts so is written with ./ before it"
  }
}

/// No flag, variable or home folder says where the orders file is.
struct NoOrdersLocation: ShopError {
  var status: ExitStatus { .cannotCreate }
  var message: String {
    "no place for the orders file: set \(OptionDescription.orders.long), SHOP_ORDERS, XDG_DATA_HOME or HOME "
      + "(an absolute path)"
  }
}
