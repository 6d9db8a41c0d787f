import Carlos
import Foundation
import Testing

@Suite("Memory pressure monitor", .recordingLog)
struct MemoryPressureMonitorTests {
  /// Readings handed out one by one, then `nil`.
  final class ScriptedReadings: Sendable {
    private let remaining: Lock<[MemoryReading?]>

    init(fractions: [Double?]) {
      remaining = Lock(
        fractions.map { fraction in
          fraction.flatMap { MemoryReading(usedBytes: UInt64($0 * 1_000), limitBytes: 1_000) }
        })
    }

    func next() -> MemoryReading? {
      remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
  }

  @Test("posts once when usage crosses the threshold going up, and again only after it fell below")
  func edgeTriggered() {
    let center = NotificationCenter()
    let level = SpyLevel<String, Int>()
    let token = level.listenToMemoryWarnings(notificationCenter: center)
    let readings = ScriptedReadings(fractions: [0.5, 0.95, 0.97, 0.9, 0.5, 0.92, nil, 0.93, 0.3])
    let monitor = MemoryPressureMonitor(threshold: 0.9, notificationCenter: center) {
      readings.next()
    }
    let posted = (0..<9).map { _ in monitor.check() }
    #expect(posted == [false, true, false, false, false, true, false, false, false])
    #expect(level.memoryWarnings == 2)
    unsubscribeToMemoryWarnings(token)
  }

  @Test("never posts while usage stays below the threshold, or when memory cannot be read")
  func quietBelowThreshold() {
    let center = NotificationCenter()
    let level = SpyLevel<String, Int>()
    let token = level.listenToMemoryWarnings(notificationCenter: center)
    let readings = ScriptedReadings(fractions: [0.1, 0.89, nil, 0.5])
    let monitor = MemoryPressureMonitor(threshold: 0.9, notificationCenter: center) {
      readings.next()
    }
    for _ in 0..<6 { monitor.check() }
    #expect(level.memoryWarnings == 0)
    unsubscribeToMemoryWarnings(token)
  }

  @Test("once started it polls by itself, and stops when told")
  func startAndStop() async throws {
    let center = NotificationCenter()
    let level = SpyLevel<String, Int>()
    let token = level.listenToMemoryWarnings(notificationCenter: center)
    let reads = Lock(0)
    let monitor = MemoryPressureMonitor(
      threshold: 0.8, pollingInterval: 0.01, notificationCenter: center
    ) {
      reads.withLock { $0 += 1 }
      return MemoryReading(usedBytes: 95, limitBytes: 100)
    }
    monitor.start()
    monitor.start()
    #expect(monitor.isRunning)
    var waited = 0
    while reads.withLock({ $0 }) < 5 && waited < 500 {
      try await Task.sleep(nanoseconds: 10_000_000)
      waited += 1
    }
    #expect(reads.withLock { $0 } >= 5)
    #expect(level.memoryWarnings == 1)
    monitor.stop()
    #expect(!monitor.isRunning)
    try await Task.sleep(nanoseconds: 50_000_000)
    let readsAfterStop = reads.withLock { $0 }
    try await Task.sleep(nanoseconds: 100_000_000)
    #expect(reads.withLock { $0 } == readsAfterStop)
    unsubscribeToMemoryWarnings(token)
  }

  @Test("out-of-range settings are corrected")
  func settingsAreCorrected() {
    #expect(MemoryPressureMonitor(threshold: 7).threshold == 1)
    #expect(MemoryPressureMonitor(threshold: -1).threshold == 0)
    #expect(MemoryPressureMonitor(threshold: .nan).threshold == 0.9)
    #expect(MemoryPressureMonitor(pollingInterval: 0).pollingInterval == 0.01)
  }

