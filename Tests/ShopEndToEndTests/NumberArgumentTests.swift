import Testing

@testable import ShopCommandLine
@testable import shop

/// The command line's numbers (`--last`, `--from`...) as they were before the decimal readers
/// were made one: digits from 1 to `Int.max`, leading zeros allowed, no sign.
struct NumberArgumentTests {
  @Test(
    arguments: [
      ("1", 1), ("007", 7), ("\(Int.max)", Int.max), ("000\(Int.max)", Int.max), ("0", nil),
      ("000", nil), ("", nil), ("+5", nil), ("-5", nil), ("-0", nil), ("9223372036854775808", nil),
      ("99999999999999999999", nil), ("5 ", nil), (" 5", nil), ("1e3", nil), ("1_000", nil),
    ] as [(String, Int?)])
  func aNumberIsDigitsFromOneToIntMax(text: String, number: Int?) {
    #expect(CommandLineParser.number(Array(text.utf8)) == number)
  }
}
