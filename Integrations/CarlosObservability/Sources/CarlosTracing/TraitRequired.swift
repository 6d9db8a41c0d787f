#if !Observability
// Without the package trait Observability this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait Observability.
@available(
  *, unavailable,
  message:
    "CarlosTracing is built only with the package trait \"Observability\": add traits: [\"Observability\"] to the Carlos package dependency"
)
public enum TracedCache<Inner> {}
#endif
