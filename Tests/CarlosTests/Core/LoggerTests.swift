import Carlos
import Testing

@Suite("Logger", .serialized)
struct LoggerTests {
  @Test("output is replaceable and receives message and level")
  func replaceableOutput() {
    let received = Lock<[String]>([])
    let original = Logger.output
    defer { Logger.output = original }
    Logger.output = { message, level in received.withLock { $0.append("\(level): \(message)") } }
    Logger.log("hello", .warning)
    Logger.log("details")
    #expect(received.withLock { $0 } == ["warning: hello", "debug: details"])
  }

  @Test("a failed write-back is reported as a warning")
  func writeBackFailureIsLogged() {
    let received = Lock<[Logger.Level]>([])
    let original = Logger.output
    defer { Logger.output = original }
    Logger.output = { _, level in received.withLock { $0.append(level) } }
    let upper = SpyLevel<String, Int>(setError: TestError(1))
    let lower = SpyLevel<String, Int>(["k": 1])
    #expect(Outcome((upper >>> lower).get("k")) == .success(1))
    #expect(received.withLock { $0 }.contains(.warning))
  }

  @Test("a failed refresh is reported as a warning, and the old value is kept")
  func refreshFailureIsLogged() {
    let received = Lock<[String]>([])
    let original = Logger.output
    defer { Logger.output = original }
    Logger.output = { message, level in received.withLock { $0.append("\(level): \(message)") } }
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, Int>(capacity: 10, clock: clock)
    let cache = memory.refreshing(
      from: BasicFetcher { _ in Future(TestError(2)) }, after: .seconds(1), clock: clock)
    memory.set(1, forKey: "k")
    clock.advance(by: .seconds(2))
    #expect(cache.get("k").result?.value == 1)
    #expect(memory.get("k").result?.value == 1)
    #expect(
      received.withLock { $0 }.contains { $0.hasPrefix("warning: Refreshing a value failed") })
  }
}

extension LoggerTests {
  @Test("recordOutput, when set, receives messages with their metadata instead of output")
  func recordsCarryMetadata() {
    let records = Lock<[Logger.Record]>([])
    let plain = Lock<[String]>([])
    let (originalOutput, originalRecords) = (Logger.output, Logger.recordOutput)
    defer { (Logger.output, Logger.recordOutput) = (originalOutput, originalRecords) }
    Logger.output = { message, _ in plain.withLock { $0.append(message) } }
    Logger.recordOutput = { record in records.withLock { $0.append(record) } }
    Logger.log("with context", .error, metadata: ["level": "disk", "key": "k"])
    Logger.log("without context")
    let mine = records.withLock { $0 }.filter { $0.message.hasSuffix("context") }
    #expect(
      mine == [
        Logger.Record(
          message: "with context", level: .error, metadata: ["level": "disk", "key": "k"]),
        Logger.Record(message: "without context", level: .debug),
      ])
    #expect(!plain.withLock { $0 }.contains { $0.hasSuffix("context") })
  }

  @Test("without recordOutput, messages with metadata still reach output")
  func outputStillWorks() {
    let plain = Lock<[String]>([])
    let (originalOutput, originalRecords) = (Logger.output, Logger.recordOutput)
    defer { (Logger.output, Logger.recordOutput) = (originalOutput, originalRecords) }
    Logger.recordOutput = nil
    Logger.output = { message, level in plain.withLock { $0.append("\(level): \(message)") } }
    Logger.log("with context", .info, metadata: ["key": "k"])
    #expect(plain.withLock { $0 }.contains("info: with context"))
  }

  @Test("a failed write-back names the key in its metadata")
  func writeBackFailureNamesKey() {
    let records = Lock<[Logger.Record]>([])
    let originalRecords = Logger.recordOutput
    defer { Logger.recordOutput = originalRecords }
    Logger.recordOutput = { record in records.withLock { $0.append(record) } }
    let upper = SpyLevel<String, Int>(setError: TestError(1))
    let lower = SpyLevel<String, Int>(["k": 1])
    #expect(Outcome((upper >>> lower).get("k")) == .success(1))
    #expect(records.withLock { $0 }.contains { $0.level == .warning && $0.metadata["key"] == "k" })
  }
}
