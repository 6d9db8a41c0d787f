#if Hummingbird
import Carlos
import CarlosHTTPCaching
import Foundation
import HTTPTypes
import Hummingbird

/// A Hummingbird middleware that caches the responses of the routes after it as
/// an HTTP cache does (RFC 9111), in any Carlos storage of ``HTTPCacheKey`` to
/// ``HTTPCacheEntry``: `memory >>> postgres` shares them across instances.
///
/// A route says what may be stored with its own `Cache-Control` (or `Expires`,
/// validators, `Vary`), and the cache follows the same rules as
/// `CarlosHTTP`'s `HTTPCache`, as a shared cache by default: a fresh stored
/// response answers a GET or HEAD without calling the route (with an `Age`
/// field, as a 304 to a request whose `If-None-Match` or `If-Modified-Since` it
/// satisfies), a stale one is revalidated with the route, `Vary` selects among
/// variants, and a 2xx or 3xx answer to an unsafe method (POST, PUT, DELETE…)
/// removes the stored responses of its URI and of a same-origin `Location` or
/// `Content-Location`. A response that may not be stored is passed on as the
/// route streamed it; one that may is read whole first.
///
/// A route is only called while a request is handled, so a response within
/// `stale-while-revalidate` is revalidated before it is served rather than in
/// the background.
///
/// ```swift
/// let router = Router()
/// router.add(middleware: ResponseCacheMiddleware(storage: MemoryCacheLevel(capacity: 64 << 20)))
/// router.get("/report") { _, _ -> Response in
///   Response(status: .ok, headers: [.cacheControl: "max-age=60"], body: .init(byteBuffer: ByteBuffer(string: try await report())))
/// }
/// ```
public struct ResponseCacheMiddleware<
  Context: RequestContext, Storage: CacheLevel<HTTPCacheKey, HTTPCacheEntry>
>: RouterMiddleware {
  /// The cache the responses go through; each request asks the routes in place of its origin.
  @usableFromInline let cache:
    HTTPCache<Storage, BasicFetcher<HTTPRequestKey, CarlosHTTPCaching.HTTPResponse>>

  /// Caches responses in `storage` by `policy` (a shared cache by default:
  /// `private` responses and answers to requests with `Authorization` are not
  /// stored unless they say they may be), reading the time from `clock`.
  @inlinable
  public init(
    storage: Storage, policy: HTTPCachePolicy = .shared, clock: any CacheClock = SystemClock()
  ) {
    // Never asked: every origin call goes through `response(for:askingOrigin:)`.
    let unused = BasicFetcher<HTTPRequestKey, CarlosHTTPCaching.HTTPResponse>(name: "route") {
      _ in throw CancellationError()
    }
    cache = HTTPCache(storage: storage, origin: unused, policy: policy, clock: clock)
  }

  /// Answers `request` from storage, or from the routes after this middleware.
  public func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard let url = Self.url(of: request) else { return try await next(request, context) }
    let key = HTTPRequestKey(
      url, method: request.method.rawValue, headers: Self.fields(request.headers))
    guard request.method == .get || request.method == .head else {
      let response = try await next(request, context)
      await cache.invalidate(after: Self.head(of: response), to: key)
      return response
    }
    // The route's response when it may not be stored: passed on as it streams.
    var passedOn: (placeholder: CarlosHTTPCaching.HTTPResponse, response: Response)?
    let answer = try await cache.response(for: key) { asked in
      // The request as it came, or with the cache's own validators when it revalidates.
      var routed = request
      if asked != key {
        var head = request.head
        head.headerFields = Self.fields(asked.headers)
        routed = Request(head: head, body: request.body)
      }
      let response = try await next(routed, context)
      let placeholder = Self.head(of: response)
      let now = cache.clock.now()
      if response.status != .notModified,
        cache.policy.record(for: placeholder, to: asked, requestTime: now, responseTime: now)
          == nil
      {
        passedOn = (placeholder, response)
        return placeholder
      }
      var whole = placeholder
      whole.body = try await Self.collect(response.body)
      return whole
    }
    if let passedOn, passedOn.placeholder == answer { return passedOn.response }
    return Self.response(answer, for: request)
  }

  // MARK: - Between Hummingbird and Carlos

  /// The request's absolute URL: `http://`, its authority (`localhost` when it
  /// names none), and its path and query.
  static func url(of request: Request) -> URL? {
    let authority = request.head.authority ?? "localhost"
    return URL(string: "http://" + authority + (request.head.path ?? "/"))
  }

  /// Hummingbird's header fields as Carlos's.
  static func fields(_ fields: HTTPFields) -> HTTPHeaderFields {
    HTTPHeaderFields(fields.map { HTTPHeader(name: $0.name.canonicalName, value: $0.value) })
  }

  /// Carlos's header fields as Hummingbird's, but for the fields named `left`; a
  /// name HTTP does not allow is left out.
  static func fields(_ fields: HTTPHeaderFields, leavingOut left: HTTPField.Name? = nil)
    -> HTTPFields
  {
    var converted = HTTPFields()
    converted.reserveCapacity(fields.count)
    for field in fields {
      guard let name = Self.name(field.name), name != left else { continue }
      converted.append(HTTPField(name: name, value: field.value))
    }
    return converted
  }

  /// The field name `text`: the common ones without checking their characters again.
  static func name(_ text: String) -> HTTPField.Name? {
    switch text {
    case "content-type": .contentType
    case "content-length": .contentLength
    case "cache-control": .cacheControl
    case "age": .age
    case "date": .date
    case "etag": .eTag
    case "last-modified": .lastModified
    case "expires": .expires
    case "vary": .vary
    default: HTTPField.Name(text)
    }
  }

  /// The status and header fields of `response`, without its body.
  static func head(of response: Response) -> CarlosHTTPCaching.HTTPResponse {
    CarlosHTTPCaching.HTTPResponse(status: response.status.code, headers: fields(response.headers))
  }

  /// Every byte of `body`.
  static func collect(_ body: ResponseBody) async throws -> Data {
    let collector = BodyCollector()
    try await body.write(collector)
    return collector.bytes
  }

  /// `answer` as Hummingbird's response: its body framed by Hummingbird (a HEAD
  /// answer keeps the length of the GET response it stands for).
  static func response(_ answer: CarlosHTTPCaching.HTTPResponse, for request: Request) -> Response {
    let headers = fields(answer.headers, leavingOut: request.method != .head ? .contentLength : nil)
    return Response(
      status: .init(code: answer.status), headers: headers,
      body: answer.body.isEmpty ? .init() : .init(byteBuffer: ByteBuffer(bytes: answer.body)))
  }
}
#endif
