import ShopConventions
import ShopCore

/// How a listing or summary is printed: text, JSON or CSV; `--json` and `--csv` make one
/// choice, since they can't be given together.
public enum ListingStyle: Equatable, Sendable {
  case text, json, csv
}

/// What `shop orders` prints, from any store's ``OrderHistory``: a line a person reads
/// (``OrderText``), each order's JSON, or CSV with a header (``OrderCSV``). The JSON of an
/// order is the store's own line when it keeps one (``StoredOrderLines``), copied byte for
/// byte (it was checked when it was read), else it is encoded.
///
/// It writes through a bounded buffer, delivered whenever it fills: the first lines go out at
/// once, memory does not grow with the number of orders, and a reader that goes away stops
/// the listing at the next delivery.
public final class OrderListing: Listing {
  public typealias Style = ListingStyle

  private let output: any ByteOutput
  private let style: Style
  private let lines: (any StoredOrderLines)?
  /// Where CSV, which has no record for it, tells a ref that no order holds.
  private let notes: (any ByteOutput)?
  private var buffer: [UInt8] = []
  private var encoder = OrderJSON.Encoder()
  private var times = UTCTime.LastText()
  private static let deliveryBytes = 1 << 16

  /// `lines`: the store listed, when it keeps the lines `--json` prints. `notes`: where a CSV
  /// listing says what it did not find (standard error), so its output stays a spreadsheet's.
  public init(
    output: any ByteOutput, style: Style, lines: (any StoredOrderLines)? = nil,
    notes: (any ByteOutput)? = nil
  ) {
    self.output = output
    self.style = style
    self.lines = lines
    self.notes = notes
    buffer.reserveCapacity(OrderListing.deliveryBytes + 4096)
    headerDue = style == .csv
  }

  /// The CSV header, until it is written: before the first order, or alone at the end of a
  /// complete listing of none; never alone before an error.
  private var headerDue: Bool

  private func writeHeader() {
    guard headerDue else { return }
    headerDue = false
    buffer.insert(contentsOf: OrderCSV.header, at: 0)
  }

  public func list(_ order: Order) throws {
    switch style {
    case .text:
      OrderText.append(order, to: &buffer, times: &times)
    case .json:
      if let stored = lines?.storedLine(of: order) {
        buffer.append(contentsOf: stored)
        buffer.append(UInt8(ascii: "\n"))
      } else {
        encoder.append(order, to: &buffer)
      }
    case .csv:
      writeHeader()
      OrderCSV.append(order, to: &buffer)
    }
    if buffer.count >= OrderListing.deliveryBytes { try deliver(complete: false) }
  }

  /// Every order of `history`, for `--json` of a whole store that keeps its lines (the root
  /// hands that store in as `lines`): each line copied as it is checked
  /// (``StoredOrderLines/readAllLines(_:orders:)``); other stores and styles visit each order.
  /// ``ListOrders`` delivers, at the end and after an error.
  public func listEvery(in history: any OrderHistory) throws {
    guard style == .json, let store = lines, ObjectIdentifier(store) == ObjectIdentifier(history)
    else {
      return try history.readAll(list)
    }
    try store.readAllLines(
      { lines in
        // A run of whole lines goes to the output as it lies, after what is buffered.
        guard lines.last == UInt8(ascii: "\n") else {
          if OrderListing.append(lines, to: &buffer) { try deliver(complete: false) }
          return
        }
        if !buffer.isEmpty {
          output.write(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
        try output.deliver(UnsafeRawBufferPointer(lines))
      }, orders: list)
  }

  /// Appends `line` and its newline; whether the buffer is now full enough to deliver.
  private static func append(_ line: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) -> Bool {
    buffer.append(contentsOf: line)
    buffer.append(UInt8(ascii: "\n"))
    return buffer.count >= OrderListing.deliveryBytes
  }

  /// `no order N`, or `{"missing":N}` in JSON; in CSV, which has no such record, nothing (the
  /// exit status says it).
  public func missing(_ number: Int) {
    switch style {
    case .text: buffer.append(contentsOf: "no order \(number)\n".utf8)
    case .json: buffer.append(contentsOf: "{\"missing\":\(number)}\n".utf8)
    case .csv: break
    }
  }

  /// `no order with ref REF`, or `{"missingRef":"REF"}` in JSON; in CSV, the text line to
  /// `notes`.
  public func missing(reference: Reference) {
    switch style {
    case .text: buffer.append(contentsOf: "no order with ref \(reference)\n".utf8)
    case .json:
      buffer.append(contentsOf: #"{"missingRef":"#.utf8)
      ByteWriter.appendJSONString(reference.text, to: &buffer)
      buffer.append(contentsOf: "}\n".utf8)
    case .csv: notes?.write("no order with ref \(reference)\n")
    }
  }

  /// The number alone on a line.
  public func count(_ count: Int) {
    buffer.append(contentsOf: "\(count)\n".utf8)
  }

  public func deliver(complete: Bool) throws {
    if complete { writeHeader() }
    output.write(buffer)
    buffer.removeAll(keepingCapacity: true)
    try output.flush()
    // As an error message: a note standard error can't take changes no status.
    try? notes?.flush()
  }
}
