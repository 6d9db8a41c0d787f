// Measures the processor time a process spends while URLSession requests wait for a
// server that never answers: the figure `NetworkFetcher`'s documentation quotes.
//
//   swiftc -O -swift-version 6 Benchmarks/Scripts/urlsession-idle-cpu.swift -o /tmp/idle-cpu
//   /tmp/idle-cpu [seconds per measurement, default 10]
//
// For 0, 1 and 10 waiting requests it prints the processor seconds used per wall-clock
// second (1.0 is one core kept busy).
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A listening socket on 127.0.0.1 that never accepts: the kernel completes each
/// connection and keeps the request, and no response ever comes.
func silentListener() -> (socket: Int32, port: UInt16) {
  #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, length) == 0 && listen(descriptor, 64) == 0
        && getsockname(descriptor, $0, &length) == 0
    }
  }
  guard bound else { fatalError("cannot listen on 127.0.0.1: errno \(errno)") }
  return (descriptor, UInt16(bigEndian: address.sin_port))
}

/// User plus system processor seconds this process has used.
func processorSeconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 10
let listener = silentListener()
let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = 3_600
let session = URLSession(configuration: configuration)
let url = URL(string: "http://127.0.0.1:\(listener.port)/")!

print("URLSession on \(ProcessInfo.processInfo.operatingSystemVersionString)")
for waiting in [0, 1, 10] {
  let tasks = (0..<waiting).map { _ in session.dataTask(with: url) { _, _, _ in } }
  tasks.forEach { $0.resume() }
  Thread.sleep(forTimeInterval: 1)  // connected, requests sent
  let before = processorSeconds()
  Thread.sleep(forTimeInterval: seconds)
  let perSecond = (processorSeconds() - before) / seconds
  print("\(waiting) waiting requests: \(String(format: "%.2f", perSecond)) processor s per s")
  tasks.forEach { $0.cancel() }
  Thread.sleep(forTimeInterval: 1)
}
