/// The precedence of `>>>`: left-associative and looser than every arithmetic,
/// comparison and logical operator, so a whole pipeline reads left to right.
precedencegroup CompositionPrecedence {
  associativity: left
  higherThan: AssignmentPrecedence
  lowerThan: TernaryPrecedence
}

/// Composes left to right: functions, future-returning functions, cache levels
/// and transformers (the last two in Carlos).
infix operator >>> : CompositionPrecedence

/// Composes two functions: `(f >>> g)(x) == g(f(x))`.
@inlinable
public func >>> <A, B, C>(
  f: @escaping @Sendable (A) -> B,
  g: @escaping @Sendable (B) -> C
) -> @Sendable (A) -> C {
  { g(f($0)) }
}

/// Composes two future-returning functions: the second runs on the first one's value.
@inlinable
public func >>> <A, B: Sendable, C: Sendable>(
  f: @escaping @Sendable (A) -> Future<B>,
  g: @escaping @Sendable (B) -> Future<C>
) -> @Sendable (A) -> Future<C> {
  { f($0).flatMap(g) }
}
