#if !Vapor
// Without the package trait Vapor this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait Vapor.
@available(
  *, unavailable,
  message:
    "CarlosVapor is built only with the package trait \"Vapor\": add traits: [\"Vapor\"] to the Carlos package dependency"
)
public enum CarlosCache {}
#endif
