#if HTTPCaching
extension HTTPHeaderFields {
  /// The hop-by-hop fields every connection has on its own (RFC 9110,
  /// section 7.6.1), lowercased; fields whose names start with `proxy-` are
  /// hop-by-hop too.
  public static let hopByHopNames: Set<String> = [
    "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
  ]

  /// These fields without the hop-by-hop ones: those of ``hopByHopNames``,
  /// those whose names start with `proxy-`, and those named in `Connection`.
  /// A cache neither stores nor serves them, and a proxy does not forward them.
  public func removingHopByHop() -> HTTPHeaderFields {
    var named: [String] = []
    for field in fields where Self.same(field.name, "Connection") {
      for member in field.value.split(separator: ",") {
        let name = member.trimmingWhitespace()
        if !name.isEmpty { named.append(name) }
      }
    }
    let isHopByHop = { (name: String) -> Bool in
      Self.hopByHopNames.contains { Self.same(name, $0) }
        || Self.same(String(decoding: name.utf8.prefix(6), as: UTF8.self), "proxy-")
        || named.contains { Self.same(name, $0) }
    }
    guard fields.contains(where: { isHopByHop($0.name) }) else { return self }
    return HTTPHeaderFields(fields.filter { !isHopByHop($0.name) })
  }
}
#endif
