#if !Postgres
// Without the package trait Postgres this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait Postgres.
@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresCacheLevel<Key> {}

/// A stand-in that tells you to turn on the package trait Postgres.
@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresCacheOptions {}

/// A stand-in that tells you to turn on the package trait Postgres.
@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum CoherentCache<Upper> {}

/// A stand-in that tells you to turn on the package trait Postgres.
@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresInvalidationListener {}

/// A stand-in that tells you to turn on the package trait Postgres.
@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresSingleFlight<Key> {}

/// A stand-in that tells you to turn on the package trait Postgres.
@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum DatabaseURL {}
#endif
