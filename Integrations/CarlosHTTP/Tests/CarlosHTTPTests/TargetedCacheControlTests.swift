#if HTTP
import CarlosHTTP
import Testing

@Suite("TargetedCacheControl")
struct TargetedCacheControlTests {
  @Test(
    "A structured-field dictionary: integers are arguments, bare keys are directives, other types are left out"
  )
  func members() throws {
    let control = try #require(
      TargetedCacheControl.parse(["max-age=60, private;x=1", "s-maxage=\"5\", no-store=?0"]))
    #expect(control.maxAge == 60)
    #expect(control.isPrivate)
    #expect(control.sharedMaxAge == nil)
    #expect(!control.noStore)
  }

  @Test("A field that is not a valid dictionary is ignored as a whole")
  func invalid() {
    for value in ["max-age=60, &&&&&", "Max-Age=60", "max-age=60,", "max-age=1.2345", ""] {
      #expect(TargetedCacheControl.parse([value]) == nil, "\(value)")
    }
  }
}
#endif
