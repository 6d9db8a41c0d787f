import Carlos
import Testing

/// Other suites log while these run: each test's sink passes every message on to the
/// sink it replaced (so theirs are not lost), and looks only at the messages it caused
/// (named with the suite's own words, keys and error ids).
@Suite("CarlosLogger", .serialized, .recordingLog)
struct CarlosLoggerTests {
  @Test("output is replaceable and receives message and level")
  func replaceableOutput() {
    let received = Lock<[String]>([])
    let original = CarlosLogger.output
    defer { CarlosLogger.output = original }
    CarlosLogger.output = { message, level in
      received.withLock { $0.append("\(level): \(message)") }
      original(message, level)
    }
    CarlosLogger.log("logger test: hello", .warning)
    CarlosLogger.log("logger test: details")
    #expect(
      received.withLock { $0 }.filter { $0.contains("logger test:") } == [
        "warning: logger test: hello", "debug: logger test: details",
      ])
  }

  @Test("a failed write-back is reported as a warning")
  func writeBackFailureIsLogged() {
    let received = Lock<[String]>([])
    let original = CarlosLogger.output
    defer { CarlosLogger.output = original }
    CarlosLogger.output = { message, level in
      received.withLock { $0.append("\(level): \(message)") }
      original(message, level)
    }
    let upper = SpyLevel<String, Int>(setError: TestError(90_001))
    let lower = SpyLevel<String, Int>(["k": 1])
    #expect(Outcome((upper >>> lower).get("k")) == .success(1))
    #expect(
      received.withLock { $0 }.contains {
        $0.hasPrefix("warning: Could not store a fetched value") && $0.contains("90001")
      })
  }

  @Test("a failed refresh is reported as a warning, and the old value is kept")
  func refreshFailureIsLogged() {
    let received = Lock<[String]>([])
    let original = CarlosLogger.output
    defer { CarlosLogger.output = original }
    CarlosLogger.output = { message, level in
      received.withLock { $0.append("\(level): \(message)") }
      original(message, level)
    }
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, Int>(capacity: 10, clock: clock)
    let cache = memory.refreshing(
      from: BasicFetcher { _ in Future(TestError(90_002)) }, after: .seconds(1), clock: clock)
    memory.set(1, forKey: "k")
    clock.advance(by: .seconds(2))
    #expect(cache.get("k").result?.value == 1)
    #expect(memory.get("k").result?.value == 1)
    #expect(
      received.withLock { $0 }.contains {
        $0.hasPrefix("warning: Refreshing a value failed") && $0.contains("90002")
      })
  }
}

extension CarlosLoggerTests {
  @Test("recordOutput, when set, receives messages with their metadata instead of output")
  func recordsCarryMetadata() {
    let records = Lock<[CarlosLogger.Record]>([])
    let plain = Lock<[String]>([])
    let (originalOutput, originalRecords) = (CarlosLogger.output, CarlosLogger.recordOutput)
    defer { (CarlosLogger.output, CarlosLogger.recordOutput) = (originalOutput, originalRecords) }
    CarlosLogger.output = { message, _ in plain.withLock { $0.append(message) } }
    CarlosLogger.recordOutput = { record in
      records.withLock { $0.append(record) }
      originalOutput(record.message, record.level)
    }
    CarlosLogger.log("with context", .error, metadata: ["level": "disk", "key": "k"])
    CarlosLogger.log("without context")
    let mine = records.withLock { $0 }.filter { $0.message.hasSuffix("context") }
    #expect(
      mine == [
        CarlosLogger.Record(
          message: "with context", level: .error, metadata: ["level": "disk", "key": "k"]),
        CarlosLogger.Record(message: "without context", level: .debug),
      ])
    #expect(!plain.withLock { $0 }.contains { $0.hasSuffix("context") })
  }

  @Test("without recordOutput, messages with metadata still reach output")
  func outputStillWorks() {
    let plain = Lock<[String]>([])
    let (originalOutput, originalRecords) = (CarlosLogger.output, CarlosLogger.recordOutput)
    defer { (CarlosLogger.output, CarlosLogger.recordOutput) = (originalOutput, originalRecords) }
    CarlosLogger.recordOutput = nil
    CarlosLogger.output = { message, level in
      plain.withLock { $0.append("\(level): \(message)") }
      originalOutput(message, level)
    }
    CarlosLogger.log("with context", .info, metadata: ["key": "k"])
    #expect(plain.withLock { $0 }.contains("info: with context"))
  }

  @Test("a key is shown as a short digest unless showsKeys is on")
  func keysAreDigestsByDefault() {
    defer { CarlosLogger.showsKeys = false }
    #expect(!CarlosLogger.showsKeys)
    let digest = CarlosLogger.key("ada@example.com")
    #expect(digest.hasPrefix("sha256:") && digest.count == 19 && !digest.contains("ada"))
    #expect(CarlosLogger.key("ada@example.com") == digest)
    #expect(CarlosLogger.key("bob@example.com") != digest)
    CarlosLogger.showsKeys = true
    #expect(CarlosLogger.key("ada@example.com") == "ada@example.com")
  }

  @Test("a failed write-back names the key in its metadata, as a digest")
  func writeBackFailureNamesKey() {
    let records = Lock<[CarlosLogger.Record]>([])
    let (originalOutput, originalRecords) = (CarlosLogger.output, CarlosLogger.recordOutput)
    defer { CarlosLogger.recordOutput = originalRecords }
    CarlosLogger.recordOutput = { record in
      records.withLock { $0.append(record) }
      originalOutput(record.message, record.level)
    }
    let key = "logger-test-key"
    let upper = SpyLevel<String, Int>(setError: TestError(1))
    let lower = SpyLevel<String, Int>([key: 1])
    #expect(Outcome((upper >>> lower).get(key)) == .success(1))
    let logged = records.withLock { $0 }
    #expect(logged.contains { $0.level == .warning && $0.metadata["key"] == CarlosLogger.key(key) })
    #expect(!logged.contains { $0.metadata["key"] == key || $0.message.contains(key) })
  }
}
