import MessageAIProtocol

/// One upload or download on a bench connection with up to `window` chunk requests unanswered.
/// An upload writes its next chunk only when the connection's output buffer is empty, the rule
/// the client follows so that a SEND queued meanwhile waits behind one chunk at most.
final class W8Transfer {
    let connection: Connection
    let window: Int
    private var inFlight = 0
    private var failure: String?

    init(connection: Connection, window: Int) { self.connection = connection; self.window = window }

    /// Uploads `bytes`; returns the file id once the server has checked the whole file.
    /// `between` runs after every poll round (W1's sends during the upload).
    func upload(_ bytes: [UInt8], deadline: Deadline, poller: Poller? = nil, between: () -> Void = {}) throws -> [UInt8] {
        let c = connection
        let sha = sha256(bytes)
        let start = try c.request(FileAnnounce(name: "w8.bin", size: UInt64(bytes.count), mediaType: "application/octet-stream", sha256: sha),
                                  expect: FileUpload.self, deadline: deadline)
        let chunk = Int(start.chunkSize)
        var next = Int(start.offset)
        var complete = start.complete
        let previous = c.onFrame
        defer { c.onFrame = previous }
        c.onFrame = { [self] v in
            if v.type == .fileUpload {
                inFlight -= 1
                guard let u = try? v.frame.decode(FileUpload.self) else { failure = "undecodable FILE_UPLOAD"; return }
                if u.complete { complete = true }
            } else if v.type == .error {
                failure = failure ?? Setup.describeError(v)
            } else {
                previous(v)
            }
        }
        let poll = poller ?? Poller([c])
        while !complete {
            if let failure { throw BenchError("upload: \(failure)") }
            if c.closed { throw BenchError("upload: \(c.closedReason ?? "closed")") }
            if deadline.expired { throw BenchError("upload: time limit at \(next) bytes") }
            if next < bytes.count && inFlight < window && !c.hasPendingOutput {
                let end = min(bytes.count, next + chunk)
                c.queue(FileChunk(fileID: start.fileID, offset: UInt64(next), data: Array(bytes[next..<end])))
                c.flush()
                inFlight += 1
                next = end
                continue
            }
            poll.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
            between()
        }
        return start.fileID
    }

    /// Downloads a whole file by FILE_GET at growing offsets, `window` requests at once.
    func download(_ fileID: [UInt8], size: Int, deadline: Deadline) throws -> [UInt8] {
        let c = connection
        var pieces: [UInt64: [UInt8]] = [:]
        var got = 0, next = 0
        var chunk = 0
        let previous = c.onFrame
        defer { c.onFrame = previous }
        c.onFrame = { [self] v in
            if v.type == .fileData {
                inFlight -= 1
                guard let d = try? v.frame.decode(FileData.self) else { failure = "undecodable FILE_DATA"; return }
                pieces[d.offset] = d.data
                got += d.data.count
                if chunk == 0 { chunk = d.data.count }
            } else if v.type == .error {
                failure = failure ?? Setup.describeError(v)
            }
        }
        let poll = Poller([c])
        // The first answer tells the chunk size; then up to `window` requests are out at once.
        c.queue(FileGet(fileID: fileID, offset: 0))
        c.flush()
        inFlight = 1
        while got < size {
            if let failure { throw BenchError("download: \(failure)") }
            if c.closed { throw BenchError("download: \(c.closedReason ?? "closed")") }
            if deadline.expired { throw BenchError("download: time limit at \(got) bytes") }
            if chunk > 0 && next == 0 { next = chunk }
            if chunk > 0 && next < size && inFlight < window {
                c.queue(FileGet(fileID: fileID, offset: UInt64(next)))
                c.flush()
                inFlight += 1
                next += chunk
                continue
            }
            poll.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
        }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        for offset in pieces.keys.sorted() { out += pieces[offset]! }
        return out
    }
}
