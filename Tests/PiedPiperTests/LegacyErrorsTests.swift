import PiedPiper
import Testing

@Suite("The original PiedPiper error names")
struct LegacyErrorsTests {
  @Test("FutureFilteringError.conditionUnsatisfied is what filter fails with")
  @available(*, deprecated)
  func filtering() {
    let rejected = Future(1).filter { $0 > 1 }
    #expect(rejected.result?.error as? FutureFilteringError == .conditionUnsatisfied)
    #expect(FutureFilteringError.conditionUnsatisfied == FutureError.filterNotSatisfied)
    #expect(
      FutureResult.success(1).filter { $0 > 1 }.error as? ResultFilteringError
        == .conditionUnsatisfied)
  }

  @Test("FutureMappingError.cantMapValue is what a mapping to nil fails with")
  @available(*, deprecated)
  func mapping() {
    let missing = Future(1).flatMap { (_: Int) -> Int? in nil }
    #expect(missing.result?.error as? FutureMappingError == .cantMapValue)
    #expect(
      FutureResult.success(1).flatMap { (_: Int) -> Int? in nil }.error
        as? ResultMappingError == .cantMapValue)
    #expect(
      Future<Int>(closure: { nil }).result?.error as? FutureInitializationError
        == .closureReturnedNil)
  }

  @Test("Old code can throw the old names and match them in a catch")
  @available(*, deprecated)
  func throwAndCatch() {
    let matched: String
    do {
      throw FutureMappingError.cantMapValue
    } catch FutureFilteringError.conditionUnsatisfied {
      matched = "filtering"
    } catch FutureMappingError.cantMapValue {
      matched = "mapping"
    } catch {
      matched = "other"
    }
    #expect(matched == "mapping")
  }

  @Test("A combinator failing with an old name behaves like the new one")
  @available(*, deprecated)
  func thrownFromCombinator() {
    let future = Future(1).map { (_: Int) -> Int in throw FutureFilteringError.conditionUnsatisfied
    }
    #expect(future.result?.futureError == .filterNotSatisfied)
  }
}
