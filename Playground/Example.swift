/// One runnable Playground example: a short script that shows one feature.
struct Example: Sendable {
  /// The name used on the command line: `swift run Playground <name>`.
  let name: String
  /// One line saying what the example demonstrates.
  let summary: String
  /// The script itself.
  let run: @Sendable () async throws -> Void
}
