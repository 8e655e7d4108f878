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
  libpq: String = PostgresOrders.standardLibrary, parts: Parts = Parts()
) -> ExitStatus {
  let errors = DescriptorOutput(descriptor: streams.errors, name: "standard error")
  let keeper = OrdersFileGuard(arguments: arguments, environment: environment, streams: streams)
  var status: ExitStatus
  do {
    let invocation = try Invocation(parsing: arguments, now: clock.now())
    let root = Root(
      environment: environment, streams: streams, clock: clock, libpq: libpq, parts: parts,
      keeper: keeper)
    status = try root.run(invocation)
  } catch let error as ShopError {
    status = error.status
    // A library's or a server's words may hold a control character, as may a URI's parts.
    var message = error.message
    if let count = error.newestToCheck {
      let them = count == 1 ? "it" : "them"
      let listing = CommandLineDescription.listingNewest("\(count)")
      message += "; check with `\(listing)` before placing \(them) again"
    }
    if !message.isEmpty, keeper.errorsMayBePrinted {
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

/// Parts of the real root replaced, for a test: a part left nil is built as the command line
/// chooses, so `Parts()` is the real root. `catalog` prices `place` and `batch`; `orders`
/// saves their orders (the fast batch path is for the real file store only).
struct Parts {
  var catalog: (any Catalog)?
  var orders: (any Orders)?

  init(catalog: (any Catalog)? = nil, orders: (any Orders)? = nil) {
    self.catalog = catalog
    self.orders = orders
  }
}

/// The wiring: one visible function per choice (which catalog, which store, which report),
/// each building what the decisions in Choices.swift chose, and one app per command.
private struct Root {
  let environment: Environment
  let streams: StandardStreams
  let clock: any WallClock
  let libpq: String
  let parts: Parts
  let keeper: OrdersFileGuard

  /// Choose, build, run, report. A command that uses a store chooses it once, in ``admit``,
  /// before anything is built or printed.
  func run(_ invocation: Invocation) throws -> ExitStatus {
    let commandLine = CommandLineDescription.shop
    try keeper.check()
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
      let store = try admit(options.ordersPath, memory: options.memory)
      let catalog = chooseCatalog(flag: options.catalogPath, environment)
      if options.explain { return try show(explain(options, catalog, store, input: nil)) }
      switch try makePlaceOrder(options, catalog, store).place(cart, reference: reference) {
      case .placed, .alreadyPlaced: return .success
      case .unknown, .malformed, .conflict: return .rejected
      case .tooLarge: throw OrderTooLarge()
      }

    case .batch(let options, let path):
      let store = try admit(options.ordersPath, memory: options.memory)
      let catalog = chooseCatalog(flag: options.catalogPath, environment)
      if options.explain { return try show(explain(options, catalog, store, input: path)) }
      return try makeBatch(options, catalog, store, path: path).run() == 0 ? .success : .rejected

    case .void(let options, let number, let reference):
      let store = try admit(options.ordersPath, memory: false)
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
      let store = try admit(options.ordersPath, memory: false)
      let style = chooseListing(options.style, selection: options.selection)
      if options.explain {
        return try show(
          Explanation.orders(
            store, options, style: style, wait: chooseReadWait(environment), libpq: libpq
          ).text)
      }
      let output = try streams.listing()
      let history = try makeStore(store, reading: true)
      let listing = OrderListing(
        output: output, style: style.value, lines: history.storedLines,
        notes: DescriptorOutput(descriptor: streams.errors, name: "standard error"))
      let missing = try ListOrders(history: history.orders, listing: listing)
        .run(options.selection, in: options.range, holding: options.sku)
      return missing == 0 ? .success : .rejected

    case .summary(let options):
      let store = try admit(options.ordersPath, memory: false)
      let (grouping, style) = (chooseGrouping(options.grouping), chooseListing(options.style))
      if options.explain {
        return try show(
          Explanation.summary(
            store, options, grouping: grouping, style: style, wait: chooseReadWait(environment),
            libpq: libpq
          ).text)
      }
      let report = SummaryListing(output: try streams.listing(), style: style.value)
      try Summarise(
        history: try makeStore(store, reading: true).orders, report: report, by: grouping.value,
        sku: options.sku
      ).summarise(options.range)
      return .success

    case .catalog(let path, let json, let explain):
      let catalog = chooseCatalog(flag: path, environment)
      if explain { return try show(Explanation.catalog(catalog, json: json).text) }
      let output = try streams.listing()
      CatalogListing(output: output, json: json).list(try makeCatalog(catalog))
      try output.flush()
      return .success
    }
  }

  /// The store a command's `--orders` (or `--memory`) chooses, chosen once and shown to the
  /// guard before anything is built or printed.
  func admit(_ flag: FilePath?, memory: Bool) throws -> Chosen<StoreSource> {
    let store = chooseStore(flag: flag, memory: memory, environment)
    try keeper.check(adding: store)
    return store
  }

  /// Which catalog: a file, or the built-in prices, unless a test replaced it.
  func makeCatalog(_ source: Chosen<CatalogSource>) throws -> any Catalog {
    if let catalog = parts.catalog { return catalog }
    switch source.value {
    case .file(let path): return try FileCatalog(path: path)
    case .builtIn: return MemoryCatalog(entries: MemoryCatalog.builtInEntries)
    }
  }

  /// Which store, for every command that has one. A URI is never taken for a path: no file
  /// named `postgres:` is ever made. A file's reads wait for a writer's lock as long as it
  /// takes, as its writes do; a command that only reads (`reading`) waits as
  /// ``chooseReadWait(_:)`` says, and tells on standard error whom it waits for.
  func makeStore(_ source: Chosen<StoreSource>, reading: Bool = false) throws -> BuiltStore {
    switch source.value {
    case .memory: return .memory(MemoryOrders())
    case .file(let path):
      var wait = ReadWait.untilFree
      if reading {
        switch chooseReadWait(environment).value {
        case .seconds(let seconds):
          wait = .atMost(
            seconds: seconds,
            notice: DescriptorOutput(descriptor: streams.errors, name: "standard error"))
        case .invalid(let value): throw BadReadWait(value: value)
        }
      }
      return .file(try FileOrders(path: path, streams: streams.files, readWait: wait))
    case .postgreSQL(let uri):
      return .postgreSQL(
        PostgresOrders(
          uri: uri, library: libpq,
          connectTimeoutVariable: environment.pgConnectTimeout.map {
            String(decoding: $0, as: UTF8.self)
          }))
    case .notAURI(let text, let why): throw NotAURI(text: text, why: why, from: source.why)
    case .nowhere: throw NoOrdersLocation()
    }
  }

  /// Which report: loud text, quiet, or JSON, each writing where the root says.
  func makeReport(_ style: ReportStyle) throws -> BuiltReport {
    switch style {
    case .text: return .text(TextReport(output: try streams.reports()))
    case .quiet:
      return .quiet(
        QuietReport(errors: DescriptorOutput(descriptor: streams.errors, name: "standard error")))
    case .json: return .json(JSONReport(output: try streams.reports()))
    }
  }

  /// The app of `place`. The report comes first, so a closed standard output stops the
  /// command before a catalog or store is touched; the store (which touches no file yet)
  /// before the catalog is read, so a command with no place for its orders stops with 73
  /// whatever its catalog, as `--explain` says it would.
  func makePlaceOrder(
    _ options: PlacementOptions, _ catalog: Chosen<CatalogSource>, _ store: Chosen<StoreSource>
  ) throws -> PlaceOrder {
    let report = try makeReport(options.report).report
    let orders = try parts.orders ?? makeStore(store).orders
    let catalog = try makeCatalog(catalog)
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
    let orders: any OrderVoids
    switch try makeStore(store) {
    case .memory(let memory): orders = memory
    case .file(let file): orders = file
    case .postgreSQL(let postgreSQL): orders = postgreSQL
    }
    return VoidOrder(orders: orders, clock: clock, report: report)
  }

  /// The app of `batch`: quiet or loud text into a file, priced straight from the input's
  /// bytes (``PricedBatch``); otherwise one request at a time. Built in the order of `place`'s,
  /// the input opened last. The one `PlaceOrder` serves both ways.
  func makeBatch(
    _ options: PlacementOptions, _ catalog: Chosen<CatalogSource>, _ store: Chosen<StoreSource>,
    path: FilePath?
  ) throws -> PlaceBatch {
    let report = try makeReport(options.report)
    // A replaced store has no fast path: it is used as any store is.
    let orders: any Orders
    let built: BuiltStore?
    if let replaced = parts.orders {
      (orders, built) = (replaced, nil)
    } else {
      let made = try makeStore(store)
      (orders, built) = (made.orders, made)
    }
    let catalog = try makeCatalog(catalog)
    let opened = try path.map { path throws(FileError) in try BatchInput(path: path) }
    let input = try opened ?? streams.batchInput()
    let placeOrder = PlaceOrder(
      catalog: catalog, orders: orders, clock: clock, report: report.report)
    switch built {
    case .file(let file):
      if let priced = report.priced {
        return PlaceBatch(
          groups: PricedBatch(
            input: input, catalog: catalog, store: file, clock: clock, report: priced,
            placeOrder: placeOrder))
      }
    case .memory, .postgreSQL, nil: break
    }
    return PlaceBatch(source: input, placeOrder: placeOrder)
  }

  /// What `--explain` prints for `place` and `batch`: the decisions made, not built.
  func explain(
    _ options: PlacementOptions, _ catalog: Chosen<CatalogSource>, _ store: Chosen<StoreSource>,
    input: FilePath??
  ) -> String {
    Explanation.placement(
      input: input, catalog: catalog, store: store, report: chooseReport(options.report),
      clock: clock, libpq: libpq
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

/// What ``Root/makeStore(_:)`` built: a closed set, so each fast path is chosen by a `switch`
/// the compiler checks, and a new store that lacks a case does not compile.
enum BuiltStore {
  case memory(MemoryOrders)
  case file(FileOrders)
  case postgreSQL(PostgresOrders)

  var orders: any Orders & OrderHistory {
    switch self {
    case .memory(let store): return store
    case .file(let store): return store
    case .postgreSQL(let store): return store
    }
  }

  /// The store as a listing copies its lines, for the one that keeps them as `--json` prints.
  var storedLines: (any StoredOrderLines)? {
    switch self {
    case .file(let store): return store
    case .memory, .postgreSQL: return nil
    }
  }
}

/// What ``Root/makeReport(_:)`` built, closed as ``BuiltStore`` is.
enum BuiltReport {
  case text(TextReport)
  case quiet(QuietReport)
  case json(JSONReport)

  var report: any Report {
    switch self {
    case .text(let report): return report
    case .quiet(let report): return report
    case .json(let report): return report
    }
  }

  /// The report as the fast batch path tells it: only of placed orders' numbers and payables.
  var priced: (any PricedReport)? {
    switch self {
    case .text(let report): return report
    case .quiet(let report): return report
    case .json: return nil
    }
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

/// `$SHOP_TIMEOUT` is not a bound a read command can wait by: a usage error (64), before the
/// store is read.
struct BadReadWait: ShopError {
  let value: [UInt8]

  var status: ExitStatus { .usage }
  var message: String {
    "SHOP_TIMEOUT is \(TerminalText.quoted(value)): it must be a whole number of seconds from 0 "
      + "to \(ReadWait.maximumSeconds), how long orders and summary wait for a writer's lock "
      + "on an orders file"
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
