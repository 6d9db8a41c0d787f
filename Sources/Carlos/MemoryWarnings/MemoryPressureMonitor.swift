import Dispatch
import Foundation

/// Watches how much memory the process may still use, and posts a memory
/// warning (``MemoryWarning/post(to:)``) when usage crosses a threshold.
///
/// Warnings are edge-triggered: one warning when usage rises to the threshold
/// or above, then none until it has fallen below the threshold again. By
/// default readings come from the process's cgroup (v2, then v1) and from
/// `/proc/meminfo`, whichever is closer to its limit; inject another reading
/// to watch something else. Readings that fail are skipped.
public final class MemoryPressureMonitor: Sendable {
  /// The share of the limit in use (0...1) at which a warning is posted.
  public let threshold: Double
  /// The seconds between two readings once started.
  public let pollingInterval: TimeInterval

  private let reading: @Sendable () -> MemoryReading?
  private let notificationCenter: NotificationCenter
  private let queue = DispatchQueue(label: "Carlos.MemoryPressureMonitor")

  private struct State {
    /// The polling timer while started.
    var timer: (any DispatchSourceTimer)?
    /// Whether the last reading was at or above the threshold (a warning was posted for it).
    var isAboveThreshold = false
  }

  private let state = Lock(State())

  /// Creates a monitor; call ``start()`` to begin polling.
  ///
  /// - Parameters:
  ///   - threshold: the share of the limit in use (0...1) at which to warn.
  ///     Values outside 0...1 are clamped, and a non-number becomes 0.9; both are logged.
  ///   - pollingInterval: the seconds between readings; at least 0.01 (smaller values are raised and logged).
  ///   - notificationCenter: where the warning is posted.
  ///   - reading: takes one reading; `nil` when memory cannot be read.
  public init(
    threshold: Double = 0.9,
    pollingInterval: TimeInterval = 5,
    notificationCenter: NotificationCenter = .default,
    reading: @escaping @Sendable () -> MemoryReading? = MemoryPressureMonitor.systemReading
  ) {
    let validThreshold = threshold.isNaN ? 0.9 : Swift.min(Swift.max(threshold, 0), 1)
    if validThreshold != threshold {
      CarlosLogger.log(
        "MemoryPressureMonitor threshold \(threshold) is not within 0...1; using \(validThreshold)",
        .warning)
    }
    let validInterval = pollingInterval.isNaN ? 5 : Swift.max(pollingInterval, 0.01)
    if validInterval != pollingInterval {
      CarlosLogger.log(
        "MemoryPressureMonitor polling interval \(pollingInterval) s is too short; using \(validInterval) s",
        .warning)
    }
    self.threshold = validThreshold
    self.pollingInterval = validInterval
    self.notificationCenter = notificationCenter
    self.reading = reading
  }

  deinit {
    state.withLock { $0.timer }?.cancel()
  }

  /// Whether the monitor is polling.
  public var isRunning: Bool {
    state.withLock { $0.timer != nil }
  }

  /// Starts polling: a reading now, then one every ``pollingInterval`` seconds,
  /// on a background queue. Does nothing when already started. Polling stops
  /// when the monitor is released, so keep a reference to it while it watches.
  public func start() {
    state.withLock { state in
      guard state.timer == nil else { return }
      let timer = DispatchSource.makeTimerSource(queue: queue)
      let nanoseconds = Int((pollingInterval * 1_000_000_000).rounded())
      timer.schedule(
        deadline: .now(),
        repeating: .nanoseconds(nanoseconds),
        leeway: .nanoseconds(nanoseconds / 10)
      )
      timer.setEventHandler { [weak self] in
        self?.check()
      }
      timer.resume()
      state.timer = timer
    }
  }

  /// Stops polling. The monitor can be started again.
  public func stop() {
    let timer = state.withLock { state in
      let timer = state.timer
      state.timer = nil
      return timer
    }
    timer?.cancel()
  }

  /// Takes one reading now and posts a warning if usage has just crossed the
  /// threshold. Returns whether it posted.
  @discardableResult
  public func check() -> Bool {
    guard let current = reading() else { return false }
    let isAbove = current.fractionUsed >= threshold
    let crossedUp = state.withLock { state in
      let crossed = isAbove && !state.isAboveThreshold
      state.isAboveThreshold = isAbove
      return crossed
    }
    guard crossedUp else { return false }
    CarlosLogger.log("Memory is short (\(current)); posting a memory warning", .warning)
    MemoryWarning.post(to: notificationCenter)
    return true
  }

  /// Reads the memory of this process's cgroup (v2, then v1) and of the whole
  /// machine (`/proc/meminfo`) and returns the reading closest to its limit;
  /// `nil` when none can be read (for example, not on Linux).
  @Sendable
  public static func systemReading() -> MemoryReading? {
    let candidates = [cgroupReading(), readFile("/proc/meminfo").flatMap(MemoryReading.meminfo)]
    return candidates.compactMap { $0 }.max { $0.fractionUsed < $1.fractionUsed }
  }

  /// The reading of this process's cgroup, when it has a memory limit.
  private static func cgroupReading() -> MemoryReading? {
    var directories: [String] = []
    if let path = readFile("/proc/self/cgroup").flatMap(MemoryReading.cgroupV2Path(procCgroup:)),
      path != "/"
    {
      directories.append("/sys/fs/cgroup" + path)
    }
    directories.append("/sys/fs/cgroup")
    for directory in directories {
      if let current = readFile(directory + "/memory.current"),
        let max = readFile(directory + "/memory.max"),
        let reading = MemoryReading.cgroupV2(current: current, max: max)
      {
        return reading
      }
    }
    if let usage = readFile("/sys/fs/cgroup/memory/memory.usage_in_bytes"),
      let limit = readFile("/sys/fs/cgroup/memory/memory.limit_in_bytes")
    {
      return MemoryReading.cgroupV1(usage: usage, limit: limit)
    }
    return nil
  }

  /// The text of a small system file, or `nil` when it cannot be read.
  private static func readFile(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
  }
}
