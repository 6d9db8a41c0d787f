extension Future {
  /// Creates a future driven by a synchronous operation, started at once in a
  /// new `Task`: the same as ``init(operation:)-1jtnj``.
  ///
  /// This overload makes a trailing closure without `await`, `Future { … }`,
  /// mean an operation, and never ``init(unwrapping:)``.
  public convenience init(operation: @escaping @Sendable () throws -> Value) {
    let asynchronous: @Sendable () async throws -> Value = { try operation() }
    self.init(operation: asynchronous)
  }
}
