#if Observability
import Carlos
import Logging
import Testing

@Suite("A file that imports Carlos and swift-log")
struct LoggerNameTests {
  @Test("Logger is swift-log's, unqualified; Carlos's facade is CarlosLogger")
  func noClash() {
    let logger = Logger(label: "carlos.tests")
    #expect(logger.label == "carlos.tests")
    #expect(CarlosLogger.Level.error > .warning)
  }
}
#endif
