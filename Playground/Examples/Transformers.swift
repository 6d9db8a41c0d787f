import Carlos
import Foundation

extension Example {
  static let transformers: Example = Example(
    name: "transformers",
    summary:
      "compose, invert and condition transformers; JSON, String, Date and Number transformers"
  ) {
    let celsiusToFahrenheit = TwoWayTransformationBox<Double, Double>(
      transform: { Future($0 * 9 / 5 + 32) },
      inverseTransform: { Future(($0 - 32) * 5 / 9) }
    )
    let describe = TwoWayTransformationBox<Double, String>(
      transform: { Future("\($0)°") },
      inverseTransform: {
        Future(value: Double($0.dropLast()), error: FetchError.valueTransformationFailed)
      }
    )
    let pipeline = celsiusToFahrenheit >>> describe
    print("100 °C is \(try await pipeline.transform(100).value)")
    print("inverted: '212.0°' is \(try await pipeline.invert().transform("212.0°").value) °C")

    let onlyPositive = celsiusToFahrenheit.conditioned(
      { Future($0 >= 0) }, inverseCondition: { _ in Future(true) })
    print("conditioned: \(await outcome(onlyPositive.transform(-5)))")

    struct Settings: Codable, Sendable {
      var theme: String
    }
    let json = JSONTransformer<Settings>()
    let data = try await json.inverseTransform(Settings(theme: "dark")).value
    print("JSON: \(try await StringTransformer().transform(data).value)")

    let dates = DateFormatter()
    dates.locale = Locale(identifier: "en_US_POSIX")
    dates.timeZone = TimeZone(identifier: "UTC")
    dates.dateFormat = "yyyy-MM-dd"
    print("DateFormatter: \(try await dates.transform(Date(timeIntervalSince1970: 0)).value)")

    let numbers = NumberFormatter()
    numbers.numberStyle = .decimal
    numbers.locale = Locale(identifier: "en_US_POSIX")
    print("NumberFormatter: \(try await numbers.inverseTransform("1234.5").value)")

    let datesCache = DictionaryLevel<String, String>("strings") =>> dates.invert()
    try await datesCache.set(Date(timeIntervalSince1970: 86_400), forKey: "launch").value
    print("a cache of dates stored as strings: \(try await datesCache.get("launch").value)")
  }
}
