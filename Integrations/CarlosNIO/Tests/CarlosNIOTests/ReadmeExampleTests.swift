#if NIO
import Carlos
import CarlosNIO
import NIOCore
import NIOPosix
import Testing

// The README's snippet, verbatim, so that it keeps compiling.
private func page(_ cache: BasicCache<String, String>, on loop: any EventLoop)
  -> EventLoopFuture<String>
{
  cache.get("/index.html").eventLoopFuture(on: loop)
}

private func lookUp(_ load: EventLoopFuture<String>) -> Future<String> {
  load.carlosFuture()
}

@Suite("README example")
struct ReadmeExampleTests {
  @Test("the README's two functions answer a cached page both ways")
  func readmeFunctions() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 100)
    try await memory.set("<html/>", forKey: "/index.html")
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let viaNIO = page(memory.normalize(), on: loop)
    #expect(try await lookUp(viaNIO).value == "<html/>")
  }
}
#endif
