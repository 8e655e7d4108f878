import ShopCore
import ShopTestSupport
import Testing

/// The one rule for `did you mean`: commands, options and SKUs alike.
struct SpellingTests {
  func distance(_ a: String, _ b: String, limit: Int = .max) -> Int {
    Spelling.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit)
  }

  @Test(arguments: [
    ("pen", "pen", 0), ("", "", 0), ("", "pen", 3), ("pen", "", 3),
    ("pne", "pen", 1),  // a swap of neighbours is one edit
    ("pn", "pen", 1), ("peen", "pen", 1), ("pan", "pen", 1), ("lmap", "lamp", 1),
    ("ca", "abc", 3),  // optimal string alignment: no edit of a swapped pair
    ("kitten", "sitting", 3), ("café", "cafe", 1), ("desk", "pen", 3),
  ])
  func distanceCountsEdits(a: String, b: String, edits: Int) {
    #expect(distance(a, b) == edits)
    #expect(distance(b, a) == edits)
  }

  /// The cut-off only saves work: below it the distance is exact, above it is `limit + 1`.
  @Test func aLimitGivesTheSameAnswerUpToTheLimit() {
    var random = SplitMix(seed: 20)
    let letters = Array("abcab".unicodeScalars)
    func word() -> [Unicode.Scalar] {
      (0..<random.next(below: 12)).map { _ in letters[random.next(below: letters.count)] }
    }
    for _ in 0..<3_000 {
      let a = word()
      let b = word()
      let full = Spelling.distance(a, b)
      for limit in 0...4 {
        #expect(Spelling.distance(a, b, limit: limit) == min(full, limit + 1), "\(a) \(b)")
      }
    }
    #expect(distance("pen", "lamp", limit: -3) == 1)
  }

  static let nearestCases: [(typed: String, names: [String], expected: String?)] = [
    ("pne", ["lamp", "pen"], "pen"), ("lmap", ["lamp", "pen"], "lamp"),
    ("pens", ["lamp", "pen"], "pen"), ("ink-blak", ["ink-black", "ink-blue"], "ink-black"),
    // Up to 5 characters one edit, from 6 two.
    ("inkblak", ["ink-black"], "ink-black"), ("desk", ["dusky"], nil), ("dsk", ["desk"], "desk"),
    ("chair", ["lamp", "pen"], nil), ("desk", ["lamp", "pen"], nil), ("x", [], nil),
  ]

  @Test func nearestFollowsTheRule() {
    for (typed, names, expected) in SpellingTests.nearestCases {
      #expect(Spelling.nearest(to: typed, among: names) == expected, "\(typed) \(names)")
    }
  }

  @Test func theCloserNameWinsAndATieGoesToTheEarlier() {
    #expect(Spelling.nearest(to: "pxn", among: ["pan", "pen"]) == "pan")
    #expect(Spelling.nearest(to: "pxn", among: ["pen", "pan"]) == "pen")
    #expect(Spelling.nearest(to: "deskmats", among: ["desk", "deskmat", "desk-mats"]) == "deskmat")
    #expect(Spelling.nearest(to: "lamps", among: ["lumps", "lamp"]) == "lumps")
    #expect(Spelling.nearest(to: "pen", among: ["pens", "pan"]) == "pens")
    #expect(Spelling.nearest(to: "pen", among: ["pan", "pens"]) == "pan")
    #expect(Spelling.allowedEdits(0) == 1 && Spelling.allowedEdits(5) == 1)
    #expect(Spelling.allowedEdits(6) == 2 && Spelling.allowedEdits(64) == 2)
  }
}

/// A fixed-seed generator, so a failure can be run again.
struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