  @Test("cgroup v2 files: a number and a limit, or no limit")
  func cgroupV2() {
    #expect(
      MemoryReading.cgroupV2(current: "123\n", max: "1000\n")
        == MemoryReading(usedBytes: 123, limitBytes: 1000))
    #expect(MemoryReading.cgroupV2(current: "123\n", max: "max\n") == nil)
    #expect(MemoryReading.cgroupV2(current: "", max: "1000") == nil)
    #expect(MemoryReading.cgroupV2(current: "-5", max: "1000") == nil)
    #expect(MemoryReading.cgroupV2(current: "12 34", max: "1000") == nil)
    #expect(MemoryReading.cgroupV2(current: "5", max: "0") == nil)
    #expect(MemoryReading.cgroupV2(current: "99999999999999999999999", max: "1000") == nil)
  }

  @Test("cgroup v1 files: the kernel's huge 'no limit' value means no limit")
  func cgroupV1() {
    #expect(
      MemoryReading.cgroupV1(usage: "512\n", limit: "2048\n")
        == MemoryReading(usedBytes: 512, limitBytes: 2048))
    #expect(MemoryReading.cgroupV1(usage: "512\n", limit: "9223372036854771712\n") == nil)
    #expect(MemoryReading.cgroupV1(usage: "lots", limit: "2048") == nil)
  }

  @Test("/proc/meminfo: MemTotal minus MemAvailable, in bytes")
  func meminfo() {
    let sample = """
      MemTotal:       16318220 kB
      MemFree:          412788 kB
      MemAvailable:    4079555 kB
      Buffers:          250624 kB
      Cached:          3624848 kB
      """
    let reading = MemoryReading.meminfo(sample)
    #expect(reading?.limitBytes == 16_318_220 * 1024)
    #expect(reading?.usedBytes == (16_318_220 - 4_079_555) * 1024)
    #expect(reading.map { abs($0.fractionUsed - 0.75) < 0.001 } == true)
  }

  @Test("/proc/meminfo without MemAvailable falls back to free, buffers and cache")
  func meminfoOldKernel() {
    let sample = "MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 250 kB\n"
    #expect(
      MemoryReading.meminfo(sample) == MemoryReading(usedBytes: 600 * 1024, limitBytes: 1000 * 1024)
    )
  }

  @Test("malformed /proc/meminfo gives no reading")
  func meminfoMalformed() {
    #expect(MemoryReading.meminfo("") == nil)
    #expect(MemoryReading.meminfo("garbage\n:::\n") == nil)
    #expect(MemoryReading.meminfo("MemTotal: lots kB\nMemAvailable: 1 kB") == nil)
    #expect(MemoryReading.meminfo("MemTotal: 0 kB\nMemAvailable: 0 kB") == nil)
    #expect(MemoryReading.meminfo("MemTotal: 1000 kB") == nil)
    #expect(MemoryReading.meminfo("MemTotal: 18446744073709551615 kB\nMemAvailable: 1 kB") == nil)
    // More available than total (a torn read) counts as nothing used.
    #expect(MemoryReading.meminfo("MemTotal: 10 kB\nMemAvailable: 20 kB")?.usedBytes == 0)
  }

  @Test("the process's cgroup v2 path")
  func cgroupPath() {
    #expect(
      MemoryReading.cgroupV2Path(procCgroup: "0::/user.slice/app.scope\n")
        == "/user.slice/app.scope")
    #expect(MemoryReading.cgroupV2Path(procCgroup: "0::/\n") == "/")
    #expect(MemoryReading.cgroupV2Path(procCgroup: "12:memory:/docker/abc\n") == nil)
    #expect(MemoryReading.cgroupV2Path(procCgroup: "0::/../../etc\n") == nil)
    #expect(MemoryReading.cgroupV2Path(procCgroup: "") == nil)
  }

  #if os(Linux)
  @Test("on Linux the system reading finds a limit")
  func systemReading() {
    let reading = MemoryPressureMonitor.systemReading()
    #expect(reading != nil)
    #expect((reading?.limitBytes ?? 0) > 0)
  }
  #endif
}
