extension Future {
  /// Creates a future from the value `closure` returns, evaluated at once on
  /// the calling thread: it succeeds with the value, fails with
  /// ``FutureError/valueMissing`` when `closure` returns `nil`, and fails with
  /// the error `closure` throws.
  ///
  /// For work that should not block the caller, use ``init(operation:)-1jtnj``;
  /// a trailing closure, `Future { … }`, means that one whenever it can.
  @inlinable
  @_disfavoredOverload
  public convenience init(unwrapping closure: () throws -> Value?) {
    let result: FutureResult<Value>
    do {
      result = try closure().map { .success($0) } ?? .error(FutureError.valueMissing)
    } catch {
      result = .error(error)
    }
    self.init(result: result)
  }

  /// The original PiedPiper spelling of ``init(unwrapping:)``. Unlike the
  /// original, the closure runs at once on the calling thread.
  ///
  /// A trailing closure that cannot be an operation (one returning an optional
  /// where the future's value is not one, as in the original `Future<String> { nil }`)
  /// resolves here, so that original code still compiles, with this deprecation
  /// warning pointing at the labelled form.
  @available(*, deprecated, renamed: "init(unwrapping:)")
  @inlinable
  @_disfavoredOverload
  public convenience init(closure: () -> Value?) {
    self.init(unwrapping: closure)
  }
}
