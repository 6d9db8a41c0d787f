#if !Hummingbird
// Without the package trait Hummingbird this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait Hummingbird.
@available(
  *, unavailable,
  message:
    "CarlosHummingbird is built only with the package trait \"Hummingbird\": add traits: [\"Hummingbird\"] to the Carlos package dependency"
)
public enum CarlosPersistDriver<Pipeline> {}

/// A stand-in that tells you to turn on the package trait Hummingbird.
@available(
  *, unavailable,
  message:
    "CarlosHummingbird is built only with the package trait \"Hummingbird\": add traits: [\"Hummingbird\"] to the Carlos package dependency"
)
public enum ResponseCacheMiddleware<Context, Storage> {}
#endif
