import Carlos

/// One runnable Playground example: a short script that shows one feature.
struct Example: Sendable {
  /// The name used on the command line: `swift run Playground <name>`.
  let name: String
  /// One line saying what the example demonstrates.
  let summary: String
  /// The script itself.
  let run: @Sendable () async throws -> Void
}

/// Waits for `future` and describes its outcome, for printing.
func outcome<T: Sendable>(_ future: Future<T>) async -> String {
  do {
    return "succeeded with \(try await future.value)"
  } catch is CancellationError {
    return "cancelled"
  } catch {
    return "failed with \(error)"
  }
}
