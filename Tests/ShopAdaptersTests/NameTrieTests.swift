import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// The trie a file catalog searches for suggestions against the core's plain search: the same
/// SKU, or none, for every typed name, on random catalogs of every shape.
struct NameTrieTests {
  static let alphabets: [[Unicode.Scalar]] = [
    Array("ab".unicodeScalars), Array("abc-01".unicodeScalars),
    Array("sku-0123456789".unicodeScalars), Array("peninkdsk".unicodeScalars),
    Array("éàü漢字a".unicodeScalars),
  ]

  func word(_ random: inout SplitMix, _ alphabet: [Unicode.Scalar], length: Int) -> String {
    var text = String.UnicodeScalarView()
    for _ in 0..<length { text.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
    return String(text)
  }

  /// `name` with up to `edits` random insertions, deletions, substitutions and swaps.
  func edited(
    _ name: String, _ random: inout SplitMix, _ alphabet: [Unicode.Scalar], edits: Int
  ) -> String {
    var scalars = Array(name.unicodeScalars)
    for _ in 0..<edits {
      let at = scalars.isEmpty ? 0 : Int(random.next() % UInt64(scalars.count))
      let letter = alphabet[Int(random.next() % UInt64(alphabet.count))]
      switch random.next() % 4 {
      case 0: scalars.insert(letter, at: at)
      case 1: if !scalars.isEmpty { scalars.remove(at: at) }
      case 2: if !scalars.isEmpty { scalars[at] = letter }
      default: if at + 1 < scalars.count { scalars.swapAt(at, at + 1) }
      }
    }
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars)
    return String(text)
  }

  @Test(arguments: 0..<5)
  func theTrieSuggestsWhatThePlainSearchSuggests(seed: Int) throws {
    var random = SplitMix(seed: UInt64(seed) &+ 1717)
    let alphabet = Self.alphabets[seed]
    for round in 0..<10 {
      // Catalogs of 0 to 150 SKUs of 1 to 12 scalars; some share long starts, some repeat.
      let count = round == 0 ? 0 : Int(random.next() % 150) + 1
      let stem = word(&random, alphabet, length: Int(random.next() % 6))
      var names: [String] = []
      for _ in 0..<count {
        let length = Int(random.next() % 8) + 1
        let name =
          random.next() % 2 == 0
          ? stem + word(&random, alphabet, length: length)
          : word(&random, alphabet, length: length)
        names.append(random.next() % 20 == 0 ? (names.last ?? name) : name)
      }
      let trie = try #require(NameTrie(names))
      let plain = Spelling.Names(names)
      for _ in 0..<30 {
        let typed =
          names.isEmpty || random.next() % 4 == 0
          ? word(&random, alphabet, length: Int(random.next() % 14))
          : edited(
            names[Int(random.next() % UInt64(names.count))], &random, alphabet,
            edits: Int(random.next() % 4))
        let (fast, slow) = (trie.nearest(to: typed), plain.nearest(to: typed))
        if fast != slow { Issue.record("\(typed) among \(names): \(fast ?? "-") \(slow ?? "-")") }
      }
    }
  }
}
