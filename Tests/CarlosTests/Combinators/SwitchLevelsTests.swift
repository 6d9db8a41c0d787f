import Carlos
import Testing

@Suite("Switching levels (lanes)")
struct SwitchLevelsTests {
  let laneA = SpyLevel<String, Int>(["a1": 1, "b1": 100])
  let laneB = SpyLevel<String, Int>(["a1": 100, "b1": 2])

  var switched: BasicCache<String, Int> {
    switchLevels(cacheA: laneA, cacheB: laneB) { key in
      key.hasPrefix("a") ? .cacheA : .cacheB
    }
  }

  @Test("get goes to the chosen lane only")
  func getGoesToChosenLane() {
    #expect(Outcome(switched.get("a1")) == .success(1))
    #expect(Outcome(switched.get("b1")) == .success(2))
    #expect(laneA.gets == ["a1"])
    #expect(laneB.gets == ["b1"])
  }

  @Test("set goes to the chosen lane only")
  func setGoesToChosenLane() {
    switched.set(5, forKey: "a2")
    switched.set(6, forKey: "b2")
    #expect(laneA.setKeys == ["a2"])
    #expect(laneB.setKeys == ["b2"])
  }

  @Test("a lane's miss is not answered by the other lane")
  func missStaysInLane() {
    #expect(switched.get("b-missing").result?.error as? FetchError == .valueNotInCache)
    #expect(laneA.gets.isEmpty)
  }

  @Test("clear and memory warnings go to both lanes")
  func clearAndMemoryToBoth() {
    switched.clear()
    switched.onMemoryWarning()
    #expect(laneA.clears == 1)
    #expect(laneB.clears == 1)
    #expect(laneA.memoryWarnings == 1)
    #expect(laneB.memoryWarnings == 1)
  }
}
