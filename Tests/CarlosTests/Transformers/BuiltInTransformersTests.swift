import Carlos
import Foundation
import Testing

@Suite("Built-in transformers")
struct BuiltInTransformersTests {
  @Test("StringTransformer round-trips text and rejects invalid bytes")
  func stringTransformer() throws {
    let transformer = StringTransformer(encoding: .utf8)
    for text in ["", "hello", "naïve café 🚀", String(repeating: "x", count: 10_000)] {
      let data = try #require(transformer.inverseTransform(text).result?.value)
      #expect(transformer.transform(data).result?.value == text)
    }
    let invalid = Data([0xFF, 0xFE, 0xFD])
    #expect(
      transformer.transform(invalid).result?.error as? FetchError == .valueTransformationFailed)
    let ascii = StringTransformer(encoding: .ascii)
    #expect(ascii.inverseTransform("é").result?.error as? FetchError == .valueTransformationFailed)
  }

  struct Profile: Codable, Equatable, Sendable {
    let name: String
    let age: Int
  }

  @Test("JSONTransformer round-trips Codable values and fails on bad JSON")
  func jsonTransformer() throws {
    let transformer = JSONTransformer<Profile>()
    let profile = Profile(name: "Ada", age: 36)
    let data = try #require(transformer.inverseTransform(profile).result?.value)
    #expect(transformer.transform(data).result?.value == profile)
    #expect(transformer.transform(Data("{".utf8)).result?.error != nil)
    #expect(transformer.transform(Data("{\"name\":1}".utf8)).result?.error != nil)
  }

  @Test("DateFormatter and NumberFormatter work as two-way transformers")
  func formatters() {
    let dates = DateFormatter()
    dates.locale = Locale(identifier: "en_US_POSIX")
    dates.timeZone = TimeZone(identifier: "UTC")
    dates.dateFormat = "yyyy-MM-dd HH:mm:ss"
    let date = Date(timeIntervalSince1970: 1_000_000_000)
    #expect(dates.transform(date).result?.value == "2001-09-09 01:46:40")
    #expect(dates.inverseTransform("2001-09-09 01:46:40").result?.value == date)
    #expect(
      dates.inverseTransform("yesterday").result?.error as? FetchError == .valueTransformationFailed
    )

    let numbers = NumberFormatter()
    numbers.locale = Locale(identifier: "en_US_POSIX")
    #expect(numbers.transform(NSNumber(value: 42)).result?.value == "42")
    #expect(numbers.inverseTransform("17").result?.value == NSNumber(value: 17))
    #expect(
      numbers.inverseTransform("seventeen").result?.error as? FetchError
        == .valueTransformationFailed)
  }

  @Test(
    "DateFormatter fails to transform a date it cannot express",
    arguments: [1e20, -1e20, 1e15, .infinity, -.infinity, .nan])
  func dateFormatterOutOfRange(secondsFromNow: TimeInterval) {
    let dates = DateFormatter()
    dates.locale = Locale(identifier: "en_US_POSIX")
    dates.timeZone = TimeZone(identifier: "UTC")
    dates.dateFormat = "yyyy-MM-dd HH:mm:ss"
    let result = dates.transform(Date(timeIntervalSinceNow: secondsFromNow)).result
    #expect(result?.value == nil)
    #expect(result?.error as? FetchError == .valueTransformationFailed)
  }

  @Test("formatters are safe to use from many threads")
  func formattersConcurrently() async {
    let dates = DateFormatter()
    dates.locale = Locale(identifier: "en_US_POSIX")
    dates.timeZone = TimeZone(identifier: "UTC")
    dates.dateFormat = "yyyy-MM-dd"
    let cache = SpyLevel<Int, String>() =>> dates.invert()
    await withTaskGroup(of: Bool.self) { group in
      for day in 0..<200 {
        group.addTask {
          let date = Date(timeIntervalSince1970: Double(day) * 86_400)
          _ = cache.set(date, forKey: day)
          return cache.get(day).result?.value == date
        }
      }
      for await matched in group { #expect(matched) }
    }
    let numbers = NumberFormatter()
    numbers.locale = Locale(identifier: "en_US_POSIX")
    numbers.numberStyle = .decimal
    let amounts = SpyLevel<Int, String>() =>> numbers.invert()
    await withTaskGroup(of: Bool.self) { group in
      for amount in 0..<200 {
        group.addTask {
          let number = NSNumber(value: amount * 1_001)
          _ = amounts.set(number, forKey: amount)
          return amounts.get(amount).result?.value == number
        }
      }
      for await matched in group { #expect(matched) }
    }
  }
}
