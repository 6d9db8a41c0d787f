extension Future {
  /// Creates a future from the value `closure` returns, evaluated at once on
  /// the calling thread: it succeeds with the value, or fails with
  /// ``FutureError/valueMissing`` when `closure` returns `nil`.
  ///
  /// For work that should not block the caller, use ``init(operation:)-1jtnj``;
  /// a trailing closure, `Future { … }`, always means that one.
  @inlinable
  @_disfavoredOverload
  public convenience init(unwrapping closure: () -> Value?) {
    self.init(value: closure(), error: FutureError.valueMissing)
  }

  /// The original PiedPiper spelling of ``init(unwrapping:)``. Unlike the
  /// original, the closure runs at once on the calling thread.
  @available(*, deprecated, renamed: "init(unwrapping:)")
  @inlinable
  @_disfavoredOverload
  public convenience init(closure: () -> Value?) {
    self.init(unwrapping: closure)
  }
}
