import Foundation

/// Serving one connection: read the request head, ask the handler, send the response.
extension TestServerCore {
  /// The longest request head the server accepts.
  static let maximumHeadSize = 64 * 1024

  /// Serves one request on `connection`; the caller closes it afterwards.
  func serve(_ connection: Int32) {
    guard let head = readHead(connection) else { return }
    guard let path = Self.requestPath(fromHead: head) else {
      let response = TestServerResponse.status(400)
      _ = Socket.sendAll(
        connection, Self.headBytes(for: response, bodyLength: response.body.count) + response.body)
      return
    }
    recordRequest(path)
    let response = handler(path)
    let outcome =
      response.generatedBodyLength == nil
      ? send(response, on: connection) : sendGenerated(response, path: path, on: connection)
    switch outcome {
    case .completed:
      finish(connection)
    case .clientClosed:
      recordDisconnect(path)
    case .serverStopped:
      break
    }
  }

  /// The outcome of sending a response.
  enum SendOutcome {
    case completed
    case clientClosed
    case serverStopped
  }

  private func send(_ response: TestServerResponse, on connection: Int32) -> SendOutcome {
    let waited = pause(response.delay, watching: connection)
    if waited != .completed { return waited }
    let body = [UInt8](response.body)
    guard let chunkSize = response.chunkSize, chunkSize > 0 else {
      let bytes = Self.headBytes(for: response, bodyLength: body.count) + body
      return Socket.sendAll(connection, bytes) ? .completed : closedOrStopped()
    }
    guard Socket.sendAll(connection, Self.headBytes(for: response, bodyLength: nil)) else {
      return closedOrStopped()
    }
    var offset = 0
    while offset < body.count {
      let end = min(offset + chunkSize, body.count)
      var chunk: [UInt8] = Array(String(end - offset, radix: 16).utf8)
      chunk += [13, 10]
      chunk += body[offset..<end]
      chunk += [13, 10]
      guard Socket.sendAll(connection, chunk) else { return closedOrStopped() }
      offset = end
      let paused = pause(response.chunkDelay, watching: connection)
      if paused != .completed { return paused }
    }
    return Socket.sendAll(connection, Array("0\r\n\r\n".utf8)) ? .completed : closedOrStopped()
  }

  /// Sends a response whose body is generated piece by piece, counting the body
  /// bytes the socket accepted.
  private func sendGenerated(_ response: TestServerResponse, path: String, on connection: Int32)
    -> SendOutcome
  {
    let length = response.generatedBodyLength ?? 0
    let declared = response.declaresGeneratedLength
    let waited = pause(response.delay, watching: connection)
    if waited != .completed { return waited }
    guard
      Socket.sendAll(
        connection, Self.headBytes(for: response, bodyLength: declared ? length : nil))
    else { return closedOrStopped() }
    let pieceSize = max(response.chunkSize ?? 64 * 1024, 1)
    let piece = [UInt8](repeating: 0x61, count: pieceSize)
    var sent = 0
    while sent < length {
      let count = min(pieceSize, length - sent)
      let bytes = count == pieceSize ? piece : Array(piece.prefix(count))
      let framed =
        declared ? bytes : Array(String(count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
      guard Socket.sendAll(connection, framed) else { return closedOrStopped() }
      sent += count
      recordBodyBytes(path, count)
      let paused = pause(response.chunkDelay, watching: connection)
      if paused != .completed { return paused }
    }
    if declared { return .completed }
    return Socket.sendAll(connection, Array("0\r\n\r\n".utf8)) ? .completed : closedOrStopped()
  }

  private func closedOrStopped() -> SendOutcome {
    isStopped ? .serverStopped : .clientClosed
  }

  /// Waits `seconds`, ending early when the client closes or the server stops.
  private func pause(_ seconds: TimeInterval, watching connection: Int32) -> SendOutcome {
    guard seconds > 0 else { return .completed }
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      if isStopped { return .serverStopped }
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0 { return .completed }
      let slice = min(Self.pollSliceMilliseconds, Int32(remaining * 1000) + 1)
      switch Socket.readiness(connection, milliseconds: slice) {
      case .idle:
        continue
      case .readable:
        // Extra bytes after the request are ignored (every response closes the connection).
        if Socket.receive(connection) == nil { return closedOrStopped() }
      case .closed:
        return closedOrStopped()
      }
    }
  }

  /// After a complete response: signal the end, then give the client a moment to
  /// close first so the response is never cut short by a reset.
  private func finish(_ connection: Int32) {
    Socket.shutdownWrite(connection)
    let deadline = Date().addingTimeInterval(1)
    while !isStopped && Date() < deadline {
      switch Socket.readiness(connection, milliseconds: Self.pollSliceMilliseconds) {
      case .idle: continue
      case .readable: if Socket.receive(connection) == nil { return }
      case .closed: return
      }
    }
  }

  /// Reads up to the blank line that ends the request head; `nil` when the client
  /// closed, the head is too long, or the server stopped.
  private func readHead(_ connection: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(10)
    while !isStopped && Date() < deadline {
      switch Socket.readiness(connection, milliseconds: Self.pollSliceMilliseconds) {
      case .idle:
        continue
      case .closed:
        return nil
      case .readable:
        guard let received = Socket.receive(connection) else { return nil }
        bytes += received
        if Self.containsHeadEnd(bytes) { return bytes }
        if bytes.count > Self.maximumHeadSize { return nil }
      }
    }
    return nil
  }

  static func containsHeadEnd(_ bytes: [UInt8]) -> Bool {
    let end: [UInt8] = [13, 10, 13, 10]
    guard bytes.count >= end.count else { return false }
    for start in 0...(bytes.count - end.count)
    where bytes[start..<(start + end.count)].elementsEqual(end) {
      return true
    }
    return false
  }

  /// The request target of a head like `GET /path HTTP/1.1`, or `nil` when malformed.
  static func requestPath(fromHead head: [UInt8]) -> String? {
    guard let lineEnd = head.firstIndex(of: 13) else { return nil }
    let line = String(decoding: head[..<lineEnd], as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else {
      return nil
    }
    return String(parts[1])
  }

  /// The status line and header fields; `bodyLength` `nil` means chunked.
  static func headBytes(for response: TestServerResponse, bodyLength: Int?) -> [UInt8] {
    var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      head += "\(name): \(value)\r\n"
    }
    if let bodyLength {
      head += "Content-Length: \(bodyLength)\r\n"
    } else {
      head += "Transfer-Encoding: chunked\r\n"
    }
    head += "Connection: close\r\n\r\n"
    return Array(head.utf8)
  }

  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 201: return "Created"
    case 204: return "No Content"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 304: return "Not Modified"
    case 400: return "Bad Request"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}
