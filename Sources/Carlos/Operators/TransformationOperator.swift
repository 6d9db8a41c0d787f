/// Transforms the keys of a level: `transformer =>> cache`.
@inlinable
public func =>> <Transformer: OneWayTransformer, Level: CacheLevel>(
  transformer: Transformer,
  cache: Level
) -> BasicCache<Transformer.TypeIn, Level.OutputType> where Transformer.TypeOut == Level.KeyType {
  cache.transformKeys(transformer)
}

/// Transforms the keys of a level with a closure: `{ key in ... } =>> cache`.
@inlinable
public func =>> <NewKey: Sendable, Level: CacheLevel>(
  transform: @escaping @Sendable (NewKey) -> Future<Level.KeyType>,
  cache: Level
) -> BasicCache<NewKey, Level.OutputType> {
  cache.transformKeys(transform)
}

/// Transforms the keys of a level with an async function: `{ id in try await lookUp(id) } =>> cache`.
@inlinable
public func =>> <NewKey: Sendable, Level: CacheLevel>(
  transform: @escaping @Sendable (NewKey) async throws -> Level.KeyType,
  cache: Level
) -> BasicCache<NewKey, Level.OutputType> {
  cache.transformKeys(transform)
}

/// Transforms the values of a level both ways: `cache =>> transformer`.
@inlinable
public func =>> <Level: CacheLevel, Transformer: TwoWayTransformer>(
  cache: Level,
  transformer: Transformer
) -> BasicCache<Level.KeyType, Transformer.TypeOut> where Transformer.TypeIn == Level.OutputType {
  cache.transformValues(transformer)
}

/// Transforms the values of a fetcher: `fetcher =>> transformer`.
@inlinable
public func =>> <Source: Fetcher, Transformer: OneWayTransformer>(
  fetcher: Source,
  transformer: Transformer
) -> BasicFetcher<Source.KeyType, Transformer.TypeOut>
where Transformer.TypeIn == Source.OutputType {
  fetcher.transformValues(transformer)
}

/// Transforms the values of a fetcher with a two-way transformer's forward direction.
@inlinable
public func =>> <Source: Fetcher, Transformer: TwoWayTransformer>(
  fetcher: Source,
  transformer: Transformer
) -> BasicFetcher<Source.KeyType, Transformer.TypeOut>
where Transformer.TypeIn == Source.OutputType {
  fetcher.transformValues(transformer)
}

/// Transforms the values of a fetcher with a closure: `fetcher =>> { value in ... }`.
@inlinable
public func =>> <Source: Fetcher, NewValue: Sendable>(
  fetcher: Source,
  transform: @escaping @Sendable (Source.OutputType) -> Future<NewValue>
) -> BasicFetcher<Source.KeyType, NewValue> {
  fetcher.transformValues(transform)
}

/// Transforms the values of a fetcher with an async function: `fetcher =>> { data in try await decode(data) }`.
@inlinable
public func =>> <Source: Fetcher, NewValue: Sendable>(
  fetcher: Source,
  transform: @escaping @Sendable (Source.OutputType) async throws -> NewValue
) -> BasicFetcher<Source.KeyType, NewValue> {
  fetcher.transformValues(transform)
}
