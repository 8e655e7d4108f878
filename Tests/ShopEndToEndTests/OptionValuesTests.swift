import ShopAdapters
import ShopCore
import Testing

@testable import ShopCommandLine
@testable import shop

/// Each kind's store holds one value per field of its enum, apart from the others: a case
/// added to an enum without raising its store's count would trap here, not in a user's run.
struct OptionValuesTests {
  @Test func eachFlagIsSetAlone() {
    for flag in OptionValues.Flag.allCases {
      var values = OptionValues()
      values.flags[flag] = true
      #expect(OptionValues.Flag.allCases.filter { values.flags[$0] } == [flag])
      #expect(values != OptionValues())
    }
  }

  @Test func eachPathAndTimeKeepsItsOwnValue() throws {
    var values = OptionValues()
    for path in OptionValues.Path.allCases {
      values.paths[path] = FilePath("\(path)")
    }
    for path in OptionValues.Path.allCases {
      #expect(values.paths[path] == FilePath("\(path)"))
    }
    for (index, time) in OptionValues.Time.allCases.enumerated() {
      let typed = TypedTime(
        text: Array("\(time)".utf8), timestamp: Timestamp(secondsSince1970: Int64(index)))
      values.times[time] = typed
      #expect(values.times[time] == typed)
    }
    #expect(values.times[.since] != values.times[.until])
    values.paths[.catalog] = nil
    #expect(values.paths[.catalog] == nil && values.paths[.orders] == FilePath("orders"))
  }

  @Test func theSingleFieldsAreStoredToo() throws {
    var values = OptionValues()
    values.numbers[.last] = 3
    values.words[.by] = "day"
    values.references[.reference] = try #require(Reference("web-1"))
    #expect(values.numbers[.last] == 3 && values.words[.by] == "day")
    #expect(values.references[.reference]?.text == "web-1")
  }
}
