import ShopConventions
import ShopCore

/// What `shop summary` prints: lines a person reads, or one JSON object per line.
///
///     orders 3  voided 1  total 470  payable 445  discount 25
///     2026-11-30  orders 2  voided 0  total 440  payable 415  discount 25      (--by day)
///     pen  quantity 5  revenue 150  orders 3                                   (--by sku)
///
/// In JSON: `{"orders":3,"voided":1,"total":470,"payable":445,"discount":25}`, with
/// `"day":"2026-11-30"` first for a day, and `{"sku":"pen","quantity":5,"revenue":150,
/// "orders":3}` for a SKU. `orders` counts every order placed, `voided` those of them a void
/// took back, and the sums are over the orders not voided (Summary.Totals).
///
/// In CSV (RFC 4180, CRLF line ends, as `orders --csv`): a header, then a record per line:
/// `orders,voided,total,payable,discount` (with `day` first for `--by day`), or
/// `sku,quantity,revenue,orders`; the header alone when there are no rows.
public final class SummaryListing: SummaryReport {
  public typealias Style = ListingStyle

  private let output: any ByteOutput
  private let style: Style
  private var json: Bool { style == .json }

  public init(output: any ByteOutput, style: Style) {
    self.output = output
    self.style = style
  }

  public convenience init(output: any ByteOutput, json: Bool) {
    self.init(output: output, style: json ? .json : .text)
  }

  public func report(_ summary: Summary, by grouping: Summary.Grouping) throws {
    var bytes: [UInt8] = []
    if style == .csv {
      SummaryListing.appendCSV(summary, by: grouping, to: &bytes)
      output.write(bytes)
      try output.flush()
      return
    }
    switch grouping {
    case .none:
      append(summary.totals, day: nil, to: &bytes)
    case .day:
      for day in summary.days { append(day.totals, day: day.start, to: &bytes) }
    case .sku:
      for sales in summary.sales { append(sales, to: &bytes) }
    }
    output.write(bytes)
    try output.flush()
  }

  private func append(_ totals: Summary.Totals, day: Timestamp?, to bytes: inout [UInt8]) {
    let date = day.map { String(TimeArgument.text($0).prefix(10)) }
    let fields = [
      ("orders", totals.orders), ("voided", totals.voided), ("total", totals.total),
      ("payable", totals.payable),
      ("discount", totals.discount),
    ]
    if json {
      var text = "{" + (date.map { "\"day\":\"\($0)\"," } ?? "")
      text += fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
      bytes.append(contentsOf: (text + "}\n").utf8)
    } else {
      let text = (date.map { [$0] } ?? []) + fields.map { "\($0.0) \($0.1)" }
      bytes.append(contentsOf: (text.joined(separator: "  ") + "\n").utf8)
    }
  }

  private func append(_ sales: Summary.Sales, to bytes: inout [UInt8]) {
    let fields = [
      ("quantity", sales.quantity), ("revenue", sales.revenue), ("orders", sales.orders),
    ]
    if json {
      bytes.append(contentsOf: "{\"sku\":".utf8)
      ByteWriter.appendJSONString(sales.sku, to: &bytes)
      for (name, value) in fields { bytes.append(contentsOf: ",\"\(name)\":\(value)".utf8) }
      bytes.append(contentsOf: "}\n".utf8)
    } else {
      let text = [sales.sku] + fields.map { "\($0.0) \($0.1)" }
      bytes.append(contentsOf: (text.joined(separator: "  ") + "\n").utf8)
    }
  }

  /// The CSV of `summary`: its header, then its rows.
  private static func appendCSV(
    _ summary: Summary, by grouping: Summary.Grouping, to bytes: inout [UInt8]
  ) {
    func record(_ fields: [String]) {
      bytes.append(contentsOf: fields.joined(separator: ",").utf8)
      bytes.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }
    func totals(_ totals: Summary.Totals) -> [String] {
      [totals.orders, totals.voided, totals.total, totals.payable, totals.discount].map {
        "\($0)"
      }
    }
    let sums = ["orders", "voided", "total", "payable", "discount"]
    switch grouping {
    case .none:
      record(sums)
      record(totals(summary.totals))
    case .day:
      record(["day"] + sums)
      for day in summary.days {
        record([String(TimeArgument.text(day.start).prefix(10))] + totals(day.totals))
      }
    case .sku:
      // A SKU is letters, digits, `-`, `_` and `.`: no field needs quoting.
      record(["sku", "quantity", "revenue", "orders"])
      for sales in summary.sales {
        record([sales.sku, "\(sales.quantity)", "\(sales.revenue)", "\(sales.orders)"])
      }
    }
  }
}
