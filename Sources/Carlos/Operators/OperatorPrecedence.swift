/// The precedence of `<?>`: right-associative, binding tighter than `>>>`.
precedencegroup ConditionPrecedence {
  associativity: right
  higherThan: CompositionPrecedence
}

/// The precedence of `=>>`: left-associative, binding tighter than `<?>`.
precedencegroup TransformationPrecedence {
  associativity: left
  higherThan: ConditionPrecedence
}

/// Conditions a cache level: `condition <?> cache`.
infix operator <?> : ConditionPrecedence

/// Transforms the keys (`transformer =>> cache`) or the values (`cache =>> transformer`) of a level.
infix operator =>> : TransformationPrecedence
