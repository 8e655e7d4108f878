import ShopConventions
import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The search for voids that every full listing makes first (FileOrders+Voids.swift) looks
/// for `voids` and escapes over each buffer of whole lines read, not line by line. Held here
/// to the plain rule, each line searched and parsed in turn: on random files of several buffers with
/// voids anywhere (at a buffer's edge too), the word in SKUs and refs, escapes, lines longer
/// than a buffer, damaged lines and voids the file may not hold, both find the same voids and
/// stop at the same fault, at the same offset, from the start or from any line.
struct VoidSearchTests {
  /// What the plain rule finds: each line that may be a void parsed, its void recorded, until
  /// a line that is not a record, a void of a void or of an order voided before, or a line
  /// past the bound.
  func plain(_ store: FileOrders, _ snapshot: FileOrders.Snapshot, from start: Int)
    -> (voided: [Int: Int], fault: (Int, String)?)
  {
    var found: [Int: Int] = [:]
    var voids: Set<Int> = []
    var fault: (Int, String)?
    var next = start  // Where the line after the last one read starts.
    do {
      try snapshot.lines(from: start, firstLine: nil) { offset, _, bytes in
        next = offset + bytes.count + 1
        // Only a line that holds `voids` or an escape (which could spell it) may be a void.
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("voids") || text.contains("\\") else { return true }
        do {
          let (record, _) = try store.parse(bytes, line: nil, at: offset, in: snapshot)
          guard let voided = record.voids else { return true }
          if found[voided] != nil || voids.contains(voided) {
            fault = (offset, "void \(record.number)")
            return false
          }
          found[voided] = record.number
          voids.insert(record.number)
          return true
        } catch {
          fault = (offset, "\(error)")
          return false
        }
      }
    } catch {
      // A line longer than the bound, refused at its start.
      fault = (next, "\(error)")
    }
    return (found, fault)
  }

  func randomFile(_ random: inout SplitMix) -> String {
    var lines: [String] = []
    var number = 1001
    var orders: [Int] = []
    let count = Int.random(in: 500...3000, using: &random)
    while lines.count < count {
      let kind = Int.random(in: 0..<100, using: &random)
      let time = "2026-12-03T10:00:00Z"
      switch kind {
      case 0..<8:
        // A void; now and then one of an order voided before, or of a void.
        let target = orders.randomElement(using: &random) ?? 1001
        lines.append(#"{"number":\#(number),"voids":\#(target),"placedAt":"\#(time)"}"#)
        if Int.random(in: 0..<6, using: &random) != 0 { orders.removeAll { $0 == target } }
      case 8..<10:
        // A void in another layout, its key spelt with an escape.
        let target = orders.randomElement(using: &random) ?? 1001
        lines.append(#"{"number": \#(number), "v\u006fids": \#(target), "placedAt": "\#(time)"}"#)
        orders.removeAll { $0 == target }
      case 10:
        lines.append("#damaged \(number)")
      case 12 where Int.random(in: 0..<3, using: &random) == 0:
        // Past the bound of a store that takes lines of at most 100,000 bytes.
        lines.append(String(repeating: "x", count: 120_000))
      case 11:
        // Longer than the 64 KiB a buffer starts with: the reader grows it.
        let ref = String(repeating: "r", count: 60)
        let items = Array(
          repeating: #"{"sku":"voids-pen","quantity":1,"price":1}"#, count: 1)
        let pad = String(repeating: " ", count: 70_000)
        lines.append(
          #"{"number":\#(number),"ref":"\#(ref)",\#(pad)"items":[\#(items.joined(separator: ","))],"#
            + #""total":1,"payable":1,"placedAt":"\#(time)"}"#)
        orders.append(number)
      default:
        let sku = kind < 20 ? "voids" : "pen-\(kind)"
        let ref = kind % 5 == 0 ? #""ref":"voids-\#(number)","# : ""
        lines.append(
          #"{"number":\#(number),\#(ref)"items":[{"sku":"\#(sku)","quantity":1,"price":3}],"#
            + #""total":3,"payable":3,"placedAt":"\#(time)"}"#)
        orders.append(number)
      }
      number += 1
    }
    return lines.joined(separator: "\n") + (Bool.random(using: &random) ? "\n" : "")
  }

  @Test func theSearchOverBuffersFindsWhatEveryLineParsedFinds() throws {
    var random = SplitMix(seed: 35)
    var (withVoids, faults) = (0, 0)
    for _ in 0..<24 {
      let folder = try TemporaryFolder()
      let path = try folder.write("orders.jsonl", randomFile(&random))
      let store =
        Bool.random(using: &random)
        ? FileOrders(path: FilePath(path)) : FileOrders(path: FilePath(path), lineBound: 100_000)
      let snapshot = try #require(try store.openSnapshot(strict: false))
      var starts = [0]
      try? snapshot.lines(from: 0, firstLine: nil) { offset, _, _ in
        if Int.random(in: 0..<400, using: &random) == 0 { starts.append(offset) }
        return true
      }
      for start in starts {
        let expected = plain(store, snapshot, from: start)
        let found = try store.voids(in: snapshot, from: start, upToAFault: true)
        #expect(found.voided == expected.voided)
        #expect(found.fault?.offset == expected.fault?.0)
        if let fault = found.fault, let wanted = expected.fault {
          #expect("\(fault.error)".contains(wanted.1) || wanted.1.hasPrefix("void"))
          faults += 1
        }
        if !found.voided.isEmpty { withVoids += 1 }
      }
    }
    #expect(withVoids > 10 && faults > 5, "\(withVoids) with voids, \(faults) faults")
  }
}
