/// Decides how the admission window of W-TinyLFU should change, one sample
/// period at a time.
///
/// The climber keeps the shape of Caffeine's hill climber: a step of 6.25 % of
/// the capacity that decays by 2 % per period so the window settles, and that
/// restarts at full size when the hit ratio moves by 5 points or more, so the
/// window follows a workload that changes. It differs in how it picks the
/// direction, because comparing the hit ratios of consecutive periods fails on
/// two kinds of workload: one that drifts (the hit ratio changes for reasons
/// that have nothing to do with the window), and one with a plateau (small moves
/// change nothing, so the climber wanders; for example when only a window as
/// large as the whole cache helps).
///
/// - **Direction from ghosts.** Within each period the policy counts *window
///   gains* (a key recently dropped from the window side — a candidate refused
///   admission — is asked for again) and *main gains* (a key recently evicted
///   from main is asked for again); see ``GhostKeys``. Both are measured at the
///   same time, under the same workload. The window grows when window gains lead
///   by more than two standard deviations (`2·√(w + m)`), shrinks in the opposite
///   case, and otherwise stays.
/// - **The hit ratio has the last word.** Ghosts can be wrong when a move changes
///   which keys flow through each region (a loop larger than the cache is the
///   classic case). So a move that is followed by a drop of the hit ratio that is
///   both large (5 points) and significant (three standard deviations) is undone,
///   and the same direction is banned for 4 periods, twice as long each time it
///   happens again (at most 64), until a move holds up — unless the ghosts of
///   that same period still call for the move: then the drop is the workload
///   changing phase (the ghosts measure both sides under the new workload), not
///   the move's fault.
/// - **Runs have a last word too.** Ghosts can insist on a harmful direction for
///   good (in a loop slightly larger than the cache, keys refused by the window
///   always come back, yet a larger window only loses hits). So when the hit
///   ratio has fallen in three periods in a row during a run of moves in one
///   direction, and lies a large and significant drop (as above) below where it
///   was when the run began, the whole run is undone and its direction banned.
///   A phase change lowers the hit ratio once, not period after period.
/// - **Short periods first.** Sampling starts when the cache is first full. The
///   first period lasts as many requests as the cache holds entries; each period
///   is 25 % longer than the previous one, up to ten times the entries
///   (Caffeine's period), so the window adapts quickly at first, then settles.
///
/// - **Miniatures have the first word.** When the policy's miniature of plain
///   LRU or of the smallest window did significantly better than the cache
///   (``MiniatureCache``), it sets `forcedMove`: the climber goes there in one
///   move and bans the way back for a while.
/// - **Miniatures have a veto.** The ghosts' direction is not followed when
///   the miniatures, compared with each other (a paired test on the same
///   sampled requests, which no changeover of the real cache disturbs), found
///   the opposite end of the range better, recently (`modelPreference`) or
///   over the long run (`longRunPreference`). On short traces
///   and in the first periods, the ghosts' few counts otherwise send the
///   window away from a fixed configuration that was better all along.
/// - **Momentum.** While the hit ratio does not fall, a move in the same
///   direction as the previous one is twice as large (up to four steps), as in
///   gradient descent with momentum, so a window that has far to go (e.g. all
///   the way to LRU) gets there in a few periods; a stay, a turn, an undo or a
///   lower hit ratio brings it back to one step.
///
/// The step never falls below one average entry, so the window can always move.
@usableFromInline
struct HillClimber: Sendable {
  /// The full step, as a fraction of the capacity.
  @usableFromInline static let stepFraction = 0.0625
  /// Each period the step is multiplied by this.
  @usableFromInline static let stepDecay = 0.98
  /// A change of the hit ratio at least this large restarts the step at full
  /// size; a drop at least this large (and significant) after a move undoes it.
  @usableFromInline static let restartThreshold = 0.05
  /// The first period, in requests per entry the cache holds.
  @usableFromInline static let firstPeriod = 1.0
  /// The longest period, in requests per entry the cache holds.
  @usableFromInline static let longestPeriod = 10.0
  /// Each period is this much longer than the previous one, up to the longest.
  @usableFromInline static let periodGrowth = 1.25
  /// How many standard deviations one kind of gain must lead by to move the window.
  @usableFromInline static let confidence = 2.0
  /// How many standard deviations a drop must reach to undo a move.
  @usableFromInline static let vetoConfidence = 3.0
  /// The first ban of a direction, in periods; each repeated ban doubles it.
  @usableFromInline static let firstBan = 4
  /// The longest ban of a direction, in periods.
  @usableFromInline static let longestBan = 64
  /// The most steps one move can make when moves keep the same direction.
  @usableFromInline static let maximumBoost = 4.0
  /// After this many periods in a row whose hit ratio fell, a run of moves
  /// that lost a significant share of hits since it began is undone.
  @usableFromInline static let runVetoDeclines = 3

