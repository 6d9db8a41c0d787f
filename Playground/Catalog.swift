/// Every example, in the order `swift run Playground` runs them.
/// Add a new example as a static member of `Example` in `Examples/`, then list it here.
/// Spell out its type (`static let name: Example = Example(...)`): otherwise this list
/// type-checks every example's body and soon exceeds the 300 ms type-checking limit.
let catalog: [Example] = [
  .futures,
  .futureCombinators,
  .asyncAwait,
  .customLevel,
  .composition,
  .closures,
  .keyTransformation,
  .valueTransformation,
  .conditions,
  .transformers,
  .pooling,
  .cappingRequests,
  .dispatching,
  .batching,
  .lanes,
  .memoryWarnings,
  .memoryLevel,
  .diskLevel,
  .networkFetcher,
  .userDefaultsLevel,
  .remove,
  .expiry,
  .refresh,
  .statistics,
  .observations,
  .cacheProvider,
  .originalReadme,
  .migrating,
]
