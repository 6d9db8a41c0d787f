/// Carlos 0.x's name for ``CarlosLogger``.
///
/// It would clash with swift-log's `Logger` in a file that imports both, so it lives
/// in this opt-in module; new code names ``CarlosLogger``.
public typealias Logger = CarlosLogger
