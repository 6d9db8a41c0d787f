#if !HTTP
// Without the package trait HTTP this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait HTTP.
@available(
  *, unavailable,
  message:
    "CarlosHTTP is built only with the package trait \"HTTP\": add traits: [\"HTTP\"] to the Carlos package dependency"
)
public enum HTTPFetcher {}
#endif
