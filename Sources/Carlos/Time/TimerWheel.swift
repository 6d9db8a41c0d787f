/// A hierarchical timer wheel over the slots of a table: it finds the entries
/// whose deadline has passed in amortised O(1) per entry, without scanning the
/// entries that are not due (the structure Caffeine uses for variable expiry).
///
/// Four wheels of 64 buckets each tick every 2^30, 2^36, 2^42 and 2^48 ns (about
/// 1 s, 69 s, 73 min and 78 h); an entry waits in the coarsest wheel whose range
/// its deadline needs, and moves down to finer wheels as time approaches it.
/// Deadlines beyond the last wheel's range (about 208 days) wait in an overflow
/// list. Every bucket is a doubly linked list threaded through per-slot arrays,
/// so scheduling, rescheduling and unscheduling are O(1) and allocate nothing
/// once the arrays have grown to the table's size.
///
/// Not thread-safe by itself: the owner keeps it behind its lock. Deadlines are
/// nanoseconds since 1970 (see ``CacheInstant``); `Int64.max` means "none".
@usableFromInline
struct TimerWheel: Sendable {
  @usableFromInline static var none: Int64 { .max }
  @usableFromInline static var bucketsPerWheel: Int { 64 }
  @usableFromInline static var wheelCount: Int { 4 }
  /// The bucket that holds deadlines beyond every wheel.
  @usableFromInline static var overflowBucket: Int { wheelCount * bucketsPerWheel }

  /// The tick length of wheel `level`, as a shift of nanoseconds.
  @inlinable
  static func shift(_ level: Int) -> Int64 { Int64(30 + 6 * level) }

  /// The tick of the finest wheel that `time` falls in.
  @inlinable
  static func tick(of time: Int64) -> Int64 { time >> shift(0) }

  /// The deadline of each slot, or ``none``.
  @usableFromInline var deadlines: ContiguousArray<Int64> = []
  @usableFromInline var next: ContiguousArray<Int> = []
  @usableFromInline var previous: ContiguousArray<Int> = []
  /// The bucket each slot is in, or -1.
  @usableFromInline var bucket: ContiguousArray<Int> = []
  /// The first slot of each bucket, or -1.
  @usableFromInline var heads = ContiguousArray(repeating: -1, count: overflowBucket + 1)
  /// The time the wheel was last advanced to.
  @usableFromInline var time: Int64
  /// The number of scheduled slots.
  @usableFromInline private(set) var count = 0
  /// Scratch space for the slots of the buckets being processed.
  @usableFromInline var processing: [Int] = []

  @inlinable
  init(time: Int64) {
    self.time = time
  }

  /// The deadline of `slot`, or ``none``.
  @inlinable
  func deadline(of slot: Int) -> Int64 {
    slot < deadlines.count ? deadlines[slot] : Self.none
  }

  /// Schedules `slot` for `deadline` (``none`` unschedules it), replacing any earlier
  /// deadline. A slot whose new deadline needs the bucket it is in stays there.
  @inlinable
  mutating func schedule(_ slot: Int, at deadline: Int64) {
    grow(toInclude: slot)
    if deadline != Self.none, bucket[slot] >= 0, bucket[slot] == bucketIndex(for: deadline) {
      deadlines[slot] = deadline
      return
    }
    unlink(slot)
    deadlines[slot] = deadline
    if deadline != Self.none { link(slot) }
  }

  /// Forgets the deadline of `slot`.
  @inlinable
  mutating func unschedule(_ slot: Int) {
    guard slot < deadlines.count, deadlines[slot] != Self.none else { return }
    unlink(slot)
    deadlines[slot] = Self.none
  }

