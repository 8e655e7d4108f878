/// Finding a word in a message or a URI. The modules leave out Swift's string-processing
/// library (see Package.swift), which is where `firstRange(of:)` and `contains(_:)` for text
/// live; these compare UTF-8 bytes, which for the ASCII words looked for is the same.
extension StringProtocol {
  /// The first place `word` stands in this text.
  func rangeOfText(_ word: String) -> Range<Index>? {
    let bytes = utf8
    let wanted = word.utf8
    var start = bytes.startIndex
    while start != bytes.endIndex {
      if bytes[start...].starts(with: wanted) {
        return start..<bytes.index(start, offsetBy: wanted.count)
      }
      start = bytes.index(after: start)
    }
    return wanted.isEmpty ? bytes.endIndex..<bytes.endIndex : nil
  }

  /// Whether `word` stands somewhere in this text.
  func holdsText(_ word: String) -> Bool { rangeOfText(word) != nil }
}
