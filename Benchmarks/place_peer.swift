// The floor of `shop place` in Swift: place_peer.c's steps, call for call, written in Swift and
// linked as `shop` is (`swiftc -O -static-executable -use-ld=lld`), so that its time beside the
// C program's is what the language's runtime costs, and `shop place` beside it what shop's own
// work costs. Benchmarks/run builds it into work/.
//
//     place_peer_swift FILE SKU=QTY...      prints: order N for P
//
// Like the C peer it checks only the last line's number, and reads a last line that fits in
// the last 4 KiB (a longer one is refused with 65, where the C peer reads further back).
import Glibc

func fail(_ what: String) -> Never {
  perror(what)
  exit(74)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  fputs("usage: place_peer_swift FILE SKU=QTY...\n", stderr)
  exit(64)
}
let catalog: [(sku: String, price: Int)] = [("pen", 30), ("lamp", 190)]
var items = ""
var total = 0
for (index, argument) in arguments.dropFirst(2).enumerated() {
  let parts = argument.split(separator: "=", maxSplits: 1)
  guard parts.count == 2, let quantity = Int(parts[1]), quantity >= 1,
    let price = catalog.first(where: { $0.sku == parts[0] })?.price
  else {
    print("no \(parts.first ?? "")")
    exit(1)
  }
  total += price * quantity
  items += (index == 0 ? "" : ",") + #"{"sku":"\#(parts[0])","quantity":\#(quantity),"price":\#(price)}"#
}
let payable = total >= 200 ? total - total / 10 : total

let fd = open(arguments[1], O_RDWR | O_APPEND | O_CLOEXEC | O_CREAT, 0o644)
if fd < 0 { fail(arguments[1]) }
while flock(fd, LOCK_EX) != 0 {}
var status = stat()
if fstat(fd, &status) != 0 { fail("fstat") }
let fileEnd = Int(status.st_size)
var completeEnd = 0
var number = 1001
var block = [UInt8](repeating: 0, count: 4096)
let blockStart = max(0, fileEnd - block.count)
let got = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress, fileEnd - blockStart, off_t(blockStart)) }
if got != fileEnd - blockStart { fail("pread") }
if let lastNewline = block[..<got].lastIndex(of: UInt8(ascii: "\n")) {
  let lineStart = block[..<lastNewline].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
  guard lineStart > 0 || blockStart == 0 else { exit(65) }
  let line = Array(block[lineStart..<lastNewline])
  let key = Array(#""number":"#.utf8)
  let at = line.indices.first { line[$0...].starts(with: key) }
  guard let at,
    let last = Int(String(decoding: line[(at + key.count)...].prefix { $0 &- 48 < 10 }, as: UTF8.self))
  else {
    fputs("\(arguments[1]): the last order is unreadable\n", stderr)
    exit(65)
  }
  number = last + 1
  completeEnd = blockStart + lastNewline + 1
}
if fileEnd != completeEnd && ftruncate(fd, off_t(completeEnd)) != 0 { fail("ftruncate") }

// UTC by hand, as shop and the C peer do (days to civil date, Howard Hinnant's algorithm).
let seconds = time(nil)
let days = seconds / 86400
let secondOfDay = seconds % 86400
let shifted = days + 719_468
let era = shifted / 146_097
let dayOfEra = shifted - era * 146_097
let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
let shiftedMonth = (5 * dayOfYear + 2) / 153
let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
func digits(_ value: Int, _ width: Int) -> String {
  let text = String(value)
  return String(repeating: "0", count: max(0, width - text.count)) + text
}
let stamp =
  "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(secondOfDay / 3600, 2)):"
  + "\(digits(secondOfDay / 60 % 60, 2)):\(digits(secondOfDay % 60, 2))Z"
let order = Array(
  (#"{"number":\#(number),"items":[\#(items)],"total":\#(total),"payable":\#(payable),"#
    + #""placedAt":"\#(stamp)"}"# + "\n").utf8)
if order.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) != order.count { fail("write") }
if fsync(fd) != 0 { fail("fsync") }
flock(fd, LOCK_UN)
let report = Array("order \(number) for \(payable)\n".utf8)
_ = report.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
exit(0)
