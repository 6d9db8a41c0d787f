#if Postgres
/// What a ``PostgresSingleFlight`` has done since it was created.
public struct SingleFlightStatistics: Sendable, Hashable {
  /// Gets answered by a value already stored, without a lease.
  public var hits = 0
  /// Loads this instance ran as the lease holder, whose values it stored.
  public var leaderLoads = 0
  /// Gets that waited for another instance's load and read the value it stored.
  public var followedLoads = 0
  /// Leases taken over from a holder whose deadline had passed (it died, or overran).
  public var takeovers = 0
  /// Values this instance loaded again before they expired (``PostgresSingleFlight/refreshAhead``).
  public var refreshes = 0
  /// Refreshes that stored nothing because a write replaced the value they were
  /// refreshing while they loaded (the written value stays).
  public var supersededRefreshes = 0
  /// Loads and refreshes of this instance that failed (a load's error went to this
  /// instance's callers; a refresh's was logged).
  public var failedLoads = 0
  /// Gets that joined a get of the same key already running in this process.
  public var joinedLocally = 0

  /// Creates statistics with every count zero.
  public init() {}
}
#endif
