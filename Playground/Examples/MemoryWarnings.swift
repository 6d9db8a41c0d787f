import Carlos
import Synchronization

/// Memory readings handed out one by one, as if memory filled up, drained and filled again.
private final class PretendMemory: Sendable {
  private let percentages = Mutex([50, 93, 97, 60, 95])

  func read() -> MemoryReading? {
    guard let percent = percentages.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
      return nil
    }
    print("  memory is \(percent)% used")
    return MemoryReading(usedBytes: UInt64(percent), limitBytes: 100)
  }
}

extension Example {
  static let memoryWarnings: Example = Example(
    name: "memory-warnings",
    summary: "listenToMemoryWarnings; post a warning yourself or let a monitor watch memory"
  ) {
    let memory = DictionaryLevel<String, String>("memory")
    let disk = DictionaryLevel<String, String>("disk")
    let cache = memory >>> disk

    let token = cache.listenToMemoryWarnings()
    print("a posted warning reaches every level of the composition:")
    MemoryWarning.post()
    unsubscribeToMemoryWarnings(token)
    print("after unsubscribing, a warning reaches none (nothing printed):")
    MemoryWarning.post()

    let pretend = PretendMemory()
    let monitor = MemoryPressureMonitor(threshold: 0.9) { pretend.read() }
    let listening = cache.listenToMemoryWarnings()
    print("a monitor warns once when usage crosses 90%, and again only after it fell below:")
    // The monitor also logs each warning; shown here, in this example's output.
    let standardOutput = CarlosLogger.output
    CarlosLogger.output = { message, level in print("  the monitor logged: \(level): \(message)") }
    for _ in 1...5 { monitor.check() }
    CarlosLogger.output = standardOutput
    unsubscribeToMemoryWarnings(listening)
    print("(call monitor.start() to have it read memory every few seconds by itself)")

    if let system = MemoryPressureMonitor.systemReading() {
      print("this machine right now: \(system)")
    }
  }
}
