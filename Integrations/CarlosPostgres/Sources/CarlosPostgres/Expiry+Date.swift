#if Postgres
import Carlos
import Foundation

extension Expiry {
  /// When a value stored at `now` with this expiry expires, or nil for never.
  func date(storedAt now: Date) -> Date? {
    switch self {
    case .never: nil
    case .after(let duration): now.addingTimeInterval(duration.inSeconds)
    case .at(let date): date
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
#endif
