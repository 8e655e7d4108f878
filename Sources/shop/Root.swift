import ShopAdapters
import ShopCommandLine
import ShopConventions
import ShopCore

// Over 300 lines on purpose: the root's one job is the whole wiring (parse, choose, build, run,
// report), and split it would no longer read as the diagram in one file.

/// The composition root, as a function of the process's inputs: the arguments (bytes), the
/// environment (values), the standard streams (ports) and a clock. It parses the command line,
/// chooses, builds the one app it asks for, runs it, reports what went wrong and returns the
/// exit status. main.swift calls it with the real process; tests call it with buffers and
/// fakes, and may replace `parts`. `libpq` is the library a postgres:// store loads, when one
/// is used; a test can name one that is not there.
func runShop(
  arguments: [[UInt8]], environment: Environment, streams: StandardStreams, clock: any WallClock,
  libpq: String = PostgresOrders.standardLibrary, parts: Parts = Parts()
) -> ExitStatus {
  // The store of every command without --orders, chosen once: watched even when unused.
  let usualStore = environmentStore(environment)
  let keeper = OrdersFileGuard(usualStore, arguments: arguments, streams: streams)
  do {
    let invocation = try Invocation(parsing: arguments, now: clock.now())
    let root = Root(
      environment: environment, usualStore: usualStore, streams: streams, clock: clock,
      libpq: libpq, parts: parts, keeper: keeper)
    return try root.run(invocation)
  } catch let error as any ShopError {
    return report(error, streams.errorOutput(), keeper)
  } catch {
    return report(UnexpectedError(error), streams.errorOutput(), keeper)
  }
}

/// The one line on standard error for what stopped the command, unless standard error is an
/// orders file, and its status.
private func report(_ error: any ShopError, _ errors: DescriptorOutput, _ keeper: OrdersFileGuard)
  -> ExitStatus
{
  // A library's or a server's words may hold a control character, as may a URI's parts.
  var message = error.message
  if let count = error.newestToCheck {
    message += CommandLineDescription.checkBeforePlacingAgain(newest: count)
  }
  if !message.isEmpty, keeper.errorsMayBePrinted {
    errors.write("Error: \(TerminalText.lines(message))\n")
  }
  // Nothing to do if standard error can't be written: the status still says what happened.
  try? errors.flush()
  return error.status
}

// The command line's errors end a command as every error does: by their status and message.
extension UsageError: ShopError {}
extension NotAURI: ShopError {}
extension BadReadWait: ShopError {}
extension NoOrdersLocation: ShopError {}

/// Parts of the real root replaced, for a test: a part left nil is built as the command line
/// chooses, so `Parts()` is the real root. `catalog` prices `place` and `batch`; `orders`
/// saves their orders (the fast batch path is for the real file store only).
struct Parts {
  var catalog: (any Catalog)?
  var orders: (any Orders)?
}

/// The wiring: one visible function per choice (which catalog, which store, which report),
/// each building what the decisions in Choices.swift chose, and one app per command.
private struct Root {
  let environment: Environment
  let usualStore: Chosen<StoreSource>
  let streams: StandardStreams
  let clock: any WallClock
  let libpq: String
  let parts: Parts
  let keeper: OrdersFileGuard

  /// Choose, build, run, report. A command that uses a store chooses it once, in ``admit``,
  /// before anything is built or printed.
  func run(_ invocation: Invocation) throws -> ExitStatus {
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
      return try show(BuildInfo.current.versionLine(of: .shop))

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
        let report = chooseReport(options.report)
        return try show(
          Explanation.void(store, report: report, clock: clock, database: verdict).text)
      }
      switch try makeVoidOrder(options, store: store).void(number, reference: reference) {
      case .voided, .alreadyVoid: return .success
      case .noOrder, .notAnOrder, .conflict: return .rejected
      }

    case .orders(let options):
      let store = try admit(options.ordersPath, memory: false)
      let style = chooseListing(options.style, selection: options.selection)
      let wait = chooseReadWait(environment)
      if options.explain {
        return try show(
          Explanation.orders(store, options, style: style, wait: wait, database: verdict).text)
      }
      let output = try streams.listing()
      let history = try makeStore(store, reading: wait)
      let listing = OrderListing(
        output: output, style: listingStyle(style.value), lines: history.storedLines,
        notes: streams.errorOutput())
      let missing = try ListOrders(history: history.orders, listing: listing)
        .run(options.selection, in: options.range, holding: options.sku)
      return missing == 0 ? .success : .rejected

    case .summary(let options):
      let store = try admit(options.ordersPath, memory: false)
      let (grouping, style) = (chooseGrouping(options.grouping), chooseListing(options.style))
      let wait = chooseReadWait(environment)
      if options.explain {
        return try show(
          Explanation.summary(
            store, options, grouping: grouping, style: style, wait: wait, database: verdict
          ).text)
      }
      let report = SummaryListing(output: try streams.listing(), style: listingStyle(style.value))
      try Summarise(
        history: try makeStore(store, reading: wait).orders, report: report, by: grouping.value,
        sku: options.sku
      ).summarise(options.range)
      return .success

