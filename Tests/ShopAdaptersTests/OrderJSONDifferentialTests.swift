import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The fast decoder, the general decoder and the torn-line rule all follow ``OrderLayout``:
/// on random orders (fixed seed), their mutations and hand-made odd lines, the fast decoder
/// either declines or gives exactly what the general one gives.
struct OrderJSONDifferentialTests {
  static let skuBytes = Array("abcxyzABZ0189-_.".utf8)
  static let referenceBytes = Array("aZ09-_.:/".utf8)

  func randomText(_ alphabet: [UInt8], _ lengths: ClosedRange<Int>, _ random: inout SplitMix)
    -> String
  {
    let count = Int.random(in: lengths, using: &random)
    return String(
      decoding: (0..<count).map { _ in alphabet.randomElement(using: &random) ?? 0x61 },
      as: UTF8.self)
  }

  func randomOrder(_ random: inout SplitMix) throws -> Order {
    let lines = (0..<Int.random(in: 1...6, using: &random)).map { _ in
      OrderLine(
        sku: randomText(Self.skuBytes, 1...SKU.maximumLength, &random),
        quantity: Int.random(in: 1...Cart.maximumQuantity, using: &random),
        price: Bool.random(using: &random) ? 0 : Int.random(in: 0...1_000_000_000, using: &random))
    }
    let reference =
      Bool.random(using: &random)
      ? Reference(randomText(Self.referenceBytes, 1...Reference.maximumLength, &random)) : nil
    let time = Timestamp(secondsSince1970: Int64.random(in: 0...12_000_000_000, using: &random))
    let draft = try #require(Draft(lines: lines, placedAt: time, reference: reference))
    let number = Int.random(in: Order.firstNumber...Int.max, using: &random)
    return Order(number: number, draft: draft)
  }

  func encoded(_ order: Order) -> [UInt8] {
    var encoder = OrderJSON.Encoder()
    var bytes: [UInt8] = []
    encoder.append(order, to: &bytes)
    return bytes
  }

  func fast(_ line: [UInt8]) -> Order? {
    line.withUnsafeBufferPointer { bytes in
      var parser = JSONParser(bytes: bytes)
      return parser.encodersOrder()
    }
  }

  func general(_ line: [UInt8]) -> Result<Order, OrderJSONError> {
    line.withUnsafeBufferPointer { bytes in
      var parser = JSONParser(bytes: bytes)
      return Result { () throws(OrderJSONError) in try parser.generalOrder() }
    }
  }

