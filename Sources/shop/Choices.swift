import ShopAdapters
import ShopCommandLine
import ShopConventions
import ShopCore

// The root's decisions, as plain values that say what was chosen and why. The root builds its
// adapters from these, and `--explain` prints them: one decision, so the two can't drift.

/// Which catalog: `--catalog`, else `$SHOP_CATALOG`, else the built-in prices.
func chooseCatalog(flag: FilePath?, _ environment: Environment) -> Chosen<CatalogSource> {
  if let flag { return Chosen(value: .file(flag), why: "from \(OptionDescription.catalog.long)") }
  if let path = environment.shopCatalog, !path.isEmpty {
    return Chosen(value: .file(FilePath(path)), why: "from $SHOP_CATALOG")
  }
  return Chosen(
    value: .builtIn(MemoryCatalog.builtInEntries),
    why: "default; \(OptionDescription.catalog.long) or $SHOP_CATALOG for a file")
}

/// Which store: memory for this run only; else `--orders`; else `usual`, the environment's
/// (``environmentStore(_:)``). A `postgres://` or `postgresql://` location is a database, a
/// look-alike of one (``ConnectionURI/lookAlike(_:)``) a usage error, anything else a file.
func chooseStore(flag: FilePath?, memory: Bool, otherwise usual: Chosen<StoreSource>)
  -> Chosen<StoreSource>
{
  if memory { return Chosen(value: .memory, why: "from \(OptionDescription.memory.long)") }
  if let flag { return located(flag.bytes, "from \(OptionDescription.orders.long)") }
  return usual
}

/// The store of every command without `--orders`: `$SHOP_ORDERS`,
/// `$XDG_DATA_HOME/shop/orders.jsonl`, `$HOME/.local/share/shop/orders.jsonl`, in that order.
/// Chosen once per run, before parsing: the orders-file guard watches it whatever the command
/// chooses.
///
/// Empty variables count as unset. A relative `XDG_DATA_HOME` or `HOME` is ignored, as the XDG
/// Base Directory specification says: it would put the orders in whatever folder the command
/// runs from, a different store in every folder.
func environmentStore(_ environment: Environment) -> Chosen<StoreSource> {
  if let value = environment.shopOrders, !value.isEmpty {
    return located(value, "from $SHOP_ORDERS")
  }
  var ignored: [String] = []
  if let xdg = environment.xdgDataHome, !xdg.isEmpty {
    if xdg.first == UInt8(ascii: "/") {
      let path = FilePath(xdg).appending("shop/orders.jsonl")
      return Chosen(
        value: .file(path), why: "default: $XDG_DATA_HOME/shop/orders.jsonl; $SHOP_ORDERS unset")
    }
    ignored.append("$XDG_DATA_HOME \(FilePath(xdg)) is relative, so ignored")
  } else {
    ignored.append("$XDG_DATA_HOME unset")
  }
  if let home = environment.home, !home.isEmpty {
    if home.first == UInt8(ascii: "/") {
      let path = FilePath(home).appending(".local/share/shop/orders.jsonl")
      let others =
        ignored == ["$XDG_DATA_HOME unset"]
        ? ["$SHOP_ORDERS and $XDG_DATA_HOME unset"]
        : ["$SHOP_ORDERS unset"] + ignored
      return Chosen(
        value: .file(path),
        why: "default: $HOME/.local/share/shop/orders.jsonl; " + others.joined(separator: "; "))
    }
    ignored.append("$HOME \(FilePath(home)) is relative, so ignored")
  } else {
    ignored.append("$HOME unset")
  }
  return Chosen(
    value: .nowhere, why: (["$SHOP_ORDERS unset"] + ignored).joined(separator: "; "))
}

/// A location given as bytes: a database, a look-alike of one, or a file.
private func located(_ bytes: [UInt8], _ why: @autoclosure @escaping () -> String)
  -> Chosen<StoreSource>
{
  if let reason = ConnectionURI.lookAlike(bytes) {
    return Chosen(value: .notAURI(ConnectionURI(bytes: bytes).text, why: reason), why: why())
  }
  guard ConnectionURI.isURI(bytes) else { return Chosen(value: .file(FilePath(bytes)), why: why()) }
  return Chosen(value: .postgreSQL(ConnectionURI(bytes: bytes).text), why: why())
}

/// How long `orders` and `summary` wait for a writer's lock on an orders file:
/// `$SHOP_TIMEOUT` seconds (0: not at all), else ``ReadWait/defaultSeconds``. Empty counts as
/// unset.
func chooseReadWait(_ environment: Environment) -> Chosen<ReadWaitBound> {
  guard let value = environment.shopTimeout, !value.isEmpty else {
    return Chosen(
      value: .seconds(ReadWait.defaultSeconds), why: "default; $SHOP_TIMEOUT for another")
  }
  // Digits only: no sign, space or fraction, and never more than a day (a number too large
  // for an Int is no number here).
  let most = ReadWait.maximumSeconds
  guard value.allSatisfy({ (0x30...0x39).contains($0) }),
    let seconds = Int(String(decoding: value, as: UTF8.self)), seconds <= most
  else { return Chosen(value: .invalid(value, most: most), why: "from $SHOP_TIMEOUT") }
  return Chosen(value: .seconds(seconds), why: "from $SHOP_TIMEOUT")
}

/// Which report, from `-q` and `--json`.
func chooseReport(_ style: ReportStyle) -> Chosen<ReportStyle> {
  let (quiet, json) = (OptionDescription.quiet.shortest, OptionDescription.json.long)
  switch style {
  case .text: return Chosen(value: .text, why: "default; \(quiet) for none, \(json) for JSON")
  case .quiet: return Chosen(value: .quiet, why: "from \(quiet)")
  case .json: return Chosen(value: .json, why: "from \(json)")
  }
}

/// How `orders` or `summary` prints: `--json`, `--csv`, else text. For text, the reason names
/// only the forms this selection could take instead: a count is a number, and numbers have no
/// CSV.
func chooseListing(_ style: ListingFormat, selection: OrderSelection = .all)
  -> Chosen<ListingFormat>
{
  let (json, csv) = (OptionDescription.json.long, OptionDescription.csv.long)
  switch (style, selection) {
  case (.json, _): return Chosen(value: .json, why: "from \(json)")
  case (.csv, _): return Chosen(value: .csv, why: "from \(csv)")
  case (.text, .count): return Chosen(value: .text, why: "a count has no other form")
  case (.text, .numbers): return Chosen(value: .text, why: "default; \(json)")
  case (.text, .all), (.text, .last), (.text, .reference):
    return Chosen(value: .text, why: "default; \(json) or \(csv)")
  }
}

/// How `catalog` prints: `--json`, else text.
func chooseCatalogFormat(_ format: CatalogFormat) -> Chosen<CatalogFormat> {
  let json = OptionDescription.json.long
  switch format {
  case .text: return Chosen(value: .text, why: "default; \(json) for JSON")
  case .json: return Chosen(value: .json, why: "from \(json)")
  }
}

/// How `summary` groups its rows: by what `--by` names, else one line of sums.
func chooseGrouping(_ grouping: Summary.Grouping) -> Chosen<Summary.Grouping> {
  let by = OptionDescription.by.long
  guard let word = grouping.word else {
    let rows = Summary.Grouping.words.map { "\(by) \($0)" }.joined(separator: " or ")
    return Chosen(value: grouping, why: "default; \(rows) for rows")
  }
  return Chosen(value: grouping, why: "from \(by) \(word)")
}
