import Carlos

extension Example {
  static let lanes: Example = Example(
    name: "lanes",
    summary: "switchLevels sends each key to one of two caches"
  ) {
    let images = DictionaryLevel<String, String>("images lane", ["https://x/cat.png": "a cat"])
    let documents = DictionaryLevel<String, String>("documents lane", ["https://x/cv.pdf": "a CV"])
    let cache = switchLevels(cacheA: images, cacheB: documents) { key in
      key.hasSuffix(".png") ? .cacheA : .cacheB
    }

    print("a .png key goes to the images lane:")
    print("  -> \(try await cache.get("https://x/cat.png").value)")
    print("any other key goes to the documents lane:")
    print("  -> \(try await cache.get("https://x/cv.pdf").value)")
    print("sets follow the same rule:")
    try await cache.set("a dog", forKey: "https://x/dog.png").value
    print("memory warnings reach both lanes:")
    cache.onMemoryWarning()
  }
}
