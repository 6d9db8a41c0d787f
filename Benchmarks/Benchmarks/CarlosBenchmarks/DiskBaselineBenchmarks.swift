import Benchmark
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole small file with open/fstat/read/close.
func posixRead(_ path: String) -> Data? {
  let fd = open(path, O_RDONLY)
  if fd < 0 { return nil }
  defer { close(fd) }
  var info = stat()
  if fstat(fd, &info) != 0 { return nil }
  let size = Int(info.st_size)
  var data = Data(count: size)
  let bytesRead = data.withUnsafeMutableBytes { buffer in
    read(fd, buffer.baseAddress, size)
  }
  return bytesRead == size ? data : nil
}

/// Writes `data` to a temporary file next to `path`, then renames it over `path`.
func posixWriteAndRename(_ data: Data, to path: String) -> Bool {
  let temporary = path + ".tmp"
  let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  if fd < 0 { return false }
  let written = data.withUnsafeBytes { buffer in
    write(fd, buffer.baseAddress, buffer.count)
  }
  close(fd)
  if written != data.count { return false }
  return rename(temporary, path) == 0
}

/// Disk operations take microseconds to milliseconds: one per sample is precise enough.
var diskConfiguration: Benchmark.Configuration {
  var configuration = Benchmark.defaultConfiguration
  configuration.scalingFactor = .one
  configuration.maxIterations = 1_000
  configuration.maxDuration = .seconds(2)
  return configuration
}

/// The paths of one file per fixture key in a fresh folder, made ahead of the measurement.
func fixturePaths(_ name: String, written: Bool) -> [String] {
  let folder = Fixtures.makeTemporaryFolder(name)
  let paths = (0..<Fixtures.keyCount).map { folder + "/\($0)" }
  if written {
    for i in 0..<Fixtures.keyCount { _ = posixWriteAndRename(Fixtures.value(i), to: paths[i]) }
  }
  return paths
}

/// Baselines for the disk level: the same 4 KiB files read and written with plain calls.
func diskBaselineBenchmarks() {
  let configuration = diskConfiguration

  Benchmark("disk.get · baseline POSIX open+read+close", configuration: configuration) {
    benchmark, paths in
    for i in benchmark.scaledIterations {
      blackHole(posixRead(paths[i & (Fixtures.keyCount - 1)]))
    }
  } setup: {
    fixturePaths("posix-read", written: true)
  }

  Benchmark("disk.get · baseline FileManager.contents(atPath:)", configuration: configuration) {
    benchmark, paths in
    for i in benchmark.scaledIterations {
      blackHole(FileManager.default.contents(atPath: paths[i & (Fixtures.keyCount - 1)]))
    }
  } setup: {
    fixturePaths("filemanager-read", written: true)
  }

  // The same read behind the hop the disk level makes: onto a concurrent queue and
  // back to the awaiting task. Shows how much of the level's time the hop takes.
  let queue = DispatchQueue(label: "disk-baseline", attributes: .concurrent)
  Benchmark(
    "disk.get · baseline POSIX read on a DispatchQueue, awaited", configuration: configuration
  ) {
    benchmark, paths in
    for i in benchmark.scaledIterations {
      let path = paths[i & (Fixtures.keyCount - 1)]
      let data = await withCheckedContinuation {
        (continuation: CheckedContinuation<Data?, Never>) in
        queue.async { continuation.resume(returning: posixRead(path)) }
      }
      blackHole(data)
    }
  } setup: {
    fixturePaths("posix-read-queue", written: true)
  }

  Benchmark("disk.set · baseline POSIX temp write+rename", configuration: configuration) {
    benchmark, paths in
    for i in benchmark.scaledIterations {
      blackHole(posixWriteAndRename(Fixtures.value(i), to: paths[i & (Fixtures.keyCount - 1)]))
    }
  } setup: {
    fixturePaths("posix-write", written: false)
  }

  Benchmark("disk.set · baseline Data.write(options: .atomic)", configuration: configuration) {
    benchmark, urls in
    for i in benchmark.scaledIterations {
      do {
        try Fixtures.value(i).write(to: urls[i & (Fixtures.keyCount - 1)], options: .atomic)
      } catch {
        fatalError("write failed: \(error)")
      }
    }
  } setup: {
    fixturePaths("data-write", written: false).map { URL(fileURLWithPath: $0) }
  }
}
