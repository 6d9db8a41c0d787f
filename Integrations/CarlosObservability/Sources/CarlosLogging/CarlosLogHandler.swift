#if Observability
import Carlos
import Logging

/// Routes Carlos' log messages into a swift-log `Logger`.
///
/// ```swift
/// CarlosLogHandler.route(to: Logger(label: "cache"))
/// ```
///
/// Levels map `debug`→`.debug`, `info`→`.info`, `warning`→`.warning`,
/// `error`→`.error`; a message's context (the cache `level` and `key` it concerns,
/// when it names them) becomes the entry's metadata, under `carlos.level` and
/// `carlos.key` (other entries under `carlos.<name>`).
public enum CarlosLogHandler {
  /// Sends every Carlos message to `logger` from now on (replacing
  /// `CarlosLogger.recordOutput`).
  public static func route(to logger: Logging.Logger) {
    CarlosLogger.recordOutput = { record in
      logger.log(
        level: level(for: record.level), "\(record.message)", metadata: metadata(for: record))
    }
  }

  /// Stops routing: Carlos messages go to `CarlosLogger.output` again.
  public static func stopRouting() {
    CarlosLogger.recordOutput = nil
  }

  /// The swift-log level of a Carlos level.
  public static func level(for level: CarlosLogger.Level) -> Logging.Logger.Level {
    switch level {
    case .debug: return .debug
    case .info: return .info
    case .warning: return .warning
    case .error: return .error
    }
  }

  /// The swift-log metadata of a Carlos record: each entry under `carlos.<name>`.
  public static func metadata(for record: CarlosLogger.Record) -> Logging.Logger.Metadata {
    var metadata = Logging.Logger.Metadata()
    for (name, value) in record.metadata { metadata["carlos.\(name)"] = .string(value) }
    return metadata
  }
}
#endif
