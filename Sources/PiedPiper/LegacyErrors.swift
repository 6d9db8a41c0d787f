// The error types of the original PiedPiper, kept as names for ``FutureError``
// so that code written against them compiles, and so that `error as?
// FutureFilteringError` still matches what PiedPiper's combinators fail with.

/// The original name of the error `filter` fails with; now ``FutureError``.
@available(*, deprecated, renamed: "FutureError")
public typealias FutureFilteringError = FutureError

/// The original name of the error a mapping to `nil` fails with; now ``FutureError``.
@available(*, deprecated, renamed: "FutureError")
public typealias FutureMappingError = FutureError

/// The original name of the error `filter` on a result gives; now ``FutureError``.
@available(*, deprecated, renamed: "FutureError")
public typealias ResultFilteringError = FutureError

/// The original name of the error a result mapped to `nil` gives; now ``FutureError``.
@available(*, deprecated, renamed: "FutureError")
public typealias ResultMappingError = FutureError

/// The original name of the error `Future(closure:)` fails with; now ``FutureError``.
@available(*, deprecated, renamed: "FutureError")
public typealias FutureInitializationError = FutureError

extension FutureError {
  /// The original name of ``filterNotSatisfied``.
  @available(*, deprecated, renamed: "filterNotSatisfied")
  public static var conditionUnsatisfied: FutureError { .filterNotSatisfied }

  /// The original name of ``valueMissing`` (a mapping produced `nil`).
  @available(*, deprecated, renamed: "valueMissing")
  public static var cantMapValue: FutureError { .valueMissing }

  /// The original name of ``valueMissing`` (`Future(closure:)` returned `nil`).
  @available(*, deprecated, renamed: "valueMissing")
  public static var closureReturnedNil: FutureError { .valueMissing }
}

/// Matches an error against a ``FutureError`` in a `catch` or `case` pattern,
/// so that the original names, which are not enum cases here, still match:
/// `catch FutureMappingError.cantMapValue { … }`.
@inlinable
public func ~= (pattern: FutureError, error: any Error) -> Bool {
  (error as? FutureError) == pattern
}
