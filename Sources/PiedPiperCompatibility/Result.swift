/// PiedPiper's name for a future's outcome: `.success(value)`, `.error(error)` or
/// `.cancelled`.
///
/// In a file that imports this module, `Result<T>` means ``FutureResult`` and
/// shadows Swift's own `Result` (name `Swift.Result` to reach that one). That is
/// why it lives in an opt-in module, for code written against PiedPiper.
public typealias Result<T: Sendable> = FutureResult<T>
