/// Errors produced by PiedPiper's own combinators.
public enum FutureError: Error, Equatable, Sendable {
  /// `filter` rejected the value.
  case filterNotSatisfied
  /// `timeout(after:)` elapsed before the source completed.
  case timeout
  /// `flatMap` to an `Optional` produced `nil`.
  case valueMissing
  /// A combinator over a sequence of futures was given no futures where one is needed.
  case emptySequence
}
