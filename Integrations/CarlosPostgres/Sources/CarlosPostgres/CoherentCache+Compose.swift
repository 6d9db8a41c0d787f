#if Postgres
import Carlos
import Foundation

extension CoherentCache {
  /// `self >>> source`: a get that misses both levels asks `source` through
  /// ``get(_:orLoad:)`` — once per key in this process at a time, stored into PostgreSQL
  /// only if no write stored the key meanwhile (a slow fetch never replaces a write
  /// acknowledged through another instance: the written value is answered instead).
  /// Sets, removes and clears reach both, as in any composition.
  ///
  /// ```swift
  /// let users = coherent >>> { id in try await api.user(id) }
  /// ```
  public func compose<Source: CacheLevel>(_ source: Source) -> BasicCache<KeyType, Data>
  where Source.KeyType == KeyType, Source.OutputType == Data {
    let load: @Sendable (KeyType) async throws -> Loaded<Data> = { key in
      Loaded(try await source.get(key).value)
    }
    return BasicCache(
      getClosure: { [self] key in
        if readStart() != nil {
          let first = upper.get(key)
          if case .success? = first.result { return first }
        }
        return Future { try await self.get(key, orLoad: load) }
      },
      setClosure: { [self] value, key in
        set(value, forKey: key).zip(source.set(value, forKey: key)).map { _ in () }
      },
      clearClosure: { [self] in
        clear()
        source.clear()
      },
      memoryClosure: { [self] in
        onMemoryWarning()
        source.onMemoryWarning()
      },
      removeClosure: { [self] key in
        remove(key).zip(source.remove(key)).map { _ in () }
      },
      expiringSetClosure: { [self] value, key, expiry in
        set(value, forKey: key, expiry: expiry)
          .zip(source.set(value, forKey: key, expiry: expiry)).map { _ in () }
      },
      removeExpiredClosure: { [self] in
        removeExpired().zip(source.removeExpired()).map { _ in () }
      },
      name: "\(levelName) >>> \(source.levelName)")
  }
}

/// `coherent >>> source`: see ``CoherentCache/compose(_:)``. Chosen over the general
/// `>>>`, whose write-back is a plain set that could replace a newer write.
public func >>> <Upper, Source: CacheLevel>(
  coherent: CoherentCache<Upper>, source: Source
) -> BasicCache<Upper.KeyType, Data>
where Source.KeyType == Upper.KeyType, Source.OutputType == Data {
  coherent.compose(source)
}

/// `coherent >>> { key in ... }`: the function answers the gets both levels miss
/// (see ``CoherentCache/compose(_:)``).
public func >>> <Upper>(
  coherent: CoherentCache<Upper>,
  fetch: @escaping @Sendable (Upper.KeyType) async throws -> Data
) -> BasicCache<Upper.KeyType, Data> {
  coherent.compose(BasicFetcher(fetch: fetch))
}

/// `coherent >>> { key in future }`: the closure answers the gets both levels miss
/// (see ``CoherentCache/compose(_:)``).
public func >>> <Upper>(
  coherent: CoherentCache<Upper>,
  fetch: @escaping @Sendable (Upper.KeyType) -> Future<Data>
) -> BasicCache<Upper.KeyType, Data> {
  coherent.compose(BasicFetcher(getClosure: fetch))
}
#endif
