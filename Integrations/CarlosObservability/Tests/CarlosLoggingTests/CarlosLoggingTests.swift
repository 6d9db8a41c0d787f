#if Observability
import Carlos
import CarlosLogging
import Foundation
import Logging
import Synchronization
import Testing

/// A swift-log handler that keeps what it receives.
struct CollectingLogHandler: LogHandler {
  final class Store: Sendable {
    let entries = Mutex<[(Logging.Logger.Level, String, Logging.Logger.Metadata)]>([])
  }
  let store: Store
  var metadata: Logging.Logger.Metadata = [:]
  var logLevel: Logging.Logger.Level = .trace

  subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    store.entries.withLock {
      $0.append((event.level, event.message.description, event.metadata ?? [:]))
    }
  }
}

@Suite("CarlosLogging", .serialized)
struct CarlosLoggingTests {
  @Test(
    "Carlos messages reach the swift-log logger with mapped levels and the level/key as metadata")
  func routesMessages() {
    let store = CollectingLogHandler.Store()
    defer { CarlosLogHandler.stopRouting() }
    CarlosLogHandler.route(
      to: Logging.Logger(label: "test") { _ in CollectingLogHandler(store: store) })
    CarlosLogger.log("plain warning", .warning)
    CarlosLogger.log("with context", .error, metadata: ["level": "postgres", "key": "k"])
    CarlosLogger.log("debug note", .debug)
    CarlosLogger.log("info note", .info)
    let entries = store.entries.withLock { $0 }.filter {
      $0.1.hasSuffix("warning") || $0.1.hasSuffix("context") || $0.1.hasSuffix("note")
    }
    #expect(entries.map(\.0) == [.warning, .error, .debug, .info])
    #expect(entries[1].2["carlos.level"] == .string("postgres"))
    #expect(entries[1].2["carlos.key"] == .string("k"))
  }

  @Test("a failed write-back in a composition is logged with its key's digest")
  func writeBackFailure() async {
    let store = CollectingLogHandler.Store()
    defer { CarlosLogHandler.stopRouting() }
    CarlosLogHandler.route(
      to: Logging.Logger(label: "test") { _ in CollectingLogHandler(store: store) })
    let failing = BasicCache<String, Int>(
      getClosure: { _ in Future(FetchError.valueNotInCache) },
      setClosure: { _, _ in Future(FetchError.invalidKey) }, clearClosure: {}, memoryClosure: {})
    let cache = failing >>> BasicFetcher<String, Int> { _ in Future(1) }
    #expect(cache.get("answer").result?.value == 1)
    #expect(
      store.entries.withLock { $0 }.contains {
        $0.0 == .warning && $0.2["carlos.key"] == .string(CarlosLogger.key("answer"))
      })
  }
}
#endif
