#if !HTTP
// Without the package trait HTTP this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

@available(
  *, unavailable,
  message:
    "CarlosCachingProxy is built only with the package trait \"HTTP\": add traits: [\"HTTP\"] to the Carlos package dependency"
)
public enum CachingProxy {}

@available(
  *, unavailable,
  message:
    "CarlosCachingProxy is built only with the package trait \"HTTP\": add traits: [\"HTTP\"] to the Carlos package dependency"
)
public enum CachingProxyServer {}

@available(
  *, unavailable,
  message:
    "CarlosCachingProxy is built only with the package trait \"HTTP\": add traits: [\"HTTP\"] to the Carlos package dependency"
)
public enum CachingProxyOptions {}

@available(
  *, unavailable,
  message:
    "CarlosCachingProxy is built only with the package trait \"HTTP\": add traits: [\"HTTP\"] to the Carlos package dependency"
)
public enum CachingProxyLimits {}
#endif