  /// Hits in the current period.
  @usableFromInline var hits = 0
  /// Misses in the current period.
  @usableFromInline var misses = 0
  /// Window gains in the current period (dropped candidates asked for again).
  @usableFromInline var windowGains = 0
  /// Main gains in the current period (evicted victims asked for again).
  @usableFromInline var mainGains = 0
  /// Whether sampling has started (the cache has been full).
  @usableFromInline var started = false
  /// The hit ratio of the previous period, once there is one.
  @usableFromInline var previousHitRatio: Double?
  /// The current step, in cost units.
  @usableFromInline var step: Double
  /// The full step, in cost units.
  @usableFromInline let fullStep: Double
  /// The current period length, in requests per entry.
  @usableFromInline var period = HillClimber.firstPeriod
  /// The window change decided at the end of the previous period (0: none).
  @usableFromInline var lastMove = 0
  /// The banned direction (+1: growing, -1: shrinking, 0: none).
  @usableFromInline var banned = 0
  /// Periods left in the current ban.
  @usableFromInline var banRemaining = 0
  /// The length of the last ban (0 when the last move held up).
  @usableFromInline var banLength = 0
  /// Momentum: how many steps the next move makes (doubles while moves keep
  /// the same direction and the hit ratio does not fall, up to `maximumBoost`;
  /// back to 1 otherwise).
  @usableFromInline var boost = 1.0
  /// The hit ratio before the current run of moves in one direction began.
  @usableFromInline var runStartHitRatio: Double?
  /// The window change made by the current run of moves, in cost units.
  @usableFromInline var runDistance = 0
  /// Consecutive periods of the current run whose hit ratio fell.
  @usableFromInline var runDeclines = 0
  /// Set by the policy before the end of a period when a fixed configuration
  /// (plain LRU, or the smallest window) did significantly better than the
  /// cache (``MiniatureCache``): the change of the window that gets there. The
  /// climber then makes that move, whatever the ghosts say or a ban, and bans
  /// the way back for ``firstBan`` periods. 0: none.
  @usableFromInline var forcedMove = 0
  /// Set by the policy at the end of each period: +1 when its miniature of
  /// plain LRU did better than its miniature of the smallest window on the
  /// same sampled requests, -1 in the opposite case, 0 when neither leads
  /// clearly. The ghosts' direction is not followed against it: the window
  /// stays instead.
  @usableFromInline var modelPreference = 0
  /// The same comparison over the long run (counts fading by 1/16 per
  /// period), set with it; the ghosts are not followed against it either.
  @usableFromInline var longRunPreference = 0

  /// Creates a climber for a cache of `capacity` cost units.
  @inlinable
  init(capacity: Int) {
    fullStep = Self.stepFraction * Double(capacity)
    step = fullStep
  }

  /// Starts sampling (called when the cache first evicts).
  @inlinable
  mutating func start() {
    started = true
    hits = 0
    misses = 0
    windowGains = 0
    mainGains = 0
  }

  /// Counts a request that hit.
  @inlinable
  mutating func recordHit() {
    hits &+= 1
  }

  /// Counts a request that missed.
  @inlinable
  mutating func recordMiss() {
    misses &+= 1
  }

  /// Whether sampling has started and the current period has seen enough
  /// requests for a cache of `entries` entries.
  @inlinable
  func periodIsComplete(entries: Int) -> Bool {
    let requests = hits &+ misses
    return started && requests > 0 && Double(requests) >= period * Double(Swift.max(1, entries))
  }

