import Carlos
import Foundation

/// An HTTP cache (RFC 9111) in front of an origin level: it answers from a
/// storage level while a stored response is fresh, revalidates stale ones with
/// conditional requests, and stores what the origin answers as the response's
/// headers allow.
///
/// The storage is any level (or composition) from ``HTTPRequestKey`` to
/// ``HTTPCacheRecord``; each record is stored with an explicit expiry through
/// `set(_:forKey:expiry:)`, which reaches every level of a composition:
/// ``HTTPCacheRecord/keepUntil``, the end of the response's freshness
/// (`s-maxage` for a shared cache, `max-age`, or `Expires` relative to `Date`),
/// extended by ``HTTPCachePolicy/staleRetention`` when the response has a
/// validator. Freshness is judged from the record itself, so a record that
/// `>>>` copied up into a level with a longer expiry is never served stale.
///
/// A get of a GET or HEAD request:
/// - a fresh stored response is served (with an `Age` field);
/// - a stale one with an `ETag` or `Last-Modified` is revalidated with
///   `If-None-Match` / `If-Modified-Since`: a 304 refreshes the stored record
///   (its header fields merged in, its freshness recomputed) and serves the
///   stored body; a 5xx is passed on and the stored record kept; any other
///   answer replaces the record (or removes it when it must not be stored);
/// - otherwise the origin is asked and its answer stored when
///   ``HTTPCachePolicy/record(for:to:requestTime:responseTime:)`` allows.
///
/// Other methods go to the origin; a 2xx or 3xx answer to an unsafe method
/// (POST, PUT, DELETE…) removes the stored GET and HEAD responses of the same
/// request. A request's own `no-store` keeps its answer out of storage, and its
/// `no-cache` or `max-age` makes a stored response be revalidated. Every
/// response whatever its status is a value, so put no level in front of the
/// cache that would store failures: use ``bodies()`` for `Data` and errors.
/// Concurrent gets of one key each ask the origin; wrap the cache in
/// `pooled()` to share one request.
///
/// ```swift
/// let storage = MemoryCacheLevel<HTTPRequestKey, HTTPCacheRecord>() >>> DiskCacheLevel(path: path)
/// let cache = storage.caching(HTTPFetcher(client: client))
/// let page = try await cache.get(HTTPRequestKey(url))
/// ```
public struct HTTPCache<Storage: CacheLevel, Origin: CacheLevel>: CacheLevel
where
  Storage.KeyType == HTTPRequestKey, Storage.OutputType == HTTPCacheRecord,
  Origin.KeyType == HTTPRequestKey, Origin.OutputType == HTTPResponse
{
  /// The cache is keyed by requests.
  public typealias KeyType = HTTPRequestKey
  /// The cache answers with whole responses.
  public typealias OutputType = HTTPResponse

  /// Where records are stored.
  public let storage: Storage
  /// Where requests go when storage cannot answer.
  public let origin: Origin
  /// The caching rules.
  public let policy: HTTPCachePolicy
  /// Where the cache reads the time.
  public let clock: any CacheClock

  /// Creates a cache of `origin`'s responses in `storage`.
  public init(
    storage: Storage, origin: Origin, policy: HTTPCachePolicy = .shared,
    clock: any CacheClock = SystemClock()
  ) {
    self.storage = storage
    self.origin = origin
    self.policy = policy
    self.clock = clock
  }

  /// The response to `key`, from storage or the origin; cancelling the future
  /// cancels the request.
  public func get(_ key: HTTPRequestKey) -> Future<HTTPResponse> {
    Future { try await self.response(for: key) }
  }

  /// The response to `key`, from storage or the origin (see ``HTTPCache``).
  public func response(for key: HTTPRequestKey) async throws -> HTTPResponse {
    guard HTTPCachePolicy.cacheableMethods.contains(key.method) else {
      return try await passThrough(key)
    }
    let requestControl = CacheControl(parsing: key.headers.values(for: "Cache-Control"))
    if let stored = try await storedRecord(key) {
      let now = clock.now()
      let acceptable =
        stored.isFresh(at: now) && !requestControl.noCache
        && requestControl.maxAge.map { stored.age(at: now) < $0 } ?? true
      if acceptable { return stored.response(at: now) }
      if stored.hasValidators { return try await revalidate(stored, for: key) }
    }
    return try await fetch(key)
  }

  /// Stores `value` as the response to `key`, as if it had just arrived: it is
  /// stored only when the policy allows, and otherwise any stored one is removed.
  @discardableResult
  public func set(_ value: HTTPResponse, forKey key: HTTPRequestKey) -> Future<Void> {
    Future {
      let now = clock.now()
      try await store(
        policy.record(for: value, to: key, requestTime: now, responseTime: now), forKey: key)
    }
  }

  /// Stores `value` as the response to `key`, fresh until `expiry` whatever its
  /// headers say (``Expiry/never``: until the policy's freshness, as ``set(_:forKey:)``),
  /// when the policy allows it to be stored at all.
  @discardableResult
  public func set(_ value: HTTPResponse, forKey key: HTTPRequestKey, expiry: Expiry) -> Future<
    Void
  > {
    Future {
      let now = clock.now()
      var record = policy.record(for: value, to: key, requestTime: now, responseTime: now)
      if var overridden = record {
        switch expiry {
        case .never: break
        case .after(let duration):
          overridden.freshUntil = now.addingTimeInterval(HTTPCachePolicy.seconds(duration))
        case .at(let date): overridden.freshUntil = date
        }
        overridden.keepUntil = max(overridden.keepUntil, overridden.freshUntil)
        record = overridden.freshUntil > now || overridden.hasValidators ? overridden : nil
      }
      try await store(record, forKey: key)
    }
  }

  /// Removes the stored response to `key`.
  @discardableResult
  public func remove(_ key: HTTPRequestKey) -> Future<Void> {
    storage.remove(key)
  }

  /// Removes the records the storage holds past their expiry.
  @discardableResult
  public func removeExpired() -> Future<Void> {
    storage.removeExpired()
  }

  /// Removes every stored response.
  public func clear() {
    storage.clear()
  }

  /// Passes the memory warning to the storage.
  public func onMemoryWarning() {
    storage.onMemoryWarning()
  }

  // MARK: - Steps

  /// The stored record for `key`, or `nil` when the storage has none or fails.
  private func storedRecord(_ key: HTTPRequestKey) async throws -> HTTPCacheRecord? {
    do {
      let record: HTTPCacheRecord = try await storage.get(key)
      return record
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      try Task.checkCancellation()
      return nil
    }
  }

  /// Asks the origin and stores the answer when the policy allows.
  private func fetch(_ key: HTTPRequestKey) async throws -> HTTPResponse {
    let requestTime = clock.now()
    let response: HTTPResponse = try await origin.get(key)
    let responseTime = clock.now()
    try? await store(
      policy.record(for: response, to: key, requestTime: requestTime, responseTime: responseTime),
      forKey: key)
    return response
  }

  /// Asks the origin whether `stored` is still valid, with its validators.
  private func revalidate(_ stored: HTTPCacheRecord, for key: HTTPRequestKey) async throws
    -> HTTPResponse
  {
    var conditional = key
    if let tag = stored.entityTag {
      conditional = conditional.replacing(name: "if-none-match", value: tag.headerValue)
    }
    if let date = stored.lastModified {
      conditional = conditional.replacing(name: "if-modified-since", value: date)
    }
    let requestTime = clock.now()
    let response: HTTPResponse = try await origin.get(conditional)
    let responseTime = clock.now()
    if response.status == 304 {
      let record = policy.revalidated(
        stored, with: response, to: key, requestTime: requestTime, responseTime: responseTime)
      try? await store(record, forKey: key)
      return record?.response(at: responseTime)
        ?? HTTPCachePolicy.merging(response, into: stored.response)
    }
    // A server error is passed on; the stored response stays for later revalidation.
    if (500..<600).contains(response.status) { return response }
    try? await store(
      policy.record(for: response, to: key, requestTime: requestTime, responseTime: responseTime),
      forKey: key)
    return response
  }

  /// Sends a request the cache does not answer; an unsafe method's success
  /// invalidates the stored GET and HEAD responses of the same request.
  private func passThrough(_ key: HTTPRequestKey) async throws -> HTTPResponse {
    let response: HTTPResponse = try await origin.get(key)
    let safe: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]
    if !safe.contains(key.method) && (200..<400).contains(response.status) {
      try? await storage.remove(key.with(method: "GET"))
      try? await storage.remove(key.with(method: "HEAD"))
    }
    return response
  }

  /// Stores `record` until its ``HTTPCacheRecord/keepUntil``, or removes the
  /// stored one when `record` is `nil`.
  private func store(_ record: HTTPCacheRecord?, forKey key: HTTPRequestKey) async throws {
    if let record {
      try await storage.set(record, forKey: key, expiry: .at(record.keepUntil))
    } else {
      try await storage.remove(key)
    }
  }
}

extension CacheLevel where KeyType == HTTPRequestKey, OutputType == HTTPCacheRecord {
  /// An ``HTTPCache`` storing `origin`'s responses in this level (or composition).
  ///
  /// ```swift
  /// let cache = (memory >>> disk).caching(HTTPFetcher(client: client))
  /// ```
  public func caching<Origin: CacheLevel>(
    _ origin: Origin, policy: HTTPCachePolicy = .shared, clock: any CacheClock = SystemClock()
  ) -> HTTPCache<Self, Origin>
  where Origin.KeyType == HTTPRequestKey, Origin.OutputType == HTTPResponse {
    HTTPCache(storage: self, origin: origin, policy: policy, clock: clock)
  }
}
