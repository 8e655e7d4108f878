import Testing

@testable import ShopAdapters

/// The word search the PostgreSQL adapter uses in place of the string-processing library's.
struct TextSearchTests {
  @Test(arguments: [
    ("postgresql://h/db", "://", 10), ("x://", "://", 1), ("://", "://", 0), ("é://x", "://", 2),
    ("permission denied for schema public", "for schema", 18), ("a:/b", "://", nil),
    ("", "://", nil), (":/", "://", nil), ("pass", "password", nil), ("abc", "", 0),
  ])
  func aWordIsFoundWhereItFirstStands(text: String, word: String, offset: Int?) {
    let found = text.rangeOfText(word)
    #expect(found.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } == offset)
    #expect(found.map { String(text[$0]) } == (offset == nil ? nil : word))
    #expect(text.holdsText(word) == (offset != nil))
    // A slice is searched as the text it holds.
    let slice = ("--" + text)[...].dropFirst(2)
    #expect(slice.holdsText(word) == (offset != nil))
  }
}
