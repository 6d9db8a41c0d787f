import Carlos
import CarlosTestServer
import Foundation

/// The domain key of the original README: an identifier for the caches, a URL for the network.
struct Image: Hashable, Sendable {
  let identifier: String
  let URL: URL
}

extension Example {
  static let originalReadme: Example = Example(
    name: "original-readme",
    summary: "the one-liners of the original Carlos README, adapted to Linux (Data, URL, futures)"
  ) {
    // A local server stands in for the internet.
    let server = try TestServer { path in .ok("the bytes of \(path)") }
    defer { server.stop() }
    let appSettingIsEnabled = true

    // Usage examples
    let cache = MemoryCacheLevel<String, Data>() >>> DiskCacheLevel()
    try await cache.set(Data("value".utf8), forKey: "key")

    // Creating requests
    cache.get("key")
      .onSuccess { value in print("I found \(value)!") }
      .onFailure { error in print("An error occurred :( \(error)") }

    let request: Future<Data> = cache.get("key")
    request.onSuccess { value in print("I can read \(value), too!") }
    request.onCompletion { result in
      if let value = result.value {
        print("Request succeeded with value \(value)")
      } else if let error = result.error {
        print("Request failed with error \(error)")
      }
      print("Nevertheless the request completed")
    }

    let networkCache = MemoryCacheLevel() >>> DiskCacheLevel() >>> NetworkFetcher()
    print("network cache: \(try await networkCache.get(server.url("/first")).value.count) bytes")

    // Key transformations
    let transformedCache =
      { Future(value: URL(string: $0), error: FetchError.invalidKey) } =>> NetworkFetcher()
    let stringKeyed = MemoryCacheLevel<String, Data>() >>> transformedCache
    print(
      "string keys: \(try await stringKeyed.get(server.url("/second").absoluteString).value.count) bytes"
    )

    let imageToString = OneWayTransformationBox(transform: { (image: Image) -> Future<String> in
      Future(image.identifier)
    })
    let imageToURL = OneWayTransformationBox(transform: { (image: Image) -> Future<URL> in
      Future(image.URL)
    })
    let memoryLevel = imageToString =>> MemoryCacheLevel<String, Data>()
    let diskLevel = imageToString =>> DiskCacheLevel<String, Data>()
    let networkLevel = imageToURL =>> NetworkFetcher()
    let imageCache = memoryLevel >>> diskLevel >>> networkLevel

    let image = Image(
      identifier: "550e8400-e29b-41d4-a716-446655440000", URL: server.url("/image.png"))
    imageCache.get(image).onSuccess { value in print("Found \(value)!") }

    // Value transformations (the original stored UIImage; on Linux, text)
    let dataTransformer = TwoWayTransformationBox(
      transform: { (text: String) -> Future<Data> in Future(Data(text.utf8)) },
      inverseTransform: { (data: Data) -> Future<String> in
        Future(String(decoding: data, as: UTF8.self))
      }
    )
    let textMemoryLevel = imageToString =>> MemoryCacheLevel<String, String>() =>> dataTransformer
    print(
      "text level: \(try await (textMemoryLevel >>> networkLevel).get(image).value.count) bytes")

    // Pooling requests
    let pooledCache = (memoryLevel >>> diskLevel >>> networkLevel).pooled()

    // Limiting concurrent requests
    let myCache = memoryLevel >>> networkLevel
    let cappedCache = myCache.capRequests(3)

    // Conditioning caches
    let conditionedCache = cache.conditioned { key in Future(appSettingIsEnabled) }
    let sameCondition = { _ in Future(appSettingIsEnabled) } <?> cache

    // Multiple cache lanes
    let lane1 = MemoryCacheLevel<URL, Data>()
    let lane2 = CacheProvider.dataCache()
    let switched = switchLevels(cacheA: lane1, cacheB: lane2) { key in
      key.scheme == "http" ? .cacheA : .cacheB
    }

    // Listening to memory warnings
    let token = cache.listenToMemoryWarnings()
    unsubscribeToMemoryWarnings(token)

    // Composing with closures (a closure kept in a variable is marked @Sendable in Swift 6)
    let fetcherLevel = { @Sendable (image: Image) -> Future<Data> in
      Future(value: try? Data(contentsOf: image.URL), error: FetchError.valueNotInCache)
    }
    let closureCache = (memoryLevel >>> diskLevel >>> fetcherLevel).pooled()

    print("pooled: \(try await pooledCache.get(image).value.count) bytes")
    print("capped: \(try await cappedCache.get(image).value.count) bytes")
    print(
      "conditioned: \(try await conditionedCache.get("key").value.count) bytes, again: \(try await sameCondition.get("key").value.count)"
    )
    print("switched to lane A for http: \(await outcome(switched.get(server.url("/lane"))))")
    print("closure fetcher: \(try await closureCache.get(image).value.count) bytes")
  }
}
