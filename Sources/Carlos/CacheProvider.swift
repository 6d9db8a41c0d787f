import Foundation

/// Ready-made caches for the common case of fetching from URLs: memory, then
/// disk, then the network, with concurrent requests for one URL shared.
///
/// The functions create a new cache each time (two caches on the same folder
/// share what is on disk, but not what is in memory); keep the one you create.
/// ``sharedDataCache`` and ``sharedJSONCache`` are the only shared instances.
public enum CacheProvider {
  /// The default memory budget of a provided cache: 50 MiB.
  public static let defaultMemoryCapacity = 50 * 1024 * 1024

  /// The default disk budget of a provided cache: 100 MiB.
  public static let defaultDiskCapacity: UInt64 = 100 * 1024 * 1024

  /// The default folder of ``dataCache(folder:memoryCapacity:diskCapacity:fetcher:)``:
  /// `com.carlos.data` in this program's own folder of the user's cache folder
  /// (`~/.cache/<executable>/com.carlos.data` on Linux), so two programs never share
  /// values by accident.
  public static var defaultDataFolder: String {
    folder(named: "com.carlos.data")
  }

  /// The default folder of the JSON caches: `com.carlos.json` in this program's own
  /// folder of the user's cache folder (`~/.cache/<executable>/com.carlos.json`).
  public static var defaultJSONFolder: String {
    folder(named: "com.carlos.json")
  }

  /// A shared ``dataCache(folder:memoryCapacity:diskCapacity:fetcher:)`` with the default settings.
  public static let sharedDataCache: BasicCache<URL, Data> = dataCache()

  /// A shared ``JSONCache(folder:memoryCapacity:diskCapacity:fetcher:)`` with the default settings.
  public static let sharedJSONCache: BasicCache<URL, JSONValue> = JSONCache()

  /// Creates a cache from `URL` to `Data`: a ``MemoryCacheLevel``, then a
  /// ``DiskCacheLevel`` in `folder`, then `fetcher`. A network hit fills disk and
  /// memory; concurrent gets of one URL share one request.
  ///
  /// - Parameters:
  ///   - folder: where the disk level keeps its files.
  ///   - memoryCapacity: the most bytes kept in memory.
  ///   - diskCapacity: the most bytes kept on disk.
  ///   - fetcher: the level that fetches from the network.
  public static func dataCache(
    folder: String = defaultDataFolder,
    memoryCapacity: Int = defaultMemoryCapacity,
    diskCapacity: UInt64 = defaultDiskCapacity,
    fetcher: NetworkFetcher = NetworkFetcher()
  ) -> BasicCache<URL, Data> {
    let memory = MemoryCacheLevel<URL, Data>(capacity: memoryCapacity)
    let disk = DiskCacheLevel<URL, Data>(path: folder, capacity: diskCapacity)
    return (memory >>> disk >>> fetcher).pooled().normalize()
  }

  /// Creates a cache from `URL` to JSON documents of any shape (``JSONValue``).
  ///
  /// The same as ``JSONCache(of:folder:memoryCapacity:diskCapacity:fetcher:)``
  /// with `JSONValue.self`.
  public static func JSONCache(
    folder: String = defaultJSONFolder,
    memoryCapacity: Int = defaultMemoryCapacity,
    diskCapacity: UInt64 = defaultDiskCapacity,
    fetcher: NetworkFetcher = NetworkFetcher()
  ) -> BasicCache<URL, JSONValue> {
    JSONCache(
      of: JSONValue.self, folder: folder, memoryCapacity: memoryCapacity,
      diskCapacity: diskCapacity, fetcher: fetcher)
  }

  /// Creates a cache from `URL` to values decoded from JSON.
  ///
  /// Memory and disk keep the JSON bytes; a get decodes them into `Value`.
  /// A response that does not decode as `Value` fails the get with the
  /// decoder's error and is not cached.
  ///
  /// - Parameters:
  ///   - type: the type the JSON decodes into.
  ///   - folder: where the disk level keeps its files.
  ///   - memoryCapacity: the most bytes kept in memory.
  ///   - diskCapacity: the most bytes kept on disk.
  ///   - fetcher: the level that fetches from the network.
  public static func JSONCache<Value: Codable & Sendable>(
    of type: Value.Type,
    folder: String = defaultJSONFolder,
    memoryCapacity: Int = defaultMemoryCapacity,
    diskCapacity: UInt64 = defaultDiskCapacity,
    fetcher: NetworkFetcher = NetworkFetcher()
  ) -> BasicCache<URL, Value> {
    let onlyDecodable = OneWayTransformationBox<Data, Data> { data in
      do {
        _ = try JSONDecoder().decode(Value.self, from: data)
        return Future(data)
      } catch {
        return Future(error)
      }
    }
    let memory = MemoryCacheLevel<URL, Data>(capacity: memoryCapacity)
    let disk = DiskCacheLevel<URL, Data>(path: folder, capacity: diskCapacity)
    let bytes = (memory >>> disk >>> fetcher.postProcess(onlyDecodable)).pooled()
    return bytes.transformValues(JSONTransformer<Value>())
  }

  /// The folder `name` beside the default folder of a ``DiskCacheLevel``, in this
  /// program's own folder.
  private static func folder(named name: String) -> String {
    URL(fileURLWithPath: defaultDiskCachePath(), isDirectory: true).deletingLastPathComponent()
      .appendingPathComponent(name, isDirectory: true).path
  }
}
