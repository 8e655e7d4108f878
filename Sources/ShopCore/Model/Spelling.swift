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
    // Every value is capped at `far`: past the limit, how far no longer matters.
    let far = limit + 1
    guard abs(a.count - b.count) <= limit else { return far }
    if a.isEmpty || b.isEmpty { return min(max(a.count, b.count), far) }
    // A cell more than `limit` off the diagonal is at least that many edits: only the band
    // around the diagonal is computed, the rest is `far`.
    let band = min(limit, max(a.count, b.count))
    let width = b.count + 1
    rows.before.removeAll(keepingCapacity: true)
    rows.before.append(contentsOf: repeatElement(far, count: width))
    rows.previous.removeAll(keepingCapacity: true)
    rows.previous.append(contentsOf: (0..<width).lazy.map { min($0, far) })
    rows.current.removeAll(keepingCapacity: true)
    rows.current.append(contentsOf: repeatElement(far, count: width))
    var previousSmallest = 0
    for i in 1...a.count {
      rows.current[0] = min(i, far)
      var smallest = rows.current[0]
      let low = max(1, i - band)
      let high = min(b.count, i + band)
      // The cells beside the band are read by this row and the next: they must be `far`,
      // whatever an earlier use of this row left there.
      if low > 1 { rows.current[low - 1] = far }
      if high < b.count { rows.current[high + 1] = far }
      if low <= high {
        for j in low...high {
          let cost = a[i - 1] == b[j - 1] ? 0 : 1
          var cell = min(
            rows.previous[j] + 1, rows.current[j - 1] + 1, rows.previous[j - 1] + cost, far)
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            cell = min(cell, rows.before[j - 2] + 1)
          }
          rows.current[j] = cell
          smallest = min(smallest, cell)
        }
      }
      // A cell is at least the smallest of the two rows above it (a swap reaches back two):
      // once two rows in a row are past the limit, every later one is too.
      if smallest > limit, previousSmallest > limit { return far }
      previousSmallest = smallest
      swap(&rows.before, &rows.previous)
      swap(&rows.previous, &rows.current)
    }
    return rows.previous[b.count]
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
