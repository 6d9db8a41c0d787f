import Foundation

typealias Fuzzed = HTTPHeaders

/// The HTTP level's header parsing, as the cache reads a server's answer:
/// `CacheControl(parsing:)`, `HTTPDate.parse(_:)`, `EntityTag(parsing:)`,
/// `TargetedCacheControl.parse(_:)` and `HTTPVary` on the input read as UTF-8 text, then the input's lines read as `name: value` header
/// fields of a response, through `HTTPFreshness` and `HTTPCachePolicy` (shared
/// and private).
///
/// `Integrations/CarlosHTTP/Sources/CarlosHTTPCaching` (Carlos and Foundation only)
/// is compiled into this target, so AsyncHTTPClient is never built.
/// Invariants: no crash; directives written with `headerValue` read back the
/// same; a parsed date formats to a 29-byte IMF-fixdate that reads back as the
/// same date; a parsed entity tag written back reads back the same; a lifetime and
/// an age are finite and not negative; a stored record is fresh no later than it
/// is kept, not before it arrived, and survives a JSON round trip.
enum HTTPHeaders: FuzzTarget {
  static func seeds() -> [[UInt8]] {
    let texts = [
      "max-age=60, s-maxage=120, public",
      "no-store",
      "private=\"set-cookie, x-a\", no-cache=\"x-b\", max-age=\"30\"",
      "max-age=99999999999999999999, must-revalidate, ,, =x, a=\"\\\"q\\\\\"",
      "Sun, 06 Nov 1994 08:49:37 GMT",
      "Sunday, 06-Nov-94 08:49:37 GMT",
      "Sun Nov  6 08:49:37 1994",
      "Fri, 31 Dec 9999 23:59:59 GMT",
      "W/\"v1\"",
      "\"abc\u{80}def\"",
      "Cache-Control: max-age=60\nDate: Sun, 06 Nov 1994 08:49:37 GMT\nETag: \"x\"\nAge: 10",
      "Expires: Sun, 06 Nov 1994 08:50:37 GMT\nDate: Sun, 06 Nov 1994 08:49:37 GMT\n"
        + "Last-Modified: Sat, 05 Nov 1994 08:49:37 GMT\nVary: accept",
      "Cache-Control: no-cache, private\nExpires: 0\nStatus: 404",
      HTTPDate.format(Date(timeIntervalSince1970: 1_700_000_000)),
    ]
    return texts.map { Array($0.utf8) }
  }

  static func fuzz(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    checkCacheControl(text)
    checkDate(text)
    checkEntityTag(text)
    checkTargeted(text)
    checkVary(text)
    checkResponse(text)
  }

  /// A targeted field (`CDN-Cache-Control`) read as a structured-field
  /// dictionary: only integer arguments, and no empty names.
  private static func checkTargeted(_ text: String) {
    guard let control = TargetedCacheControl.parse([text]) else { return }
    for directive in control.directives {
      require(!directive.name.isEmpty, "an empty targeted directive in \(control)")
      if let argument = directive.argument {
        require(
          !argument.isEmpty && argument.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 },
          "a targeted argument that is not an integer: \(argument.debugDescription)")
      }
    }
  }

  /// `Vary` and the normalised selecting fields: normalising a normalised
  /// value changes nothing.
  private static func checkVary(_ text: String) {
    let vary = HTTPVary(parsing: [text])
    let request = HTTPHeaderFields(vary.fieldNames.map { HTTPHeader(name: $0, value: text) })
    let once = vary.selectingFields(of: request)
    let twice = vary.selectingFields(of: once)
    require(once == twice, "normalising \(once) again gives \(twice)")
  }

  private static func checkCacheControl(_ text: String) {
    let control = CacheControl(parsing: text)
    let written = control.headerValue
    let reread = CacheControl(parsing: written)
    require(reread == control, "\(control) written as \(written.debugDescription) reads \(reread)")
    for directive in control.directives {
      require(!directive.name.isEmpty, "an empty directive name in \(control)")
      if let seconds = control.seconds(directive.name) {
        require(
          seconds >= 0 && seconds <= CacheControl.maximumDeltaSeconds,
          "\(directive.name) is \(seconds) s")
      }
    }
  }

  private static func checkDate(_ text: String) {
    guard let date = HTTPDate.parse(text) else { return }
    let written = HTTPDate.format(date)
    require(written.utf8.count == 29, "\(date) formats as \(written.debugDescription)")
    require(
      HTTPDate.parse(written) == date,
      "\(text.debugDescription) is \(date), written \(written), reads \(String(describing: HTTPDate.parse(written)))"
    )
  }

  private static func checkEntityTag(_ text: String) {
    guard let tag = EntityTag(parsing: text) else { return }
    require(EntityTag(parsing: tag.headerValue) == tag, "\(tag) does not read back")
  }

  private static func checkResponse(_ text: String) {
    var headers = HTTPHeaderFields()
    var status = 200
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = String(line[..<colon])
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if name == "Status", let code = Int(value) {
        status = code
      } else {
        headers.add(name: name, value: value)
      }
    }
    let requestTime = Date(timeIntervalSince1970: 784_111_777)
    let responseTime = requestTime.addingTimeInterval(1)
    let response = HTTPResponse(status: status, headers: headers, body: Data(text.utf8.prefix(16)))
    let request = HTTPRequestKey(URL(string: "http://example.com/")!, headers: headers)
    for shared in [true, false] {
      if let lifetime = HTTPFreshness.lifetime(
        of: headers, shared: shared, responseTime: responseTime)
      {
        require(lifetime.isFinite && lifetime >= 0, "lifetime \(lifetime)")
      }
      let age = HTTPFreshness.initialAge(
        of: headers, requestTime: requestTime, responseTime: responseTime)
      require(age.isFinite && age >= 0, "age \(age)")
      let policy = HTTPCachePolicy(isShared: shared)
      guard
        let record = policy.record(
          for: response, to: request, requestTime: requestTime, responseTime: responseTime)
      else { continue }
      require(
        record.freshUntil >= responseTime && record.keepUntil >= record.freshUntil,
        "record \(record)")
      require(record.age(at: responseTime) >= 0, "negative age in \(record)")
      let json = try! JSONEncoder().encode(record)
      let decoded = try! JSONDecoder().decode(HTTPCacheRecord.self, from: json)
      require(decoded == record, "\(record) does not survive JSON")
      _ = policy.revalidated(
        record, with: HTTPResponse(status: 304, headers: headers), to: request,
        requestTime: responseTime, responseTime: responseTime)
    }
  }
}
