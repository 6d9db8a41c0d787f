#if HTTP
extension HTTPFetcher {
  /// What an ``HTTPFetcher`` does with a redirect (301, 302, 303, 307, 308).
  public enum Redirects: Hashable, Sendable {
    /// Follows it, as a client does: the answer is the final response.
    case follow
    /// Answers with the redirect itself, as a proxy does: a cache in front
    /// stores it by its own freshness, and the client decides whether to follow.
    /// (AsyncHTTPClient follows redirects itself unless the client was created
    /// with `redirectConfiguration: .disallow`.)
    case passOn
  }
}
#endif
