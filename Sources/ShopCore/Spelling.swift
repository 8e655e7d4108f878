/// Which name someone meant by a mistyped one: the rule behind `did you mean 'place'?` for a
/// command or option and `no pne (did you mean pen?)` for a SKU, so both suggest alike.
public enum Spelling {
  /// The name of `names` nearest to `typed` by ``distance(_:_:limit:)``, or nil when none is
  /// close. A name of up to 5 characters may be 1 edit away, a longer one 2 (short names need
  /// a close match, or every typo would suggest something); a tie goes to the earlier name.
  /// For many searches of the same names, ``Names`` does the same faster.
  public static func nearest(to typed: String, among names: some Sequence<String>) -> String? {
    Names(Array(names)).nearest(to: typed)
  }

  /// How many edits a typed name of `count` characters may be from the one it suggests.
  public static func allowedEdits(_ count: Int) -> Int {
    max(1, min(2, count / 3))
  }

  /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
  /// two neighbours, one edit each. Once every way is past `limit`, returns `limit + 1` at once
  /// (so a search over many names costs little for the far ones).
  public static func distance<Element: Equatable>(
    _ a: [Element], _ b: [Element], limit: Int = Int.max
  ) -> Int {
    var rows = Rows()
    return distance(a, b, limit: limit, rows: &rows)
  }

  /// The three rows of the table ``distance(_:_:limit:)`` fills, kept between calls so that
  /// a search over many names allocates them once.
  struct Rows {
    var before: [Int] = []
    var previous: [Int] = []
    var current: [Int] = []
  }

  static func distance<Element: Equatable>(
    _ a: [Element], _ b: [Element], limit: Int, rows: inout Rows
  ) -> Int {
    let limit = min(max(limit, 0), Int.max - 1)
    if a.isEmpty { return min(b.count, limit + 1) }
    if b.isEmpty { return min(a.count, limit + 1) }
    let width = b.count + 1
    rows.before.removeAll(keepingCapacity: true)
    rows.before.append(contentsOf: repeatElement(0, count: width))
    rows.previous.removeAll(keepingCapacity: true)
    rows.previous.append(contentsOf: 0..<width)
    rows.current.removeAll(keepingCapacity: true)
    rows.current.append(contentsOf: repeatElement(0, count: width))
    var previousSmallest = 0
    for i in 1...a.count {
      rows.current[0] = i
      var smallest = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var cell = min(
          rows.previous[j] + 1, rows.current[j - 1] + 1, rows.previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          cell = min(cell, rows.before[j - 2] + 1)
        }
        rows.current[j] = cell
        smallest = min(smallest, cell)
      }
      // A cell is at least the smallest of the two rows above it (a swap reaches back two):
      // once two rows in a row are past the limit, every later one is too.
      if smallest > limit, previousSmallest > limit { return limit + 1 }
      previousSmallest = smallest
      swap(&rows.before, &rows.previous)
      swap(&rows.previous, &rows.current)
    }
    return min(rows.previous[b.count], limit + 1)
  }

  /// Names prepared once for many searches, as a catalog's SKUs are for a batch of mistyped
  /// ones: each name split into characters once, and grouped by length, since a name more
  /// characters longer or shorter than the edits allowed can't be near.
  public struct Names {
    private let names: [String]
    private let characters: [[Unicode.Scalar]]
    /// Which characters each name has (a bit for each value modulo 64): one edit adds at most
    /// one and removes at most one, so names whose sets differ by more than twice the edits
    /// allowed are skipped without computing their distance.
    private let masks: [UInt64]
    /// For each length, the positions in `names` of the names that long, in order.
    private let byLength: [Int: [Int]]

    public init(_ names: [String]) {
      self.names = names
      let characters = names.map { Array($0.unicodeScalars) }
      self.characters = characters
      masks = characters.map(Names.mask)
      var byLength: [Int: [Int]] = [:]
      for (position, name) in characters.enumerated() {
        byLength[name.count, default: []].append(position)
      }
      self.byLength = byLength
    }

    private static func mask(_ characters: [Unicode.Scalar]) -> UInt64 {
      characters.reduce(0) { $0 | 1 << ($1.value % 64) }
    }

    /// ``Spelling/nearest(to:among:)`` among these names.
    public func nearest(to typed: String) -> String? {
      let typed = Array(typed.unicodeScalars)
      let allowed = Spelling.allowedEdits(typed.count)
      let mask = Names.mask(typed)
      var rows = Rows()
      var best: (position: Int, distance: Int)?
      for length in max(0, typed.count - allowed)...(typed.count + allowed) {
        for position in byLength[length] ?? [] {
          // Only a closer name, or as close and earlier, can take the place of the best.
          let limit = best.map { $0.position < position ? $0.distance - 1 : $0.distance } ?? allowed
          guard limit >= 0, (mask ^ masks[position]).nonzeroBitCount <= 2 * limit else {
            continue
          }
          let distance = Spelling.distance(typed, characters[position], limit: limit, rows: &rows)
          if distance <= limit { best = (position, distance) }
        }
      }
      return best.map { names[$0.position] }
    }
  }
}
