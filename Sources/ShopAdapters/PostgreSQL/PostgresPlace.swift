import ShopConventions
import ShopCore

/// Which database on which server, for messages: `'shop' on 127.0.0.1:5432`.
struct PostgresPlace: CustomStringConvertible {
  let database: String
  let host: String
  let port: String?
  /// The URI's own `options` (server settings), which ours are added to.
  let options: String?
  /// The URI's own `connect_timeout`, as written (libpq's environment default left out).
  var connectTimeout: String? = nil

  /// The URI's own parameters, which libpq does not know and so must not see: `shop_timeout`
  /// (seconds, 1 to 86400), the longest wait for any one answer of the server. Returns the
  /// URI without them, and the timeout.
  static func shopParameters(of uri: String) -> Result<(String, Int), PostgresError> {
    guard let question = uri.firstIndex(of: "?") else {
      return .success((uri, PostgresConnection.defaultAnswerTimeout))
    }
    var timeout = PostgresConnection.defaultAnswerTimeout
    var kept: [Substring] = []
    for parameter in uri[uri.index(after: question)...].split(
      separator: "&", omittingEmptySubsequences: false)
    {
      guard parameter.hasPrefix("shop_timeout=") else {
        kept.append(parameter)
        continue
      }
      guard let seconds = Int(parameter.dropFirst("shop_timeout=".count)),
        (1...86_400).contains(seconds)
      else {
        return .failure(
          PostgresError(
            status: .usage,
            message: "the orders URI's shop_timeout must be a whole number of seconds from 1 "
              + "to 86400"))
      }
      timeout = seconds
    }
    let base = String(uri[..<question])
    return .success((kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), timeout))
  }

  /// Reads the URI with libpq's own parser; nil, and why, when it is not one.
  static func parse(_ uri: String, _ pq: LibPQ) -> Result<PostgresPlace, PostgresError> {
    var failure: UnsafeMutablePointer<CChar>?
    guard let options = pq.options(pq.conninfoParse(uri, &failure)) else {
      let reason = failure.map { String(cString: $0) } ?? "out of memory"
      if let failure { pq.freemem(failure) }
      // libpq quotes the URI, or the part it could not read, which may be the password:
      // with a password in the URI, its reason is not repeated.
      let why =
        PostgresPlace.holdsPassword(uri)
        ? "libpq can't read it (check the host, the port and every %-escape)"
        : PostgresPlace.firstLine(reason)
      return .failure(
        PostgresError(status: .usage, message: "the orders URI is not a PostgreSQL URI: \(why)"))
    }
    var values: [String: String] = [:]
    for option in options {
      if let value = option.value { values[option.keyword] = value }
    }
    // A value libpq reads only when it connects, and would refuse then: refused now, as a
    // URI it can't take (64, not 69: trying again will not help).
    if let why = refusal(values) {
      return .failure(
        PostgresError(status: .usage, message: "the orders URI is not a PostgreSQL URI: \(why)"))
    }
    let host = values["host"].flatMap { $0.isEmpty ? nil : $0 } ?? values["hostaddr"]
    return .success(
      PostgresPlace(
        database: values["dbname"].flatMap { $0.isEmpty ? nil : $0 } ?? values["user"]
          ?? "(default)",
        host: host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost",
        port: values["port"].flatMap { $0.isEmpty ? nil : $0 },
        options: values["options"], connectTimeout: values["connect_timeout"]))
  }

  /// The values libpq takes for each parameter it checks against a list when it connects
  /// (`strcmp`: in this letter case); a parameter this libpq does not know is refused by its
  /// parser before this is asked, so a newer one's list is never checked against an older
  /// libpq.
  static let enumerated: [(key: String, values: [String])] = [
    ("sslmode", ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]),
    ("gssencmode", ["disable", "prefer", "require"]),
    ("channel_binding", ["disable", "prefer", "require"]),
    (
      "target_session_attrs",
      ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"]
    ),
    ("load_balance_hosts", ["disable", "random"]),
    ("sslcertmode", ["disable", "allow", "require"]),
    ("sslnegotiation", ["postgres", "direct"]),
  ]

  /// The parameters libpq reads as a C `int` when it connects over TCP (refused here whatever
  /// the host: a URI whose meaning changes with it is a mistake all the same).
  /// `connect_timeout` is not one: `shop` bounds connecting itself, and reads a value that is
  /// not a number as unset.
  static let integers = [
    "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
    "tcp_user_timeout",
  ]

  /// Why libpq would refuse `values` (the URI as its parser read it) when it connects, or nil:
  /// a port that is not an integer from 1 to 65535 (each of a list; an empty one is the
  /// default), more than one port but not one per host, an integer parameter that is not a
  /// C `int`, a value not in a parameter's list, a TLS version libpq does not name.
  static func refusal(_ values: [String: String]) -> String? {
    func quoted(_ text: String) -> String { TerminalText.quoted(text.utf8) }
    if let ports = values["port"] {
      let each = ports.split(separator: ",", omittingEmptySubsequences: false)
      for port in each where !port.isEmpty {
        guard let number = cInt(port), (1...65_535).contains(number) else {
          return "the port \(quoted(String(port))) is not a number from 1 to 65535"
        }
      }
      let hosts =
        (values["host"].flatMap { $0.isEmpty ? nil : $0 } ?? values["hostaddr"])
        .map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? 1
      if each.count > 1, each.count != hosts {
        return
          "\(each.count) ports for \(hosts) host\(hosts == 1 ? "" : "s"): give one, or one per host"
      }
    }
    for key in integers {
      if let value = values[key], !value.isEmpty, cInt(Substring(value)) == nil {
        return "\(key) \(quoted(value)) is not a whole number"
      }
    }
    for (key, allowed) in enumerated {
      if let value = values[key], !value.isEmpty, !allowed.contains(value) {
        return "\(key) \(quoted(value)) is not one of \(allowed.joined(separator: ", "))"
      }
    }
    let versions = ["tlsv1", "tlsv1.1", "tlsv1.2", "tlsv1.3"]
    for key in ["ssl_min_protocol_version", "ssl_max_protocol_version"] {
      if let value = values[key], !value.isEmpty, !versions.contains(value.lowercased()) {
        return "\(key) \(quoted(value)) is not one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3"
      }
    }
    return nil
  }

  /// `text` as libpq's `parse_int_param` reads it (`strtol`: blanks, a sign, digits, then
  /// only blanks), or nil when it refuses it.
  static func cInt(_ text: Substring) -> Int? {
    let blanks: Set<Character> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]
    var rest = text.drop { blanks.contains($0) }
    while let last = rest.last, blanks.contains(last) { rest = rest.dropLast() }
    var digits = rest
    if let sign = digits.first, sign == "+" || sign == "-" { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let number = Int32(rest.first == "+" ? rest.dropFirst() : rest)
    else { return nil }
    return Int(number)
  }

  /// libpq's reading of the URI, whose %-escapes may make a newline or an escape sequence.
  var description: String {
    TerminalText.quoted(database.utf8) + " on " + TerminalText.escaped(host.utf8)
      + (port.map { ":" + TerminalText.escaped($0.utf8) } ?? "")
  }

  /// The same place as `connection` reports it: the database, host (or socket folder) and
  /// port libpq settled on.
  func used(by connection: OpaquePointer, _ pq: LibPQ) -> PostgresPlace {
    func text(_ value: UnsafeMutablePointer<CChar>?) -> String? {
      value.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
    return PostgresPlace(
      database: text(pq.db(connection)) ?? database, host: text(pq.host(connection)) ?? host,
      port: text(pq.port(connection)) ?? port, options: options)
  }

  /// Whether `uri` gives a password: `user:password@` before the host, or a `password=`
  /// parameter. Judged on the text alone, for a URI libpq could not read.
  static func holdsPassword(_ uri: String) -> Bool {
    // `user:password@`, and `password=` with its key typed or %-escaped.
    if ConnectionURI.redacting(uri, wholeURI: true) != uri { return true }
    return uri.holdsText("password")
  }

  /// The first line of `text`, with every password field in it cut out: the userinfo's
  /// `user:password@` after a `://`, and the value of a `password=`. Only the field: a short
  /// password's letters elsewhere in the text stay as they are.
  func redacted(_ text: String) -> String {
    ConnectionURI.redacting(PostgresPlace.firstLine(text))
  }

  static func firstLine(_ text: String) -> String {
    let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    return line.trimmingSpaces()
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var text = Substring(self)
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    return String(text)
  }
}
