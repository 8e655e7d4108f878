import ShopCore

/// A catalog's SKUs in a trie, searched for the one a mistyped SKU was meant to be by the
/// core's rule (``Spelling/Names/nearest(to:)``: the fewest edits of the optimal string
/// alignment distance, within ``Spelling/allowedEdits(_:)``, a tie to the SKU listed first),
/// with the same answer, faster.
///
/// The plain search computes the distance to every SKU of about the right length. SKUs that
/// share a start (`sku-0001`, `sku-0002`, …) share the rows of the distance table for it, so
/// here each row is computed once per trie node, and a branch is left as soon as two rows in
/// a row are past what could still win: 100,000 distinct near misses of 1,000 `sku-NNNN` take
/// a third of the time. Only SKUs that differ near their ends gain (``sharingStarts(_:)``).
/// `NameTrieTests` holds it to the plain search on random catalogs.
struct NameTrie {
  /// The nodes as parallel arrays: the scalar that leads to each from its parent, its first
  /// child and next sibling (0: none; node 0 is the root), the position in the catalog of the
  /// SKU that ends there (-1: none), and the smallest such position below it.
  private var scalars: [Unicode.Scalar] = ["\0"]
  private var firstChild: [Int32] = [0]
  private var nextSibling: [Int32] = [0]
  private var ending: [Int32] = [-1]
  private var smallest: [Int32] = [Int32.max]
  /// Each node's last child while the trie is built, so children stay in the order of the
  /// SKUs: a search meets the earlier SKUs first, and after a close one, a later branch must
  /// be closer still to win, which cuts it short.
  private var lastChild: [Int32] = [0]
  private let names: [String]

  /// The trie of `names`, or nil once it passes `nodes` nodes. With `nodes` twice the
  /// number of SKUs (``sharingStarts(_:)``), the trie is kept only where the SKUs differ near
  /// their ends (1,000 `sku-NNNN` make 1.1 nodes a SKU): SKUs that branch early or late make
  /// a wide trie whose levels near the branching are all within the edits allowed, where the
  /// plain search skips most SKUs by their length and letters (on 100,000 random SKUs the
  /// trie was 20 times slower; on 50,000 with one long start and random ends, 1.2 times).
  init?(_ names: [String], nodes: Int = Int.max) {
    self.names = names
    for (position, name) in names.enumerated() {
      var node = 0
      smallest[0] = min(smallest[0], Int32(truncatingIfNeeded: position))
      for scalar in name.unicodeScalars {
        node = child(of: node, scalar) ?? add(scalar, under: node)
        smallest[node] = min(smallest[node], Int32(truncatingIfNeeded: position))
      }
      // A SKU listed twice keeps its first place.
      if ending[node] < 0 { ending[node] = Int32(truncatingIfNeeded: position) }
      // Given up early: a catalog that shares little costs a part of a trie, not all of one.
      if scalars.count > nodes { return nil }
    }
  }

  /// The trie of a catalog's SKUs when they share their starts enough for it to be faster.
  static func sharingStarts(_ names: [String]) -> NameTrie? {
    NameTrie(names, nodes: 2 * names.count + 64)
  }

  private func child(of node: Int, _ scalar: Unicode.Scalar) -> Int? {
    var next = Int(firstChild[node])
    while next != 0 {
      if scalars[next] == scalar { return next }
      next = Int(nextSibling[next])
    }
    return nil
  }

  private mutating func add(_ scalar: Unicode.Scalar, under parent: Int) -> Int {
    let node = scalars.count
    let index = Int32(truncatingIfNeeded: node)
    scalars.append(scalar)
    firstChild.append(0)
    nextSibling.append(0)
    lastChild.append(0)
    ending.append(-1)
    smallest.append(Int32.max)
    if lastChild[parent] == 0 {
      firstChild[parent] = index
    } else {
      nextSibling[Int(lastChild[parent])] = index
    }
    lastChild[parent] = index
    return node
  }

  /// The SKU `typed` was most likely meant to be, as ``Spelling/Names/nearest(to:)`` says.
  func nearest(to typed: String) -> String? {
    var search = Search(typed: Array(typed.unicodeScalars), trie: self)
    search.visitChildren(of: 0, depth: 0)
    return search.best.map { names[$0.position] }
  }

  /// One search: the typed name, the rows of the distance table on the path from the root
  /// (row `d` for the path's first `d` scalars, in one flat array), and the best SKU so far.
  private struct Search {
    let typed: [Unicode.Scalar]
    let trie: NameTrie
    let allowed: Int
    let width: Int
    var table: [Int]
    var path: [Unicode.Scalar] = []
    var best: (position: Int, distance: Int)?

    init(typed: [Unicode.Scalar], trie: NameTrie) {
      self.typed = typed
      self.trie = trie
      allowed = Spelling.allowedEdits(typed.count)
      width = typed.count + 1
      // No SKU longer than the typed name by more than the edits allowed can be near.
      table = [Int](repeating: 0, count: (typed.count + allowed + 2) * width)
      for j in 0..<width { table[j] = j }
    }

    /// The most edits a SKU at or below `node` may be away and still win: fewer than the
    /// best's, or as many when one of them is listed before it.
    func limit(below node: Int) -> Int {
      guard let best else { return allowed }
      return Int(trie.smallest[node]) < best.position ? best.distance : best.distance - 1
    }

    mutating func visitChildren(of node: Int, depth: Int) {
      var next = Int(trie.firstChild[node])
      while next != 0 {
        visit(next, depth: depth + 1)
        next = Int(trie.nextSibling[next])
      }
    }

    /// Fills the row of `node`, at `depth`, as ``Spelling/distance(_:_:limit:)`` fills a row
    /// (rows over the SKU, columns over the typed name: the distance is the same either way),
    /// takes the SKU ending there if it wins, and goes on below while anything there could.
    mutating func visit(_ node: Int, depth: Int) {
      // A SKU more scalars longer than the typed name than the limit can't be near.
      let limit = self.limit(below: node)
      guard limit >= 0, depth - typed.count <= limit, (depth + 1) * width <= table.count else {
        return
      }
      let scalar = trie.scalars[node]
      let row = depth * width
      let above = row - width
      table[row] = depth
      var rowSmallest = depth
      var aboveSmallest = table[above]
      for j in 1..<width {
        let cost = typed[j - 1] == scalar ? 0 : 1
        var cell = min(table[above + j] + 1, table[row + j - 1] + 1, table[above + j - 1] + cost)
        if depth > 1, j > 1, typed[j - 2] == scalar, typed[j - 1] == path[depth - 2] {
          cell = min(cell, table[above - width + j - 2] + 1)
        }
        table[row + j] = cell
        rowSmallest = min(rowSmallest, cell)
        aboveSmallest = min(aboveSmallest, table[above + j])
      }
      let ending = Int(trie.ending[node])
      let distance = table[row + typed.count]
      if ending >= 0, distance <= allowed {
        if let best {
          if distance < best.distance || (distance == best.distance && ending < best.position) {
            self.best = (ending, distance)
          }
        } else {
          best = (ending, distance)
        }
      }
      // A row's cells are at least the smallest of the two rows above it (a swap reaches back
      // two): once two rows in a row are past the limit, nothing below can come back.
      let after = self.limit(below: node)
      guard rowSmallest <= after || aboveSmallest <= after else { return }
      path.append(scalar)
      visitChildren(of: node, depth: depth)
      path.removeLast()
    }
  }
}
