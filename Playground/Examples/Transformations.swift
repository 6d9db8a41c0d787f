import Carlos
import Foundation

/// A domain key carrying both a cache identifier and where to fetch the value.
struct Picture: Hashable, Sendable {
  let identifier: String
  let url: URL
}

extension Example {
  static let keyTransformation: Example = Example(
    name: "key-transformation",
    summary: "=>> on the left transforms keys, with transformers or closures"
  ) {
    let pictureToString = OneWayTransformationBox<Picture, String> { Future($0.identifier) }
    let pictureToURL = OneWayTransformationBox<Picture, URL> { Future($0.url) }
    let catURL = URL(string: "https://example.com/cat.png")!

    let memoryLevel = pictureToString =>> DictionaryLevel<String, Data>("memory")
    let networkLevel =
      pictureToURL =>> DictionaryLevel<URL, Data>("network", [catURL: Data([1, 2, 3])])
    let cache = memoryLevel >>> networkLevel

    let picture = Picture(identifier: "550e8400", url: catURL)
    print("found \(try await cache.get(picture).value.count) bytes for \(picture.identifier)")

    let byString =
      { (key: String) in Future(value: URL(string: key), error: FetchError.invalidKey) }
      =>> DictionaryLevel<URL, Data>("by URL", [catURL: Data([4, 5])])
    print(
      "a closure as key transformer: \(try await byString.get(catURL.absoluteString).value.count) bytes"
    )
  }

  static let valueTransformation: Example = Example(
    name: "value-transformation",
    summary: "=>> on the right transforms values: forward on get, inverse on set"
  ) {
    let disk = DictionaryLevel<String, Data>("disk")
    let textCache = disk =>> StringTransformer(encoding: .utf8)
    try await textCache.set("stored as bytes", forKey: "note").value
    print("read back as text: \(try await textCache.get("note").value)")

    let fetcher = BasicFetcher<String, Data> { Future(Data($0.utf8)) }
    let sizes = fetcher =>> { (data: Data) in Future(data.count) }
    print("a fetcher only needs a one-way closure: \(try await sizes.get("twelve bytes").value)")

    let shouting = textCache.postProcess(
      OneWayTransformationBox<String, String> { Future($0.uppercased()) })
    print("postProcess on get only: \(try await shouting.get("note").value)")

    let tagged = textCache.conditionedPostProcess(
      ConditionedOneWayTransformationBox<String, String, String> { key, value in
        Future("[\(key)] \(value)")
      })
    print("conditionedPostProcess sees the key: \(try await tagged.get("note").value)")

    let versioned = disk.conditionedValueTransformation(
      transformer: ConditionedTwoWayTransformationBox<String, Data, String>(
        conditionalTransformClosure: { key, data in Future("\(key): \(data.count) bytes") },
        conditionalInverseTransformClosure: { _, text in Future(Data(text.utf8)) }
      ))
    print("conditionedValueTransformation: \(try await versioned.get("note").value)")
  }

  static let conditions: Example = Example(
    name: "conditions",
    summary: "<?> lets a level answer only when a condition holds"
  ) {
    let settingEnabled = false
    let database = DictionaryLevel<String, String>("database", ["user": "Ada"])
    let conditioned = { (_: String) in Future(settingEnabled) } <?> database
    print("with the setting off: \(await outcome(conditioned.get("user")))")

    let fallback = DictionaryLevel<String, String>("fallback", ["user": "Grace"])
    let cache = conditioned >>> fallback
    print("a skipped level falls through: \(try await cache.get("user").value)")

    let shortKeysOnly = database.conditioned { key in Future(key.count <= 4) }
    print("conditioned on the key: \(try await shortKeysOnly.get("user").value)")
  }
}
