import Carlos
import Dispatch

extension Example {
  static let dispatching: Example = Example(
    name: "dispatching",
    summary: "dispatch(queue) runs every operation of a level on the queue you choose"
  ) {
    let marker = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "com.example.cache")
    queue.setSpecific(key: marker, value: "cache queue")

    let level = BasicCache<String, Int>(
      getClosure: { key in
        print("  get \(key) runs on: \(DispatchQueue.getSpecific(key: marker) ?? "another queue")")
        return Future(key.count)
      },
      setClosure: { _, key in
        print("  set \(key) runs on: \(DispatchQueue.getSpecific(key: marker) ?? "another queue")")
        return Future()
      },
      clearClosure: {},
      memoryClosure: {}
    )
    let cache = level.dispatch(queue)

    print("length of 'dispatch': \(try await cache.get("dispatch").value)")
    try await cache.set(1, forKey: "one").value
  }
}
