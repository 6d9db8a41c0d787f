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
    var named = Self.hopByHopNames
    for value in values(for: "Connection") {
      for member in value.split(separator: ",") {
        let name = member.trimmingWhitespace().lowercased()
        if !name.isEmpty { named.insert(name) }
      }
    }
    return HTTPHeaderFields(
      filter { field in
        let name = field.name.lowercased()
        return !named.contains(name) && !name.hasPrefix("proxy-")
      })
  }
}
