import ShopAdapters
import ShopConventions
import ShopCore
import Testing

@testable import ShopCommandLine
@testable import shop

/// Each kind's fields hold one value per case of its enum, apart from the others (a case added
/// to an enum without its field does not compile).
struct OptionValuesTests {
  @Test func eachFlagIsSetAlone() {
    for flag in OptionValues.Flag.allCases {
      var values = OptionValues()
      values[flag: flag] = true
      #expect(OptionValues.Flag.allCases.filter { values[flag: $0] } == [flag])
      #expect(values != OptionValues())
    }
  }

  @Test func eachPathAndTimeKeepsItsOwnValue() throws {
    var values = OptionValues()
    for path in OptionValues.Path.allCases {
      values[path: path] = FilePath("\(path)")
    }
    for path in OptionValues.Path.allCases {
      #expect(values[path: path] == FilePath("\(path)"))
    }
    for (index, time) in OptionValues.Time.allCases.enumerated() {
      let typed = TypedTime(
        text: Array("\(time)".utf8),
        instant: TimeArgument.Instant(seconds: Int64(index), fraction: []))
      values[time: time] = typed
      #expect(values[time: time] == typed)
    }
    #expect(values[time: .since] != values[time: .until])
    values[path: .catalog] = nil
    #expect(values[path: .catalog] == nil && values[path: .orders] == FilePath("orders"))
  }

  @Test func theSingleFieldsAreStoredToo() throws {
    var values = OptionValues()
    values[number: .last] = 3
    values.grouping = .day
    values.reference = try #require(Reference("web-1"))
    #expect(values[number: .last] == 3 && values.grouping == .day)
    #expect(values.reference?.text == "web-1")
    // Every word `--by` takes names its grouping, and no other word does.
    for grouping in Summary.Grouping.allCases {
      #expect(
        grouping.word.flatMap { Summary.Grouping(word: Array($0.utf8)) }
          == grouping.word.map { _ in grouping })
    }
    #expect(
      Summary.Grouping.words == ["day", "sku"] && Summary.Grouping(word: Array("week".utf8)) == nil)
  }
}