  /// When the current period is complete, starts the next one and returns how
  /// much the window should change, in cost units (positive: grow; 0: stay).
  /// Returns `nil` while the period is still running.
  ///
  /// - Parameters:
  ///   - entries: the number of entries the cache holds when full.
  ///   - averageCost: the average cost of an entry (the smallest step).
  @inlinable
  mutating func adjustment(entries: Int, averageCost: Double) -> Int? {
    guard periodIsComplete(entries: entries) else { return nil }
    let requests = hits &+ misses
    let hitRatio = Double(hits) / Double(requests)
    let previous = previousHitRatio
    let size = Swift.max(step, averageCost)
    if let previous, abs(hitRatio - previous) >= Self.restartThreshold {
      step = fullStep
    } else {
      step = Self.stepDecay * size
    }
    previousHitRatio = hitRatio
    period = Swift.min(Self.longestPeriod, period * Self.periodGrowth)
    let forced = forcedMove
    forcedMove = 0
    let direction =
      forced != 0
      ? (forced > 0 ? 1 : -1) : Self.direction(windowGains: windowGains, mainGains: mainGains)
    hits = 0
    misses = 0
    windowGains = 0
    mainGains = 0

    let noise = (2 * hitRatio * (1 - hitRatio) / Double(requests)).squareRoot()
    let significantDrop = Swift.max(Self.restartThreshold, Self.vetoConfidence * noise)
    let moved = lastMove > 0 ? 1 : -1
    runDeclines = lastMove != 0 && hitRatio < (previous ?? hitRatio) ? runDeclines + 1 : 0
    if let runStart = runStartHitRatio, lastMove != 0, runDeclines >= Self.runVetoDeclines,
      runStart - hitRatio >= significantDrop
    {
      return undo(runDistance)
    }
    if let previous, lastMove != 0, direction != moved, previous - hitRatio >= significantDrop {
      return undo(lastMove)
    }
    if lastMove != 0 { banLength = 0 }
    if banRemaining > 0 {
      banRemaining -= 1
    } else {
      banned = 0
    }
    let previousMove = lastMove
    if forced != 0 {
      // A fixed configuration did better: go there in one move (still subject
      // to the veto if the hit ratio then drops while it no longer leads).
      boost = 1
      lastMove = forced
      runStartHitRatio = hitRatio
      runDistance = lastMove
      // The ghosts may not undo it at once: ban the way back for a while.
      banned = -direction
      banRemaining = Self.firstBan
      return lastMove
    }
    if direction == banned || direction == 0 || direction == -modelPreference
      || direction == -longRunPreference
    {
      lastMove = 0
      boost = 1
      runStartHitRatio = nil
      return 0
    }
    let sameWay = (previousMove > 0 && direction > 0) || (previousMove < 0 && direction < 0)
    let improving = hitRatio >= (previous ?? 0)
    boost = sameWay && improving ? Swift.min(Self.maximumBoost, 2 * boost) : 1
    lastMove = direction * Int((size * boost).rounded())
    if sameWay, runStartHitRatio != nil {
      runDistance += lastMove
    } else {
      runStartHitRatio = hitRatio
      runDistance = lastMove
    }
    return lastMove
  }

  /// Undoes `distance` (the last move, or the current run of moves), bans its
  /// direction for a while and returns the change that undoes it.
  @inlinable
  mutating func undo(_ distance: Int) -> Int {
    banned = distance > 0 ? 1 : -1
    banLength = banLength == 0 ? Self.firstBan : Swift.min(2 * banLength, Self.longestBan)
    banRemaining = banLength
    lastMove = 0
    boost = 1
    runStartHitRatio = nil
    runDistance = 0
    runDeclines = 0
    return -distance
  }

  /// +1 when window gains lead main gains by more than `confidence` standard
  /// deviations, -1 in the opposite case, otherwise 0.
  @inlinable
  static func direction(windowGains: Int, mainGains: Int) -> Int {
    let lead = Double(windowGains - mainGains)
    let margin = confidence * Double(windowGains + mainGains).squareRoot()
    if lead > margin { return 1 }
    if -lead > margin { return -1 }
    return 0
  }
}
