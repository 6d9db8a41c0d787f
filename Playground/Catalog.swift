/// Every example, in the order `swift run Playground` runs them.
/// Add a new example as a static member of `Example` in `Examples/`, then list it here.
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
]
