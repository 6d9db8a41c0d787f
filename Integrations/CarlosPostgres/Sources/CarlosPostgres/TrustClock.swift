#if Postgres
/// Instants of the continuous clock as nanoseconds after one fixed instant of the
/// process, so that they fit an atomic integer.
enum TrustClock {
  /// The instant every count starts from.
  static let origin = ContinuousClock.now

  /// Nanoseconds from ``origin`` to `instant` (negative before it).
  static func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
    let (seconds, attoseconds) = origin.duration(to: instant).components
    return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
  }
}
#endif
