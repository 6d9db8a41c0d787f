/// A value in memory of its own, on cache lines no other value shares.
///
/// For a value some threads write often (a lock, a clock reading) next to values
/// every thread only reads: kept apart, the writes do not evict the readers' copies.
@usableFromInline
struct CacheLineBox<Value: ~Copyable>: ~Copyable {
  /// The bytes a line pair holds: prefetchers fetch lines in pairs.
  @usableFromInline static var lineBytes: Int { 128 }

  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  /// Boxes `value`.
  @inlinable
  init(_ value: consuming Value) {
    let size = MemoryLayout<Value>.size
    let bytes = Swift.max(1, (size + Self.lineBytes - 1) / Self.lineBytes) * Self.lineBytes
    pointer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.lineBytes)
      .bindMemory(to: Value.self, capacity: 1)
    pointer.initialize(to: value)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }
}

// @unchecked: no lock of its own; the box only gives out its value, which is Sendable
// (a lock or an atomic) and protects itself.
extension CacheLineBox: @unchecked Sendable where Value: Sendable & ~Copyable {}
