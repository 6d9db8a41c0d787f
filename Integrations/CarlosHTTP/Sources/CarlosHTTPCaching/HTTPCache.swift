#if HTTPCaching
import Carlos
import Foundation

/// An HTTP cache (RFC 9111) in front of an origin level: it answers from a
/// storage level while a stored response may be used, revalidates stale ones
/// with conditional requests, and stores what the origin answers as the
/// response's headers allow.
///
/// The storage is any level (or composition) from ``HTTPCacheKey`` (method and
/// normalised URI) to ``HTTPCacheEntry`` (the variants stored for it), so
/// instances on one storage share responses and variants. Request header
/// fields are sent to the origin and are not part of the key: a response with
/// `Vary` is a variant chosen by the request fields it nominates, several
/// variants live under one key, and `Vary: *` is never reused. Each entry is
/// stored with an explicit expiry through `set(_:forKey:expiry:)`, which
/// reaches every level of a composition: the latest ``HTTPCacheRecord/keepUntil``
/// of its variants. Freshness is judged from the record itself, so a record
/// that `>>>` copied up into a level with a longer expiry is never served stale.
///
/// A get of a GET or HEAD request without a body:
/// - a stored variant that may be used (fresh and acceptable to the request's
///   `max-age`, `min-fresh`, `no-cache`, `Pragma: no-cache`; stale within the
///   request's `max-stale` or the response's `stale-while-revalidate`, the latter
///   revalidated in the background) is served with an `Age` field; a client's
///   `If-None-Match` or `If-Modified-Since` that it satisfies gets a 304;
/// - a stale one with an `ETag` or `Last-Modified` is revalidated with the
///   cache's own `If-None-Match` / `If-Modified-Since` (the client's are not
///   sent): a 304 refreshes the stored record and serves it; any other answer
///   replaces it (or removes it when it must not be stored);
/// - otherwise the request goes to the origin as it is, and the answer is
///   stored when ``HTTPCachePolicy/record(for:to:requestTime:responseTime:)`` allows;
/// - when the origin fails or answers 500, 502, 503 or 504 and the stored
///   response is within its (or the request's) `stale-if-error`, the stored one
///   is served; `only-if-cached` without a usable response gets a 504.
///
/// Concurrent requests that need the origin for one key (method and URI) make
/// one origin request, as nginx's cache lock and Varnish do: the first asks the
/// origin and the others wait for its answer, even those whose `no-cache` or
/// `max-age=0` would revalidate. When the answer was stored, each waiter is
/// served it as its own request asks (a 304 to its validators, a byte range, no
/// body for HEAD), or starts over when its `Vary` fields select another
/// variant. When the answer may not be stored (`no-store`, `private`,
/// `Set-Cookie`…), the waiters ask the origin each for itself and at once, and
/// so do the requests of that key for the next two minutes unless one of their
/// answers is stored (hit-for-pass). When the request failed, the waiters get
/// its error (or a stored response within `stale-if-error`); when it was
/// cancelled, one of them asks in its place. A request for a byte range, with
/// its own validators or with `no-store` waits for a request in flight but
/// never leads one, since its answer would serve no other. A fresh stored
/// response is served without any of this.
///
/// Other methods, and requests with a body, go to the origin; a non-error
/// answer (2xx, 3xx) to an unsafe method (anything but GET, HEAD, OPTIONS and
/// TRACE) removes every stored variant of the target URI and of a same-origin
/// `Location` or `Content-Location`. Hop-by-hop header fields are neither
/// stored nor served. Every response whatever its status is a value, so put no
/// level in front of the cache that would store failures: use ``bodies()`` for
/// `Data` and errors.
///
/// ```swift
/// let storage = MemoryCacheLevel<HTTPCacheKey, HTTPCacheEntry>() >>> DiskCacheLevel(path: path)
/// let cache = storage.caching(HTTPFetcher(client: client))
/// let page = try await cache.get(HTTPRequestKey(url))
/// ```
public struct HTTPCache<Storage: CacheLevel, Origin: CacheLevel>: CacheLevel
where
  Storage.KeyType == HTTPCacheKey, Storage.OutputType == HTTPCacheEntry,
  Origin.KeyType == HTTPRequestKey, Origin.OutputType == HTTPResponse
{
  /// The cache is keyed by requests.
  public typealias KeyType = HTTPRequestKey
  /// The cache answers with whole responses.
  public typealias OutputType = HTTPResponse

  /// Where entries are stored.
  public let storage: Storage
  /// Where requests go when storage cannot answer.
  public let origin: Origin
  /// The caching rules.
  public let policy: HTTPCachePolicy
  /// Where the cache reads the time.
  public let clock: any CacheClock

  /// Reads an entry from `storage`: made where the cache is created, so it is
  /// compiled for the storage's own type even where the cache's code is not.
  @usableFromInline let readEntry: @Sendable (HTTPCacheKey) async throws -> HTTPCacheEntry

  /// The origin requests in flight, shared by the cache's copies.
  @usableFromInline let flights: HTTPCacheFlights

  /// Creates a cache of `origin`'s responses in `storage`.
  @inlinable
  public init(
    storage: Storage, origin: Origin, policy: HTTPCachePolicy = .shared,
    clock: any CacheClock = SystemClock()
  ) {
    self.storage = storage
    self.origin = origin
    self.policy = policy
    self.clock = clock
    self.readEntry = { key in try await storage.get(key) }
    self.flights = HTTPCacheFlights()
  }

  /// The response to `request`, from storage or the origin; cancelling the
  /// future cancels the request.
  public func get(_ request: HTTPRequestKey) -> Future<HTTPResponse> {
    Future { try await self.response(for: request) }
  }

  /// The response to `request`, from storage or the origin (see ``HTTPCache``).
  public func response(for request: HTTPRequestKey) async throws -> HTTPResponse {
    try await respond(to: request, revalidatingInBackground: true) {
      try await self.origin.get($0)
    }
  }

  /// The response to `request`, from storage or from `origin`, which is asked in
  /// place of the cache's origin level: what a server's middleware uses to cache
  /// the answers of its own routes. `origin` is called only before this returns,
  /// so a stale response within `stale-while-revalidate` is revalidated before it
  /// is served rather than in the background.
  public func response(
    for request: HTTPRequestKey,
    askingOrigin origin: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    try await respond(to: request, revalidatingInBackground: false, asking: origin)
  }

  /// The response to `request`, asking `ask` when storage cannot answer.
  private func respond(
    to request: HTTPRequestKey, revalidatingInBackground: Bool,
    asking ask: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    guard HTTPCachePolicy.cacheableMethods.contains(request.method), request.body.isEmpty else {
      return try await passThrough(request, asking: ask)
    }
    let requestControl = HTTPCachePolicy.requestControl(request.headers)
    let key = request.cacheKey
    let stored = try await storedEntry(key)?.variant(matching: request.headers)
    if let stored {
      let now = clock.now()
      switch use(of: stored, for: requestControl, at: now) {
      case .serve:
        return served(stored, to: request, at: now)
      case .serveAndRevalidate where revalidatingInBackground:
        Task { await self.revalidateInBackground(stored, for: request, control: requestControl) }
        return served(stored, to: request, at: now)
      case .serveAndRevalidate, .validate:
        if requestControl.contains("only-if-cached") { return Self.gatewayTimeout }
        return try await askOrigin(
          request, key: key, control: requestControl, stored: stored,
          revalidatingInBackground: revalidatingInBackground, asking: ask)
      }
    }
    if request.method == "HEAD",
      let stored = try await storedEntry(key.withMethod("GET"))?
        .variant(matching: request.headers)
    {
      let now = clock.now()
      if case .serve = use(of: stored, for: requestControl, at: now) {
        return served(stored, to: request, at: now)
      }
    }
    if requestControl.contains("only-if-cached") { return Self.gatewayTimeout }
    return try await askOrigin(
      request, key: key, control: requestControl, stored: nil,
      revalidatingInBackground: revalidatingInBackground, asking: ask)
  }

  /// Stores `value` as the response to `request`, as if it had just arrived: it
  /// is stored only when the policy allows, and otherwise the stored variant
  /// it would replace is removed.
  @discardableResult
  public func set(_ value: HTTPResponse, forKey request: HTTPRequestKey) -> Future<Void> {
    Future {
      let now = clock.now()
      try await store(
        policy.record(for: value, to: request, requestTime: now, responseTime: now), for: request)
    }
  }

  /// Stores `value` as the response to `request`, fresh until `expiry` whatever
  /// its headers say (``Expiry/never``: until the policy's freshness, as
  /// ``set(_:forKey:)``), when the policy allows it to be stored at all.
  @discardableResult
  public func set(_ value: HTTPResponse, forKey request: HTTPRequestKey, expiry: Expiry)
    -> Future<Void>
  {
    Future {
      let now = clock.now()
      var record = policy.record(for: value, to: request, requestTime: now, responseTime: now)
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
      try await store(record, for: request)
    }
  }

  /// Removes every stored variant of `request`'s method and URI.
  @discardableResult
  public func remove(_ request: HTTPRequestKey) -> Future<Void> {
    storage.remove(request.cacheKey)
  }

  /// Removes every stored GET and HEAD response of `url`, whatever they vary on.
  @discardableResult
  public func invalidate(_ url: URL) -> Future<Void> {
    Future { try await self.invalidateAll(of: url) }
  }

  /// Removes the entries the storage holds past their expiry.
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

  // MARK: - Using a stored response

  /// What a stored response may be used for.
  private enum Use {
    /// Served as it is.
    case serve
    /// Served, and revalidated in the background (`stale-while-revalidate`).
    case serveAndRevalidate
    /// Validated (or fetched again) first.
    case validate
  }

  /// How `stored` may answer a request with `requestControl` at `now`
  /// (RFC 9111, sections 4.2 and 5.2; RFC 5861).
  private func use(of stored: HTTPCacheRecord, for requestControl: CacheControl, at now: Date)
    -> Use
  {
    if requestControl.noCache { return .validate }
    let age = stored.exactAge(at: now)
    if let maxAge = requestControl.maxAge, age > TimeInterval(maxAge) { return .validate }
    let (control, _) = policy.responseControl(of: stored)
    if control.noCache { return .validate }
    let remaining = stored.freshUntil.timeIntervalSince(now)
    if remaining > 0 {
      let minimum = requestControl.seconds("min-fresh").map(TimeInterval.init) ?? 0
      return remaining >= minimum ? .serve : .validate
    }
    if mustRevalidate(control) { return .validate }
    let staleness = -remaining
    if requestControl.contains("max-stale") {
      let argument = requestControl.directives.first { $0.name == "max-stale" }?.argument
      if argument == nil || argument?.isEmpty == true { return .serve }
      if let limit = requestControl.seconds("max-stale"), staleness <= TimeInterval(limit) {
        return .serve
      }
    }
    if let window = control.seconds("stale-while-revalidate"), staleness < TimeInterval(window) {
      return .serveAndRevalidate
    }
    return .validate
  }

  /// Whether a stale response with these directives must never be served stale.
  private func mustRevalidate(_ control: CacheControl) -> Bool {
    control.mustRevalidate
      || policy.isShared && (control.contains("proxy-revalidate") || control.sharedMaxAge != nil)
  }

  /// Whether `stored` may stand in for an origin that failed (`stale-if-error`
  /// of the response or the request).
  private func mayServeOnError(_ stored: HTTPCacheRecord?, requestControl: CacheControl) -> Bool {
    guard let stored else { return false }
    let (control, _) = policy.responseControl(of: stored)
    if mustRevalidate(control) || control.noCache { return false }
    let staleness = clock.now().timeIntervalSince(stored.freshUntil)
    let window = max(
      control.seconds("stale-if-error") ?? -1, requestControl.seconds("stale-if-error") ?? -1)
    return window >= 0 && staleness <= TimeInterval(window)
  }

  /// `stored` as served at `now` to `request`: with an `Age` field, without a
  /// body for HEAD, as a 304 when it satisfies the request's own
  /// `If-None-Match` or `If-Modified-Since` (RFC 9111, section 4.3.2), and as a
  /// 206 when the request asks for one byte range of it.
  private func served(_ stored: HTTPCacheRecord, to request: HTTPRequestKey, at now: Date)
    -> HTTPResponse
  {
    var response = stored.response(at: now)
    if request.method == "HEAD" { response.body = Data() }
    if HTTPConditionalRequest.isNotModified(
      response, receivedAt: stored.responseTime, for: request.headers)
    {
      return HTTPConditionalRequest.notModified(from: response)
    }
    if request.method == "GET",
      let partial = HTTPRangeRequest.partial(response, for: request.headers)
    {
      return partial
    }
    return response
  }

  // MARK: - Asking the origin

  /// What the origin's answer to one request gives: the response for that
  /// request, and the outcome for the requests that waited for it.
  private struct OriginAnswer {
    /// The response to the request that asked.
    var response: HTTPResponse
    /// What the waiting requests make of it.
    var outcome: HTTPCacheFlights.Outcome
  }

  /// The response to `request` from the origin, which storage cannot answer
  /// (`stored` is the variant it selects, if any), asked once for all the
  /// concurrent requests of `key` (see ``HTTPCache``).
  private func askOrigin(
    _ request: HTTPRequestKey, key: HTTPCacheKey, control: CacheControl,
    stored: HTTPCacheRecord?, revalidatingInBackground: Bool,
    asking ask: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    let revalidates = stored?.hasValidators == true
    let role = try await flights.join(
      key, mayLead: mayLead(request, control: control, revalidating: revalidates),
      at: clock.now())
    switch role {
    case .leader(let ticket):
      return try await lead(ticket) {
        try await answer(request, control: control, stored: stored, asking: ask)
      }
    case .waiter(.stored(let record)) where record.matches(request.headers):
      HTTPCacheReport.current?.markCollapsed()
      return served(record, to: request, at: clock.now())
    case .waiter(.stored), .waiter(.cancelled):
      return try await respond(
        to: request, revalidatingInBackground: revalidatingInBackground, asking: ask)
    case .waiter(.failed(let error)):
      if let stored, mayServeOnError(stored, requestControl: control) {
        return served(stored, to: request, at: clock.now())
      }
      throw error
    case .alone, .waiter(.uncacheable), .waiter(.notStored):
      let answer = try await answer(request, control: control, stored: stored, asking: ask)
      if case .stored = answer.outcome { flights.forgetPass(key) }
      return answer.response
    }
  }

  /// Whether the origin's answer to `request` may serve the other requests of
  /// its key: not when it asks for a byte range, forbids storing the answer,
  /// or, unless the cache revalidates with its own validators, carries the
  /// client's.
  private func mayLead(_ request: HTTPRequestKey, control: CacheControl, revalidating: Bool)
    -> Bool
  {
    if control.noStore || request.headers.contains(name: "Range") { return false }
    return revalidating
      || !HTTPConditionalRequest.validatorFields.contains { request.headers.contains(name: $0) }
  }

  /// Runs `ask` as the leader of `ticket`'s request, and hands its outcome (or
  /// error) to the requests waiting for it.
  private func lead(
    _ ticket: HTTPCacheFlights.Ticket, _ ask: () async throws -> OriginAnswer
  ) async throws -> HTTPResponse {
    let answer: OriginAnswer
    do {
      answer = try await ask()
    } catch {
      let cancelled = error is CancellationError || Task.isCancelled
      flights.land(ticket, with: cancelled ? .cancelled : .failed(error), at: clock.now())
      throw error
    }
    flights.land(ticket, with: answer.outcome, at: clock.now())
    return answer.response
  }

  /// Revalidates `stored` for `request` in the background, unless a request of
  /// its key is already in flight.
  private func revalidateInBackground(
    _ stored: HTTPCacheRecord, for request: HTTPRequestKey, control: CacheControl
  ) async {
    guard let ticket = flights.lead(request.cacheKey) else { return }
    _ = try? await lead(ticket) {
      try await revalidate(stored, for: request, control: control) {
        try await self.origin.get($0)
      }
    }
  }

  /// The origin's answer to `request`: a revalidation of `stored` when it has
  /// validators, or else a fetch that falls back on it under `stale-if-error`.
  private func answer(
    _ request: HTTPRequestKey, control: CacheControl, stored: HTTPCacheRecord?,
    asking ask: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> OriginAnswer {
    if let stored, stored.hasValidators {
      return try await revalidate(stored, for: request, control: control, asking: ask)
    }
    return try await fetch(request, control: control, stale: stored, asking: ask)
  }

  /// What the waiters of a request make of `response`, the origin's answer to
  /// `request`, stored as `record` (`nil`: not stored): a refusal of the policy
  /// marks the key as a pass, unless it may come from the request (a server
  /// error, a 304 or 206, `Authorization` in a shared cache).
  private func outcome(
    of response: HTTPResponse, to request: HTTPRequestKey, record: HTTPCacheRecord?
  ) -> HTTPCacheFlights.Outcome {
    if let record { return .stored(record) }
    let fromRequest =
      response.status >= 500 || response.status == 304 || response.status == 206
      || policy.isShared && request.headers.contains(name: "Authorization")
    return fromRequest ? .notStored : .uncacheable
  }

  /// Asks the origin with the request as it is, stores the answer when the
  /// policy allows, and falls back on `stale` under `stale-if-error`.
  private func fetch(
    _ request: HTTPRequestKey, control: CacheControl, stale: HTTPCacheRecord?,
    asking ask: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> OriginAnswer {
    let requestTime = clock.now()
    let response: HTTPResponse
    do {
      response = try await ask(request)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      if let stale, mayServeOnError(stale, requestControl: control) {
        return OriginAnswer(
          response: served(stale, to: request, at: clock.now()), outcome: .failed(error))
      }
      throw error
    }
    let responseTime = clock.now()
    if Self.isErrorForStaleIfError(response.status), let stale,
      mayServeOnError(stale, requestControl: control)
    {
      return OriginAnswer(
        response: served(stale, to: request, at: responseTime), outcome: .notStored)
    }
    var record: HTTPCacheRecord?
    if response.status != 304 {
      record = policy.record(
        for: response, to: request, requestTime: requestTime, responseTime: responseTime)
      try? await store(record, for: request)
    }
    let outcome = outcome(of: response, to: request, record: record)
    if request.method == "HEAD" && response.status == 200 {
      if let freshened = try? await freshenStoredGet(
        with: response, for: request, requestTime: requestTime, responseTime: responseTime)
      {
        return OriginAnswer(response: freshened, outcome: outcome)
      }
    }
    return OriginAnswer(response: response, outcome: outcome)
  }

  /// Updates the stored GET response that `request` (a HEAD) selects with the
  /// header fields of the 200 `head`, as a 304 would (RFC 9111, section 4.3.5),
  /// when their validators and length agree; returns the updated response
  /// without its body, or `nil` when nothing was updated.
  private func freshenStoredGet(
    with head: HTTPResponse, for request: HTTPRequestKey, requestTime: Date, responseTime: Date
  ) async throws -> HTTPResponse? {
    let get = HTTPRequestKey(request.url, headers: request.headers)
    guard let stored = try await storedEntry(get.cacheKey)?.variant(matching: get.headers),
      stored.response.status == 200
    else { return nil }
    for name in ["ETag", "Last-Modified", "Content-Length"] {
      if let old = stored.response.headers[name], let new = head.headers[name], old != new {
        return nil
      }
    }
    guard
      let record = policy.revalidated(
        stored, with: head, to: get, requestTime: requestTime, responseTime: responseTime)
    else { return nil }
    try await store(record, for: get)
    var served = record.response(at: responseTime)
    served.body = Data()
    return served
  }

  /// Asks the origin whether `stored` is still valid, with the cache's own
  /// validators in place of the client's.
  private func revalidate(
    _ stored: HTTPCacheRecord, for request: HTTPRequestKey, control: CacheControl,
    asking ask: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> OriginAnswer {
    var fields = request.headers
    for name in HTTPConditionalRequest.validatorFields { fields.remove(name: name) }
    if let tag = stored.entityTag { fields.add(name: "If-None-Match", value: tag.headerValue) }
    if let date = stored.lastModified { fields.add(name: "If-Modified-Since", value: date) }
    let conditional = request.with(headers: fields)
    let requestTime = clock.now()
    let response: HTTPResponse
    do {
      response = try await ask(conditional)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      if mayServeOnError(stored, requestControl: control) {
        return OriginAnswer(
          response: served(stored, to: request, at: clock.now()), outcome: .failed(error))
      }
      throw error
    }
    let responseTime = clock.now()
    if response.status == 304 {
      let record = policy.revalidated(
        stored, with: response, to: request, requestTime: requestTime, responseTime: responseTime)
      try? await store(record, for: request)
      if let record {
        return OriginAnswer(
          response: served(record, to: request, at: responseTime), outcome: .stored(record))
      }
      var merged = HTTPCachePolicy.merging(response, into: stored.response)
      if request.method == "HEAD" { merged.body = Data() }
      return OriginAnswer(response: merged, outcome: outcome(of: merged, to: request, record: nil))
    }
    if Self.isErrorForStaleIfError(response.status),
      mayServeOnError(stored, requestControl: control)
    {
      return OriginAnswer(
        response: served(stored, to: request, at: responseTime), outcome: .notStored)
    }
    // A server error is passed on; the stored response stays for later revalidation.
    if (500..<600).contains(response.status) {
      return OriginAnswer(response: response, outcome: .notStored)
    }
    let record = policy.record(
      for: response, to: request, requestTime: requestTime, responseTime: responseTime)
    try? await store(record, for: request)
    if let record {
      return OriginAnswer(
        response: served(record, to: request, at: responseTime), outcome: .stored(record))
    }
    return OriginAnswer(
      response: response, outcome: outcome(of: response, to: request, record: nil))
  }

  /// The answer to `only-if-cached` when no stored response may be used (RFC 9111, section 5.2.1.7).
  private static var gatewayTimeout: HTTPResponse {
    HTTPResponse(status: 504, headers: ["Content-Length": "0"])
  }

  /// Whether an origin's status lets `stale-if-error` serve a stored response
  /// (RFC 5861, section 4).
  private static func isErrorForStaleIfError(_ status: Int) -> Bool {
    [500, 502, 503, 504].contains(status)
  }

  /// Sends a request the cache does not answer, then invalidates what its answer
  /// makes stale (``invalidate(after:to:)``). A POST's answer that names the
  /// target URI in `Content-Location` and has explicit freshness is then stored
  /// as the URI's GET response (RFC 9110, section 9.3.3).
  private func passThrough(
    _ request: HTTPRequestKey, asking ask: (HTTPRequestKey) async throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    let requestTime = clock.now()
    let response = try await ask(request)
    guard await invalidate(after: response, to: request) else { return response }
    let responseTime = clock.now()
    if request.method == "POST", let value = response.headers["Content-Location"],
      let location = URL(string: value.trimmingWhitespace(), relativeTo: request.url),
      HTTPCacheKey(url: location) == HTTPCacheKey(url: request.url),
      HTTPFreshness.lifetime(
        of: response.headers, shared: policy.isShared, responseTime: responseTime) != nil
    {
      let get = HTTPRequestKey(request.url, headers: request.headers)
      if let record = policy.record(
        for: response, to: get, requestTime: requestTime, responseTime: responseTime)
      {
        try? await store(record, for: get)
      }
    }
    return response
  }

  /// Removes what `response` to `request` makes stale (RFC 9111, section 4.4):
  /// when the method is unsafe (anything but GET, HEAD, OPTIONS and TRACE) and
  /// the status is not an error (2xx, 3xx), every stored GET and HEAD variant of
  /// the target URI and of a same-origin `Location` or `Content-Location`. Only
  /// the status and header fields are read. Returns whether it invalidated.
  @discardableResult
  public func invalidate(after response: HTTPResponse, to request: HTTPRequestKey) async -> Bool {
    guard !HTTPCachePolicy.safeMethods.contains(request.method),
      (200..<400).contains(response.status)
    else { return false }
    var targets = [request.url]
    for name in ["Location", "Content-Location"] {
      guard let value = response.headers[name],
        let target = URL(string: value.trimmingWhitespace(), relativeTo: request.url)?.absoluteURL,
        Self.sameOrigin(target, request.url)
      else { continue }
      targets.append(target)
    }
    for target in targets { try? await invalidateAll(of: target) }
    return true
  }

  /// Whether two URLs have the same scheme, host and port.
  private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    func port(_ url: URL) -> Int? {
      url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme == nil ? nil : 80)
    }
    return a.scheme?.lowercased() == b.scheme?.lowercased()
      && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
  }

  // MARK: - Storage

  /// Removes the GET and HEAD entries of `url`.
  private func invalidateAll(of url: URL) async throws {
    for method in HTTPCachePolicy.cacheableMethods.sorted() {
      try await storage.remove(HTTPCacheKey(method: method, url: url))
    }
  }

  /// The stored entry for `key`, or `nil` when the storage has none or fails.
  private func storedEntry(_ key: HTTPCacheKey) async throws -> HTTPCacheEntry? {
    do {
      return try await readEntry(key)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      try Task.checkCancellation()
      return nil
    }
  }

  /// Stores `record` as the newest variant of `request`'s key (in place of the
  /// variant `request` selects), or removes that variant when `record` is `nil`;
  /// the entry is stored until its latest variant's ``HTTPCacheRecord/keepUntil``.
  private func store(_ record: HTTPCacheRecord?, for request: HTTPRequestKey) async throws {
    let key = request.cacheKey
    var entry = try await storedEntry(key) ?? HTTPCacheEntry()
    if let record {
      entry.store(record, requestFields: request.headers, limit: policy.maximumVariants)
    } else {
      entry.removeVariants(matching: request.headers)
    }
    entry.removeVariants(keptUntilBefore: clock.now())
    if let keepUntil = entry.keepUntil {
      try await storage.set(entry, forKey: key, expiry: .at(keepUntil))
    } else {
      try await storage.remove(key)
    }
  }
}

extension CacheLevel where KeyType == HTTPCacheKey, OutputType == HTTPCacheEntry {
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
#endif