  /// Moves the wheel to `now` and appends to `expired` the slots whose deadline is
  /// at or before `now`; those slots are unscheduled. Work is proportional to the
  /// buckets passed and the entries in them, not to every scheduled entry.
  ///
  /// Entries due within the current tick of the finest wheel (about a second)
  /// are found once that tick has passed, unless `exact` is true: then the
  /// current tick's bucket is searched too, and every due entry is found.
  @inlinable
  mutating func advance(to now: Int64, exact: Bool = false, expired: inout [Int]) {
    if now > time {
      let previousTime = time
      time = now
      if count > 0 { passTicks(from: previousTime, to: now, expired: &expired) }
    }
    if exact, count > 0 {
      let current = time >> Self.shift(0)
      process(bucket: Int(current & Int64(Self.bucketsPerWheel - 1)), now: now, expired: &expired)
    }
  }

  /// Processes, in every wheel, the buckets of the ticks between `start` and `end`.
  @inlinable
  mutating func passTicks(from start: Int64, to end: Int64, expired: inout [Int]) {
    for level in 0..<Self.wheelCount {
      let shift = Self.shift(level)
      let fromTick = start >> shift
      let toTick = end >> shift
      if toTick == fromTick { return }
      let ticks = Swift.min(toTick - fromTick, Int64(Self.bucketsPerWheel - 1))
      for tick in fromTick...(fromTick + ticks) {
        let index = level * Self.bucketsPerWheel + Int(tick & Int64(Self.bucketsPerWheel - 1))
        process(bucket: index, now: end, expired: &expired)
      }
      if level == Self.wheelCount - 1 {
        process(bucket: Self.overflowBucket, now: end, expired: &expired)
      }
    }
  }

  /// Empties the wheel, keeping its storage.
  @inlinable
  mutating func removeAll() {
    for index in deadlines.indices {
      deadlines[index] = Self.none
      bucket[index] = -1
    }
    for index in heads.indices { heads[index] = -1 }
    count = 0
  }

  /// Takes every slot out of `bucket`, expires the due ones and schedules the others again.
  @inlinable
  mutating func process(bucket index: Int, now: Int64, expired: inout [Int]) {
    var slot = heads[index]
    guard slot >= 0 else { return }
    while slot >= 0 {
      processing.append(slot)
      slot = next[slot]
    }
    for slot in processing {
      unlink(slot)
      if deadlines[slot] <= now {
        deadlines[slot] = Self.none
        expired.append(slot)
      } else {
        link(slot)
      }
    }
    processing.removeAll(keepingCapacity: true)
  }

  /// The bucket a deadline needs at the wheel's current time: in the finest wheel
  /// whose span reaches it, or the overflow bucket.
  @inlinable
  func bucketIndex(for deadline: Int64) -> Int {
    let deadline = Swift.max(deadline, time)
    let delta = deadline &- time
    for level in 0..<Self.wheelCount where delta < (Int64(1) << (Self.shift(level) + 6)) {
      let tick = deadline >> Self.shift(level)
      return level * Self.bucketsPerWheel + Int(tick & Int64(Self.bucketsPerWheel - 1))
    }
    return Self.overflowBucket
  }

  /// Puts `slot`, whose deadline is set, into the bucket its deadline needs.
  @inlinable
  mutating func link(_ slot: Int) {
    let index = bucketIndex(for: deadlines[slot])
    let head = heads[index]
    next[slot] = head
    previous[slot] = -1
    if head >= 0 { previous[head] = slot }
    heads[index] = slot
    bucket[slot] = index
    count += 1
  }

  /// Takes `slot` out of its bucket, if it is in one.
  @inlinable
  mutating func unlink(_ slot: Int) {
    let index = bucket[slot]
    guard index >= 0 else { return }
    let before = previous[slot]
    let after = next[slot]
    if before >= 0 { next[before] = after } else { heads[index] = after }
    if after >= 0 { previous[after] = before }
    bucket[slot] = -1
    count -= 1
  }

  @inlinable
  mutating func grow(toInclude slot: Int) {
    while deadlines.count <= slot {
      deadlines.append(Self.none)
      next.append(-1)
      previous.append(-1)
      bucket.append(-1)
    }
  }
}
