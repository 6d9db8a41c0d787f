import Carlos
import Foundation
import Testing

@Suite("Memory warnings")
struct MemoryWarningTests {
  /// A center of the test's own, so warnings posted by other tests never arrive here.
  let center = NotificationCenter()

  @Test("one posted warning reaches every level inside a composition, once")
  func reachesEveryComposedLevel() {
    let memory = SpyLevel<String, Int>()
    let disk = SpyLevel<String, Int>()
    let network = SpyLevel<String, Int>()
    let cache = (memory >>> disk >>> network).pooled().capRequests(2)
    let token = cache.listenToMemoryWarnings(notificationCenter: center)
    MemoryWarning.post(to: center)
    #expect(memory.memoryWarnings == 1)
    #expect(disk.memoryWarnings == 1)
    #expect(network.memoryWarnings == 1)
    MemoryWarning.post(to: center)
    #expect(memory.memoryWarnings == 2)
    #expect(network.memoryWarnings == 2)
    unsubscribeToMemoryWarnings(token)
  }

  @Test("after unsubscribing, a warning reaches no level")
  func unsubscribeStopsWarnings() {
    let upper = SpyLevel<String, Int>()
    let lower = SpyLevel<String, Int>()
    let token = (upper >>> lower).listenToMemoryWarnings(notificationCenter: center)
    #expect(token.isSubscribed)
    unsubscribeToMemoryWarnings(token)
    #expect(!token.isSubscribed)
    MemoryWarning.post(to: center)
    #expect(upper.memoryWarnings == 0)
    #expect(lower.memoryWarnings == 0)
    unsubscribeToMemoryWarnings(token)
    #expect(!token.isSubscribed)
  }

  @Test("each subscription is independent")
  func independentSubscriptions() {
    let first = SpyLevel<String, Int>()
    let second = SpyLevel<String, Int>()
    let firstToken = first.listenToMemoryWarnings(notificationCenter: center)
    let secondToken = second.listenToMemoryWarnings(notificationCenter: center)
    unsubscribeToMemoryWarnings(firstToken)
    MemoryWarning.post(to: center)
    #expect(first.memoryWarnings == 0)
    #expect(second.memoryWarnings == 1)
    unsubscribeToMemoryWarnings(secondToken)
  }

  @Test("the default center carries the notification the application posts")
  func defaultCenter() {
    let level = SpyLevel<String, Int>()
    let token = level.listenToMemoryWarnings()
    NotificationCenter.default.post(name: .carlosMemoryWarning, object: nil)
    #expect(level.memoryWarnings >= 1)
    unsubscribeToMemoryWarnings(token)
    let afterUnsubscribing = level.memoryWarnings
    MemoryWarning.post()
    #expect(level.memoryWarnings == afterUnsubscribing)
  }
}
