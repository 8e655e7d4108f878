import ShopCore

/// What `shop catalog` prints: `lamp 190` lines, or `{"sku":"lamp","price":190}` lines.
public struct CatalogListing {
  private let output: any ByteOutput
  private let json: Bool

  public init(output: any ByteOutput, json: Bool) {
    self.output = output
    self.json = json
  }

  public func list(_ catalog: any Catalog) {
    var line: [UInt8] = []
    for entry in catalog.entries {
      line.removeAll(keepingCapacity: true)
      if json {
        line.append(contentsOf: #"{"sku":"#.utf8)
        ByteWriter.appendJSONString(entry.sku, to: &line)
        line.append(contentsOf: #","price":"#.utf8)
        ByteWriter.appendDecimal(entry.price, to: &line)
        line.append(UInt8(ascii: "}"))
      } else {
        line.append(contentsOf: entry.sku.utf8)
        line.append(UInt8(ascii: " "))
        ByteWriter.appendDecimal(entry.price, to: &line)
      }
      line.append(UInt8(ascii: "\n"))
      output.write(line)
    }
  }
}
