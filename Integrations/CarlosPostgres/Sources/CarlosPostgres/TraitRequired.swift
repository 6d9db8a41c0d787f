#if !Postgres
// Without the package trait Postgres this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresCacheLevel<Key> {}

@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresCacheOptions {}

@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum CoherentCache<Upper> {}

@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresInvalidationListener {}

@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum PostgresSingleFlight<Key> {}

@available(
  *, unavailable,
  message:
    "CarlosPostgres is built only with the package trait \"Postgres\": add traits: [\"Postgres\"] to the Carlos package dependency"
)
public enum DatabaseURL {}
#endif
