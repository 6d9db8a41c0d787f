import Carlos
import Testing

@Suite("CacheStatistics")
struct CacheStatisticsTests {
  @Test("rates and the average load penalty are derived from the counts")
  func derived() {
    let stats = CacheStatistics(
      hitCount: 3, missCount: 1, loadSuccessCount: 1, loadFailureCount: 1,
      totalLoadTime: .milliseconds(10), evictionCount: 2, evictedCost: 50)
    #expect(stats.requestCount == 4)
    #expect(stats.hitRate == 0.75)
    #expect(stats.missRate == 0.25)
    #expect(stats.loadCount == 2)
    #expect(stats.averageLoadPenalty == .milliseconds(5))
  }

  @Test("with nothing recorded the rates are 1 and 0 and the penalty is zero")
  func empty() {
    let stats = CacheStatistics()
    #expect(stats.hitRate == 1 && stats.missRate == 0 && stats.averageLoadPenalty == .zero)
  }

  @Test("subtracting two snapshots gives what happened in between; adding sums two levels")
  func arithmetic() {
    let earlier = CacheStatistics(
      hitCount: 1, missCount: 2, totalLoadTime: .seconds(1), evictionCount: 1)
    let later = CacheStatistics(
      hitCount: 5, missCount: 2, totalLoadTime: .seconds(3), evictionCount: 4)
    let delta = later - earlier
    #expect(delta == CacheStatistics(hitCount: 4, totalLoadTime: .seconds(2), evictionCount: 3))
    #expect(earlier + delta == later)
    #expect((earlier - later).hitCount == 0)
  }
}
