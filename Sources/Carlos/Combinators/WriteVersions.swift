/// The per-key write counters of a composed cache, which keep a value fetched
/// from the lower level from overwriting a newer one in the upper level.
///
/// Keys are spread over a few stripes by hash (non-`Hashable` keys share one).
/// A set, remove or clear through the composition bumps its stripes and issues its
/// calls to the levels while holding them; a write-back checks that its stripe was
/// not bumped since its get started and issues its `set` under the same lock. As
/// the built-in levels apply their operations in the order they are called, the
/// upper level then sees the newer write after the older one, never before.
@usableFromInline
final class WriteVersions: Sendable {
  /// One lock and counter per stripe.
  @usableFromInline
  final class Stripe: Sendable {
    @usableFromInline let version = Lock<UInt64>(0)
    @usableFromInline init() {}
  }

  @usableFromInline static var stripeCount: Int { 16 }
  @usableFromInline let stripes: [Stripe]

  @usableFromInline
  init() {
    stripes = (0..<Self.stripeCount).map { _ in Stripe() }
  }

  @usableFromInline
  func stripe<Key>(of key: Key) -> Stripe {
    guard let hashable = key as? any Hashable else { return stripes[0] }
    return stripes[hashable.hashValue & (Self.stripeCount - 1)]
  }

  /// The version of `key`'s stripe now.
  @usableFromInline
  func version<Key>(of key: Key) -> UInt64 {
    stripe(of: key).version.withLock { $0 }
  }

  /// Bumps `key`'s stripe and runs `write` (which issues the write to the levels) under its lock.
  @usableFromInline
  func write<Key, Result: Sendable>(_ key: Key, _ write: () -> Result) -> Result {
    stripe(of: key).version.withLock { version in
      version &+= 1
      return write()
    }
  }

  /// Runs `writeBack` under `key`'s stripe lock if no write bumped the stripe since `version`.
  @usableFromInline
  func ifUnchanged<Key, Result: Sendable>(
    _ key: Key, since version: UInt64, _ writeBack: () -> Result
  )
    -> Result?
  {
    stripe(of: key).version.withLock { current in
      current == version ? writeBack() : nil
    }
  }

  /// Bumps every stripe and runs `write` (a clear) while holding them all.
  @usableFromInline
  func writeAll(_ write: () -> Void) {
    func hold(from index: Int) {
      guard index < stripes.count else { return write() }
      stripes[index].version.withLock { version in
        version &+= 1
        hold(from: index + 1)
      }
    }
    hold(from: 0)
  }
}
