/// Composes two functions that may produce no value: `(f >>> g)(x)` is
/// `f(x).flatMap(g)`, so `nil` from `f` skips `g`.
@inlinable
public func >>> <A, B, C>(
  f: @escaping @Sendable (A) -> B?,
  g: @escaping @Sendable (B) -> C?
) -> @Sendable (A) -> C? {
  { f($0).flatMap(g) }
}
