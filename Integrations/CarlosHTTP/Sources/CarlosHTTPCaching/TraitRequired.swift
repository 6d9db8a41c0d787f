#if !HTTPCaching
// Without the package trait HTTPCaching this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait HTTPCaching.
@available(
  *, unavailable,
  message:
    "CarlosHTTPCaching is built only with the package trait \"HTTPCaching\": add traits: [\"HTTPCaching\"] to the Carlos package dependency"
)
public enum HTTPCache<Storage, Origin> {}

/// A stand-in that tells you to turn on the package trait HTTPCaching.
@available(
  *, unavailable,
  message:
    "CarlosHTTPCaching is built only with the package trait \"HTTPCaching\": add traits: [\"HTTPCaching\"] to the Carlos package dependency"
)
public enum HTTPCachePolicy {}

/// A stand-in that tells you to turn on the package trait HTTPCaching.
@available(
  *, unavailable,
  message:
    "CarlosHTTPCaching is built only with the package trait \"HTTPCaching\": add traits: [\"HTTPCaching\"] to the Carlos package dependency"
)
public enum HTTPResponse {}

/// A stand-in that tells you to turn on the package trait HTTPCaching.
@available(
  *, unavailable,
  message:
    "CarlosHTTPCaching is built only with the package trait \"HTTPCaching\": add traits: [\"HTTPCaching\"] to the Carlos package dependency"
)
public enum HTTPRequestKey {}
#endif
