import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a level reads the time, for expiry and entry metadata.
///
/// The levels use ``SystemClock`` unless told otherwise; tests pass a
/// ``ManualClock`` and move time by hand instead of sleeping:
///
/// ```swift
/// let clock = ManualClock()
/// let memory = MemoryCacheLevel<String, Int>(expiration: .afterWrite(.seconds(60)), clock: clock)
/// memory.set(1, forKey: "a")
/// clock.advance(by: .seconds(61))   // "a" is now a miss
/// ```
///
/// A level never lets time go backwards for itself: when the clock jumps back, the
/// level keeps using the latest time it saw, so a value once expired stays expired.
public protocol CacheClock: Sendable {
  /// The current wall-clock time.
  func now() -> Date
}

/// The system's wall clock.
///
/// On Linux it reads the kernel's coarse real-time clock, which costs a fifth of a
/// precise reading and advances every few milliseconds (every tick of the kernel,
/// 1–4 ms): expiry deadlines are honoured to within that resolution.
public struct SystemClock: CacheClock {
  /// Creates the system clock.
  public init() {}

  /// The current time of the system.
  public func now() -> Date {
    CacheInstant(nanoseconds: Self.nanoseconds()).date
  }

  /// The current time in nanoseconds since 1970, read the cheapest way the system allows.
  @inlinable
  static func nanoseconds() -> Int64 {
    #if os(Linux)
    var time = timespec()
    clock_gettime(CLOCK_REALTIME_COARSE, &time)
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #else
    return CacheInstant(Date()).nanoseconds
    #endif
  }
}

extension CacheClock {
  /// The current time in nanoseconds since 1970; the system clock's without a `Date`.
  @inlinable
  func nanoseconds() -> Int64 {
    if self is SystemClock { return SystemClock.nanoseconds() }
    if let manual = self as? ManualClock { return manual.nanoseconds }
    return CacheInstant(now()).nanoseconds
  }
}

/// A clock resolved once into the cheapest way to read it, for levels that read
/// the time on every get: no dynamic cast per reading.
@usableFromInline
enum ClockSource: Sendable {
  case system
  case manual(ManualClock)
  case other(any CacheClock)

  /// The source that reads `clock`.
  @inlinable
  init(_ clock: any CacheClock) {
    if clock is SystemClock {
      self = .system
    } else if let manual = clock as? ManualClock {
      self = .manual(manual)
    } else {
      self = .other(clock)
    }
  }

  /// The current time in nanoseconds since 1970.
  @inlinable
  func nanoseconds() -> Int64 {
    switch self {
    case .system: SystemClock.nanoseconds()
    case .manual(let manual): manual.nanoseconds
    case .other(let clock): CacheInstant(clock.now()).nanoseconds
    }
  }
}

/// A clock that moves only when told to: for tests and simulations.
///
/// It keeps whole nanoseconds, so moving it by a duration lands exactly on the
/// deadline that duration gives.
public final class ManualClock: CacheClock {
  private let current: Lock<CacheInstant>

  /// Creates a clock that reads `start` until it is moved.
  public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
    current = Lock(CacheInstant(start))
  }

  /// The time the clock was last set to.
  public func now() -> Date {
    current.withLock { $0 }.date
  }

  /// The time the clock was last set to, in nanoseconds since 1970.
  @usableFromInline
  var nanoseconds: Int64 {
    current.withLock { $0.nanoseconds }
  }

  /// Moves the clock forward (or back, for a negative duration) by `duration`.
  public func advance(by duration: Duration) {
    current.withLock { now in now = now.adding(duration) }
  }

  /// Sets the clock to `date`, which may be earlier than now (to simulate a wall clock jumping back).
  public func set(to date: Date) {
    current.withLock { $0 = CacheInstant(date) }
  }
}

/// A clock reading that never goes backwards: the latest time seen so far.
/// Levels keep one behind their lock.
struct MonotonicReading: Sendable {
  private(set) var latest = CacheInstant.distantPast

  /// Reads `clock`, never answering earlier than an earlier answer.
  mutating func read(_ clock: any CacheClock) -> CacheInstant {
    let now = CacheInstant(nanoseconds: clock.nanoseconds())
    if now > latest { latest = now }
    return latest
  }
}
