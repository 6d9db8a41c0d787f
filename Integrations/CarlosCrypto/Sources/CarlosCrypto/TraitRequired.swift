#if !Crypto
// Without the package trait Crypto this module is empty; these stand-ins make a use of
// its main types fail with an error that names the trait to turn on.

/// A stand-in that tells you to turn on the package trait Crypto.
@available(
  *, unavailable,
  message:
    "CarlosCrypto is built only with the package trait \"Crypto\": add traits: [\"Crypto\"] to the Carlos package dependency"
)
public enum CacheEncryption {}

/// A stand-in that tells you to turn on the package trait Crypto.
@available(
  *, unavailable,
  message:
    "CarlosCrypto is built only with the package trait \"Crypto\": add traits: [\"Crypto\"] to the Carlos package dependency"
)
public enum CacheKeyRing {}

/// A stand-in that tells you to turn on the package trait Crypto.
@available(
  *, unavailable,
  message:
    "CarlosCrypto is built only with the package trait \"Crypto\": add traits: [\"Crypto\"] to the Carlos package dependency"
)
public enum EncryptedCacheLevel<Inner> {}
#endif
