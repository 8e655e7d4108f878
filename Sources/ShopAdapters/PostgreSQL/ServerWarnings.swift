/// The server's warnings (severity `WARNING`), kept by libpq's notice receiver as libpq reads
/// them, in order. COMMIT's matter: PostgreSQL answers COMMIT with success and a warning when
/// its wait for a synchronous standby is cancelled (`canceling wait for synchronous
/// replication …`: committed locally, perhaps not on the standby), and nothing else in the
/// answer says so. Other notices (a table that already exists) are dropped: they are not for
/// the user's terminal.
final class ServerWarnings {
  private(set) var texts: [String] = []
  private let field: @convention(c) (LibPQ.Answer?, Int32) -> LibPQ.Text?
  private let message: @convention(c) (LibPQ.Answer?) -> LibPQ.Text?

  init(_ pq: LibPQ) {
    field = pq.resultErrorField
    message = pq.resultErrorMessage
  }

  /// For libpq: this object, which the connection keeps alive as long as libpq may call.
  var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// libpq's notice receiver: `context` is a ``ServerWarnings``.
  static let receive: @convention(c) (UnsafeMutableRawPointer?, LibPQ.Answer?) -> Void = {
    context, notice in
    guard let context, let notice else { return }
    let warnings = Unmanaged<ServerWarnings>.fromOpaque(context).takeUnretainedValue()
    // The severity not translated (PostgreSQL 9.6 on): a translated message can't be matched.
    guard let severity = warnings.field(notice, PostgresConnection.severityField),
      String(cString: severity) == "WARNING"
    else { return }
    warnings.texts.append(PostgresPlace.firstLine(LibPQ.text(warnings.message(notice))))
  }

  /// Forgets what came so far: called before the answer that matters is read.
  func clear() {
    texts.removeAll()
  }
}
