#if HTTPCaching
import Foundation
import Synchronization

/// The origin requests an ``HTTPCache`` has in flight, at most one per
/// ``HTTPCacheKey``: the first caller that needs the origin leads the request,
/// and the callers of the same key that come while it is in flight wait for
/// its outcome. It also remembers for a while the keys whose responses could
/// not be stored, whose callers then ask the origin at once, each for itself,
/// rather than wait for one another (hit-for-pass).
///
/// One table is made with each cache and shared by the cache's copies.
@usableFromInline
final class HTTPCacheFlights: Sendable {
  /// How a request in flight ended, for the callers that waited for it.
  enum Outcome: Sendable {
    /// The response was stored as this record.
    case stored(HTTPCacheRecord)
    /// The policy refused to store the response: each waiter asks the origin
    /// itself, and so do later callers of the key for ``passDuration``.
    case uncacheable
    /// The response was not stored this time (a server error, or an answer only
    /// for the leader's request): each waiter asks the origin itself.
    case notStored
    /// The request failed with this error.
    case failed(any Error)
    /// The leader was cancelled: the waiters start over.
    case cancelled
  }

  /// What a caller that needs the origin does.
  enum Role: Sendable {
    /// Asks the origin, then tells the waiters with ``land(_:with:at:)``.
    case leader(Ticket)
    /// Asks the origin by itself and tells no one.
    case alone
    /// Waited for a request in flight, which ended so.
    case waiter(Outcome)
  }

  /// The leader's claim on its request in flight.
  struct Ticket: Sendable {
    /// The key of the request.
    let key: HTTPCacheKey
    /// Which request in flight of that key it leads.
    let number: UInt64
  }

  /// A request in flight and the callers waiting for it.
  private struct Flight {
    /// Tells this request from a later one of the same key.
    let number: UInt64
    /// The waiting callers, by their numbers.
    var waiters: [UInt64: CheckedContinuation<Role, any Error>] = [:]
  }

  /// The table, behind one lock.
  private struct Table {
    /// The requests in flight.
    var flights: [HTTPCacheKey: Flight] = [:]
    /// The keys whose responses could not be stored, until when that is remembered.
    var passes: [HTTPCacheKey: Date] = [:]
  }

  /// How long a key whose response could not be stored is not collapsed: two
  /// minutes, as Varnish's hit-for-miss objects last.
  static let passDuration: TimeInterval = 120
  /// The most keys remembered as passes, so that the table stays small.
  static let maximumPasses = 1_024

  private let table = Mutex(Table())
  private let numbers = Atomic<UInt64>(0)

  /// An empty table.
  @usableFromInline init() {}

  /// The role of a caller that needs the origin for `key` at `now`: a waiter
  /// when a request of `key` is in flight (returning once it lands), else its
  /// leader, or alone when it may not lead (`mayLead` is `false`) or `key`'s
  /// responses could not be stored lately. Throws `CancellationError` as soon as
  /// the caller is cancelled while it waits.
  func join(_ key: HTTPCacheKey, mayLead: Bool, at now: Date) async throws -> Role {
    let number = numbers.wrappingAdd(1, ordering: .relaxed).newValue
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let decided: Result<Role, any Error>? = table.withLock { table in
          // Checked under the lock, so a cancellation after it finds the waiter.
          if Task.isCancelled { return .failure(CancellationError()) }
          if table.flights[key] != nil {
            table.flights[key]?.waiters[number] = continuation
            return nil
          }
          guard mayLead else { return .success(.alone) }
          if let until = table.passes[key] {
            if until > now { return .success(.alone) }
            table.passes[key] = nil
          }
          table.flights[key] = Flight(number: number)
          return .success(.leader(Ticket(key: key, number: number)))
        }
        if let decided { continuation.resume(with: decided) }
      }
    } onCancel: {
      let waiter = table.withLock { $0.flights[key]?.waiters.removeValue(forKey: number) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// A ticket to lead a request of `key`, or `nil` when one is in flight.
  func lead(_ key: HTTPCacheKey) -> Ticket? {
    let number = numbers.wrappingAdd(1, ordering: .relaxed).newValue
    return table.withLock { table in
      guard table.flights[key] == nil else { return nil }
      table.flights[key] = Flight(number: number)
      return Ticket(key: key, number: number)
    }
  }

  /// Ends the request that `ticket` leads with `outcome` at `now`, and hands the
  /// outcome to every caller waiting for it.
  func land(_ ticket: Ticket, with outcome: Outcome, at now: Date) {
    let waiters = table.withLock { table -> [CheckedContinuation<Role, any Error>] in
      switch outcome {
      case .stored: table.passes[ticket.key] = nil
      case .uncacheable: Self.remember(pass: ticket.key, at: now, in: &table)
      case .notStored, .failed, .cancelled: break
      }
      guard table.flights[ticket.key]?.number == ticket.number,
        let flight = table.flights.removeValue(forKey: ticket.key)
      else { return [] }
      return Array(flight.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: .waiter(outcome)) }
  }

  /// Forgets that `key`'s responses could not be stored: one was.
  func forgetPass(_ key: HTTPCacheKey) {
    table.withLock { _ = $0.passes.removeValue(forKey: key) }
  }

  /// Remembers at `now` that `key`'s response could not be stored, forgetting
  /// the expired passes, or every pass, when there are too many.
  private static func remember(pass key: HTTPCacheKey, at now: Date, in table: inout Table) {
    if table.passes[key] == nil, table.passes.count >= maximumPasses {
      table.passes = table.passes.filter { $0.value > now }
      if table.passes.count >= maximumPasses { table.passes.removeAll() }
    }
    table.passes[key] = now.addingTimeInterval(passDuration)
  }
}
#endif
