import MessageAIProtocol

/// A connection's outgoing bytes: frames appended whole, sent from the front in pieces of any
/// size. Everything queued between two writes leaves in one `send()` (write coalescing).
///
/// It also remembers where frames begin, so that on overflow the frames the peer has not
/// started to receive can be dropped without cutting one in half.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    /// Bytes before this were written to the socket.
    private var start = 0
    /// The start of a frame at or before `start`.
    private var frameEdge = 0

    var pendingCount: Int { bytes.count - start }
    var isEmpty: Bool { start == bytes.count }

    mutating func append(_ frame: Frame) {
        reserve(Frame.lengthFieldSize + Frame.headerLength + frame.payload.count)
        frame.encode(into: &bytes)
    }

    /// A frame encoded once for all its recipients (a MESSAGE push): one copy, no encoding.
    mutating func append(encoded frame: [UInt8]) {
        reserve(frame.count)
        bytes.append(contentsOf: frame)
    }

    /// Grows by doubling. `Frame.encode` reserves exactly what one frame needs, and an exact
    /// `reserveCapacity` reallocates and copies the whole buffer again for every frame queued
    /// in the same turn (a group member receiving k pushes paid k reallocations).
    private mutating func reserve(_ more: Int) {
        let needed = bytes.count + more
        if needed > bytes.capacity { bytes.reserveCapacity(Swift.max(needed, 2 * bytes.capacity, 256)) }
    }

    /// Offers the unwritten bytes to `write`, which returns how many it took.
    mutating func drain(_ write: (UnsafeRawBufferPointer) -> Int) {
        let n = bytes.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        start += n
        if start == bytes.count {
            // Let the allocation go: most connections are idle most of the time, and an empty
            // buffer kept with its capacity cost each of them memory (BENCHMARKS.md E4). The
            // next burst allocates again, ~100 ns against ~100 µs of work per message.
            bytes = []
            start = 0
            frameEdge = 0
        } else if start > 1 << 20 {
            // Compact from a frame edge so that edges stay findable.
            advanceFrameEdge(to: start)
            bytes.removeSubrange(0..<frameEdge)
            start -= frameEdge
            frameEdge = 0
        }
    }

    /// Drops every frame not yet started; the one partly written stays, so the stream stays whole.
    /// So do the frames under the first `committed` unwritten bytes, which the transport has
    /// already taken (a TLS record waiting for room) and will send whatever follows.
    mutating func dropUnstartedFrames(keeping committed: Int = 0) {
        let keep = min(start + committed, bytes.count)
        var edge = frameEdge
        while edge < keep, edge + Frame.lengthFieldSize <= bytes.count {
            edge += Frame.lengthFieldSize + length(at: edge)
        }
        bytes.removeSubrange(min(max(edge, keep), bytes.count)...)
    }

    private mutating func advanceFrameEdge(to limit: Int) {
        while frameEdge + Frame.lengthFieldSize <= limit {
            let next = frameEdge + Frame.lengthFieldSize + length(at: frameEdge)
            guard next <= limit else { return }
            frameEdge = next
        }
    }

    private func length(at i: Int) -> Int {
        Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
    }
}