    case .catalog(let path, let format, let explain):
      let (catalog, format) = (chooseCatalog(flag: path, environment), chooseCatalogFormat(format))
      if explain { return try show(Explanation.catalog(catalog, format: format).text) }
      let output = try streams.listing()
      let json: Bool
      switch format.value {
      case .text: json = false
      case .json: json = true
      }
      CatalogListing(output: output, json: json).list(try makeCatalog(catalog))
      try output.flush()
      return .success
    }
  }

  /// The store a command's `--orders` (or `--memory`) chooses, chosen once and shown to the
  /// guard before anything is built or printed.
  func admit(_ flag: FilePath?, memory: Bool) throws -> Chosen<StoreSource> {
    let store = chooseStore(flag: flag, memory: memory, otherwise: usualStore)
    try keeper.check(adding: store)
    return store
  }

  /// Which catalog: a file, or the built-in prices, unless a test replaced it.
  func makeCatalog(_ source: Chosen<CatalogSource>) throws -> any Catalog {
    if let catalog = parts.catalog { return catalog }
    switch source.value {
    case .file(let path): return try FileCatalog(path: path)
    case .builtIn(let prices): return MemoryCatalog(entries: prices)
    }
  }

  /// Which store, for every command that has one. A URI is never taken for a path: no file
  /// named `postgres:` is ever made. A file's reads wait for a writer's lock as long as it
  /// takes, as its writes do; a command that only reads waits as `reading` (chosen by
  /// ``chooseReadWait(_:)``) says, and tells on standard error whom it waits for.
  func makeStore(_ source: Chosen<StoreSource>, reading: Chosen<ReadWaitBound>? = nil) throws
    -> BuiltStore
  {
    switch source.value {
    case .memory: return .memory(MemoryOrders())
    case .file(let path):
      var wait = ReadWait.untilFree
      switch reading?.value {
      case .seconds(let seconds)?:
        wait = .atMost(seconds: seconds, notice: streams.errorOutput())
      case .invalid(let value, let most)?: throw BadReadWait(value: value, most: most)
      case nil: break
      }
      return .file(try FileOrders(path: path, streams: streams.files, readWait: wait))
    case .postgreSQL(let uri):
      let timeout = environment.pgConnectTimeout.map { String(decoding: $0, as: UTF8.self) }
      return .postgreSQL(
        PostgresOrders(uri: uri, library: libpq, connectTimeoutVariable: timeout))
    case .notAURI(let text, let why): throw NotAURI(text: text, why: why, from: source.why)
    case .nowhere: throw NoOrdersLocation()
    }
  }

  /// Which report: loud text, quiet, or JSON, each writing where the root says.
  func makeReport(_ style: ReportStyle) throws -> BuiltReport {
    switch style {
    case .text: return .text(TextReport(output: try streams.reports()))
    case .quiet: return .quiet(QuietReport(errors: streams.errorOutput()))
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
    return VoidOrder(orders: try makeStore(store).orders, clock: clock, report: report)
  }

  /// The app of `batch`: quiet or loud text into a file (``PricedBatch``) or PostgreSQL
  /// (``PostgresPricedBatch``), priced straight from the input's bytes; otherwise one request
  /// at a time. Built in the order of `place`'s, the input opened last. The one `PlaceOrder`
  /// serves both ways.
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
    let input =
      try opened ?? BatchInput(descriptor: streams.readableInput(), name: StandardStreams.inputName)
    let placeOrder = PlaceOrder(
      catalog: catalog, orders: orders, clock: clock, report: report.report)
    switch (built, report.priced) {
    case (.file(let file)?, let priced?):
      return PlaceBatch(
        groups: PricedBatch(
          input: input, catalog: catalog, store: file, clock: clock, report: priced,
          placeOrder: placeOrder))
    case (.postgreSQL(let database)?, let priced?):
      return PlaceBatch(
        groups: PostgresPricedBatch(
          input: input, catalog: catalog, store: database, clock: clock, report: priced,
          placeOrder: placeOrder))
    case (.memory?, _), (.file?, nil), (.postgreSQL?, nil), (nil, _): break
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
      clock: clock, database: verdict
    ).text
  }

  /// What the store that would connect says of a PostgreSQL URI on this machine.
  func verdict(_ uri: String) -> DatabaseVerdict {
    if let error = PostgresOrders.uriProblem(uri, library: libpq) {
      return .refused(status: error.status, message: error.message)
    }
    return PostgresOrders.libraryProblem(libpq).map(DatabaseVerdict.unusable) ?? .usable
  }

  /// The listing the command line's format names.
  func listingStyle(_ format: ListingFormat) -> ListingStyle {
    switch format {
    case .text: return .text
    case .json: return .json
    case .csv: return .csv
    }
  }

  /// The description as help, completions and the manual tell it, with the built-in prices.
  var commandLine: CommandLineDescription {
    .shop.telling(builtInPrices: MemoryCatalog.builtInEntries)
  }

  /// Writes generated text (help, completions, the manual, an explanation) to standard output.
  func show(_ text: String) throws -> ExitStatus {
    let output = try streams.listing()
    output.write(text)
    try output.flush()
    return .success
  }
}