  /// The fast reader declines or agrees; never reads a line otherwise than the general one.
  func expectAgreement(_ line: [UInt8]) {
    guard let order = fast(line) else { return }
    #expect(
      general(line) == .success(order), "\(String(decoding: line, as: UTF8.self))")
  }

  @Test func bothReadEveryEncodedOrderBackAsIt() throws {
    var random = SplitMix(seed: 17)
    for _ in 0..<500 {
      let order = try randomOrder(&random)
      let line = Array(encoded(order).dropLast())
      #expect(fast(line) == order)
      #expect(general(line) == .success(order))
    }
  }

  /// `orders` random orders' encoded lines, each with `each` random mutations of it (bytes from
  /// `noise`), from `seed`: for the tests that hold a fast reader to a plain one.
  func mutatedLines(seed: UInt64, noise: [UInt8], orders: Int = 400, each: Int) throws
    -> [(line: [UInt8], mutated: [UInt8])]
  {
    var random = SplitMix(seed: seed)
    var pairs: [(line: [UInt8], mutated: [UInt8])] = []
    for _ in 0..<orders {
      let line = Array(encoded(try randomOrder(&random)).dropLast())
      for _ in 0..<each { pairs.append((line, mutation(of: line, noise: noise, &random))) }
    }
    return pairs
  }

  /// `line` with one random change: a byte taken out, put in or replaced (from `noise`), or
  /// the rest cut off.
  func mutation(of line: [UInt8], noise: [UInt8], _ random: inout SplitMix) -> [UInt8] {
    var mutated = line
    let at = Int.random(in: 0..<mutated.count, using: &random)
    switch Int.random(in: 0..<4, using: &random) {
    case 0: mutated.remove(at: at)
    case 1: mutated.insert(noise.randomElement(using: &random) ?? 0x20, at: at)
    case 2: mutated[at] = noise.randomElement(using: &random) ?? 0x20
    default: mutated.removeSubrange(at...)
    }
    return mutated
  }

  @Test func onMutatedLinesTheFastReaderDeclinesOrAgrees() throws {
    let noise = Array(" \"\\0-,:}{[]x.eE".utf8) + [0x80, 0xC3, 0x0D, 0x09]
    var declined = 0
    var acceptedChanged = 0
    for (line, mutated) in try mutatedLines(seed: 18, noise: noise, each: 8) {
      expectAgreement(mutated)
      if fast(mutated) == nil {
        declined += 1
      } else if mutated != line {
        acceptedChanged += 1
      }
    }
    // Both outcomes happen, so the comparison above was made on lines of each kind.
    #expect(declined > 1000)
    #expect(acceptedChanged > 0)
  }

  @Test(arguments: [
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":02,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":-0}],"total":0,"payable":0,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"} "#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#
      + "\r",
    #"{"number":1001,"items":[{"sku":"p\u0065n","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":0,"price":30}],"total":0,"payable":0,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1000,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":54,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[],"total":0,"payable":0,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"ref":"","items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"ref":"a b","items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-02-30T06:06:43Z"}"#,
    #"{"number":99999999999999999999,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":4611686018427387904}],"total":-9223372036854775808,"payable":-9223372036854775808,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z","number":1001}"#,
    #"{"items":[{"sku":"pen","quantity":2,"price":30}],"number":1001,"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30},],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
    #"{"number":1001,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"#,
    #"{"number":1001.0,"items":[{"sku":"pen","quantity":2,"price":30}],"total":60,"payable":60,"placedAt":"2026-11-30T06:06:43Z"}"#,
  ])
  func onOddLinesTheFastReaderDeclinesOrAgrees(line: String) {
    expectAgreement(Array(line.utf8))
  }

  /// Every start of an encoded line is a prefix, all of it but the newline is the whole line,
  /// the next order's number differs at once: the torn-line rule follows the same layout.
  @Test func theTornLineRuleMatchesEveryPrefixOfTheEncodersLine() throws {
    var random = SplitMix(seed: 19)
    for round in 0..<24 {
      let order = try randomOrder(&random)
      let line = Array(encoded(order).dropLast())
      // The line and a newline in chunks of random sizes, as a file is read; a prefix ends
      // partway through one of them.
      let bytes = line + [0x0A]
      var chunks: [[UInt8]] = []
      var ends: [Int] = []
      while (ends.last ?? 0) < bytes.count {
        let start = ends.last ?? 0
        let end = min(bytes.count, start + Int.random(in: 1...17, using: &random))
        chunks.append(Array(bytes[start..<end]))
        ends.append(end)
      }
      func start(_ end: Int, number: Int) -> OrderJSON.LineStart {
        let whole = ends.prefix { $0 <= end }.count
        var prefix = Array(chunks[..<whole])
        let cut = whole == 0 ? 0 : ends[whole - 1]
        if cut < end { prefix.append(Array(bytes[cut..<end])) }
        var iterator = prefix.makeIterator()
        return OrderJSON.lineStart(of: &iterator, number: number)
      }
      // Every end on a third of the orders; on the others (each end costs a match from the
      // line's start), the first and last 64 and 64 more at random.
      let checked =
        round % 3 == 0 || line.count <= 192
        ? Array(1..<line.count)
        : Array(1...64) + Array((line.count - 64)..<line.count)
          + (0..<64).map { _ in Int.random(in: 65..<(line.count - 64), using: &random) }
      let notPrefixes = checked.filter { start($0, number: order.number) != .prefix }
      #expect(notPrefixes.isEmpty, "ends that are not prefixes: \(notPrefixes)")
      #expect(start(line.count, number: order.number) == .wholeLine)
      #expect(start(line.count + 1, number: order.number) == .other)
      let other = order.number == Int.max ? order.number - 1 : order.number + 1
      #expect(start(line.count, number: other) == .other)
    }
  }
}

extension SplitMix: RandomNumberGenerator {}
