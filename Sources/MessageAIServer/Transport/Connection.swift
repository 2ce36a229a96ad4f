import Dispatch
import MessageAIProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One client connection: frames in through a read source, frames out through a bounded,
/// coalescing output buffer and a write source. Everything runs on the `queue` it was given
/// (the server's hub queue), so its state needs no locks.
///
/// Output: `send` only appends to a buffer and registers with the server's `OutputScheduler`,
/// which writes it at the end of the queue's turn, so every frame queued during one turn leaves
/// in a single `send()` call. The write source is resumed only while the socket is full. A
/// client that stops reading lets the buffer grow; past `maxOutputBytes` it is disconnected,
/// and nobody else waits for it.
// @unchecked Sendable: confined to `queue` (the hub); its source handlers run there.
final class Connection: @unchecked Sendable {
    enum CloseReason: Equatable {
        case peerClosed
        case ioError(Int32)
        case protocolError(ErrorCode)
        case outputOverflow
        /// A frame or the login took longer than its deadline (`InputLimits`).
        case deadline
        case server
    }

    let id: UInt64
    let address: String
    private let transport: ByteTransport
    private let queue: DispatchQueue
    private let scheduler: OutputScheduler
    private let maxOutputBytes: Int
    private let readBuffer: ReadBuffer
    let limits: InputLimits
    private var decoder: FrameDecoder
    private var readSource: DispatchSourceRead?
    /// Input stopped by the server (backpressure, closing).
    private(set) var readPaused = false
    /// Input stopped because this connection used its turn; a continuation is queued.
    private var yielding = false
    private var readSourceSuspended = false
    /// Made the first time the socket is full (most connections never fill theirs): an idle
    /// connection then holds one DispatchSource, not two (BENCHMARKS.md, W3).
    private var writeSource: DispatchSourceWrite?
    private var writeSourceSuspended = true
    /// Sources made; the transport closes once as many were cancelled.
    private var madeSources = 0
    /// Registered with the scheduler for the end of this turn.
    private var flushRequested = false
    private var output = OutputBuffer()
    private var cancelledSources = 0
    /// Set once the connection stops taking input; it may still be flushing output.
    private(set) var isClosing = false
    private(set) var isClosed = false
    private var closeReason: CloseReason = .server

    /// Uptime (ms, monotonic) of the last byte received: drives the idle timeout.
    private(set) var lastReceivedAt: UInt64
    /// Uptime (ms) when the first byte of the frame now being received arrived, if any
    /// (the deadlines live in `Connection+Deadlines.swift`).
    var frameStartedAt: UInt64?
    /// Uptime (ms) by which the connection must have logged in; nil once it has.
    var loginDeadline: UInt64?
    /// Whether the connection has logged in: frames up to the full maximum are accepted.
    private(set) var isAuthenticated = false

    /// A decoded frame. Not called after the connection started closing.
    var onFrame: ((Frame) -> Void)?
    /// Called once, when the connection is gone (sources cancelled, descriptor closed soon).
    var onClose: ((CloseReason) -> Void)?
    /// Called when buffered output drops below `lowWaterMark` (lets a sync produce its next batch).
    var onDrain: (() -> Void)?
    static let lowWaterMark = 256 * 1024

    init(id: UInt64, address: String, transport: ByteTransport, queue: DispatchQueue, scheduler: OutputScheduler, readBuffer: ReadBuffer,
         limits: InputLimits, maxOutputBytes: Int) {
        self.id = id
        self.readBuffer = readBuffer
        self.address = address
        self.transport = transport
        self.queue = queue
        self.scheduler = scheduler
        self.maxOutputBytes = maxOutputBytes
        self.limits = limits
        self.decoder = FrameDecoder(maxLength: limits.frameLimit(authenticated: false))
        self.lastReceivedAt = Clock.uptimeMillis()
        self.loginDeadline = lastReceivedAt + limits.loginTimeoutMillis
    }

    var pendingOutputBytes: Int { output.pendingCount }
    /// Why the transport failed (TLS), for the close log line.
    var transportFailure: String? { transport.failureDescription }
    /// False for a TLS connection that closed before its handshake completed.
    var handshakeCompleted: Bool { (transport as? TLSTransport)?.isHandshakeDone ?? true }

    func start() {
        let rs = DispatchSource.makeReadSource(fileDescriptor: transport.fileDescriptor, queue: queue)
        rs.setEventHandler { [weak self] in self?.readAvailable() }
        // Strong capture on purpose: the connection must outlive its sources' cancellation.
        rs.setCancelHandler { self.sourceCancelled() }
        readSource = rs
        madeSources = 1
        rs.resume()
    }

    /// The write source, made on first use; it stays suspended while there is nothing to write.
    private func makeWriteSource() -> DispatchSourceWrite {
        if let ws = writeSource { return ws }
        let ws = DispatchSource.makeWriteSource(fileDescriptor: transport.fileDescriptor, queue: queue)
        ws.setEventHandler { [weak self] in _ = self?.flush() }
        ws.setCancelHandler { self.sourceCancelled() }
        writeSource = ws
        madeSources += 1
        return ws
    }

    // MARK: Input

    private func readAvailable() {
        // Answers and pushes caused by these frames are written once, after the reads.
        scheduler.turn {
            var budget = TurnBudget(limits)
            // Frames left from an earlier turn go first: the socket is read only once they are done.
            deliverFrames(&budget)
            readFrames(&budget)
            trackPartialFrame(delivered: budget.frames < limits.framesPerTurn)
            releaseEmptyInput()
            // TLS records read ahead into OpenSSL while the socket is now empty: no read event
            // will come for them, so this connection carries on at the back of the queue.
            if !readPaused, transport.hasBufferedInput { continueLater() }
        }
    }

    /// A decoder keeps its buffer's capacity; between bursts, with nothing half-received, a
    /// fresh one holds no allocation (idle connections are most of them, BENCHMARKS.md E4).
    /// Bytes received that are not yet frames.
    var bufferedInputBytes: Int { decoder.bufferedByteCount }

    private func releaseEmptyInput() {
        if !isClosing, decoder.bufferedByteCount == 0 { decoder = FrameDecoder(maxLength: decoder.maxLength) }
    }

    private func readFrames(_ budget: inout TurnBudget) {
        let buffer = readBuffer.bytes
        // A few reads per event, then yield the queue to other connections.
        for _ in 0..<4 {
            guard !isClosing, !readPaused, !yielding, !budget.isSpent else { return }
            switch transport.read(into: buffer) {
            case .bytes(let n):
                lastReceivedAt = Clock.uptimeMillis()
                // Grows with the bytes received, never with the length a frame declares.
                decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                deliverFrames(&budget)
                if n < buffer.count, !transport.hasBufferedInput { return }
            case .wouldBlock:
                return
            case .endOfStream:
                // The peer may have only half-closed: answers already queued still go out.
                close(after: nil, reason: .peerClosed)
                return
            case .failed(let e):
                closeNow(.ioError(e))
                return
            }
        }
    }

    /// Stops taking input (backpressure while earlier requests are still being worked on, or
    /// before login while LOGIN is being checked). Bytes already read stay in the decoder.
    func pauseReading() {
        guard !readPaused, !isClosed else { return }
        readPaused = true
        updateReadSource()
    }

    func resumeReading() {
        guard readPaused, !isClosing else { return }
        readPaused = false
        // Time spent paused was the server's doing, not the client's: the idle and frame
        // clocks start again (bytes the client sent meanwhile are still in the socket).
        let now = Clock.uptimeMillis()
        lastReceivedAt = now
        if frameStartedAt != nil { frameStartedAt = now }
        updateReadSource()
        // Frames may be waiting in the decoder, which no socket event would bring back.
        if decoder.bufferedByteCount > 0 || transport.hasBufferedInput { continueLater() }
    }

    /// Time the server spent on this connection's request was not the client's silence.
    func restartIdleClock() {
        lastReceivedAt = max(lastReceivedAt, Clock.uptimeMillis())
    }

    /// The read source runs while the server wants input and this connection has not yielded.
    private func updateReadSource() {
        guard !isClosed, let rs = readSource else { return }
        let suspend = readPaused || yielding
        guard suspend != readSourceSuspended else { return }
        readSourceSuspended = suspend
        if suspend { rs.suspend() } else { rs.resume() }
    }

    /// Gives the hub to the other connections, and carries on with this one's input at the
    /// back of the queue (its frames stay in the decoder meanwhile, so they are bounded).
    private func continueLater() {
        guard !yielding, !isClosing else { return }
        yielding = true
        updateReadSource()
        queue.async { [self] in
            yielding = false
            updateReadSource()
            readAvailable()
        }
    }

    private func deliverFrames(_ budget: inout TurnBudget) {
        while !isClosing, !readPaused {
            if budget.isSpent {
                if decoder.bufferedByteCount > 0 { continueLater() }
                return
            }
            do {
                guard let frame = try decoder.next() else { return }
                budget.spend()
                onFrame?(frame)
            } catch {
                // The stream lost its framing: say why, then close.
                let code = error.errorCode
                var limit: UInt64 = 0
                var text = error.description
                if case let .frameTooLarge(declared, max) = error {
                    limit = UInt64(max)
                    if !isAuthenticated { text = "frame length \(declared) exceeds \(max) bytes, the limit before login" }
                }
                close(after: ErrorFrame(code, text, limit: limit), reason: .protocolError(code))
                return
            }
        }
    }

    /// Login (or logout) changes which frames are legitimate: the full maximum after login, the
    /// small pre-login limit and a fresh login deadline after logout.
    func setAuthenticated(_ authenticated: Bool) {
        guard authenticated != isAuthenticated else { return }
        isAuthenticated = authenticated
        decoder.maxLength = limits.frameLimit(authenticated: authenticated)
        loginDeadline = authenticated ? nil : Clock.uptimeMillis() + limits.loginTimeoutMillis
    }

    /// While a LOGIN or REGISTER is being checked, a frame pipelined behind it may be a
    /// full-size one meant for after the login; when the answer is known the limit goes back to
    /// what the login state says.
    func holdBehindLogin(_ holding: Bool) {
        decoder.maxLength = limits.frameLimit(authenticated: isAuthenticated || holding)
    }

    // MARK: Output

    /// Queues a frame. Returns false when the connection is closing or just overflowed.
    @discardableResult
    func send(_ frame: Frame) -> Bool {
        // After a closing ERROR nothing more goes out.
        guard !isClosing else { return false }
        output.append(frame)
        return queued()
    }

    /// Queues a frame already encoded (`Frame.encoded()`), shared by every recipient of a message.
    @discardableResult
    func send(encoded frame: [UInt8]) -> Bool {
        guard !isClosing else { return false }
        output.append(encoded: frame)
        return queued()
    }

    private func queued() -> Bool {
        if pendingOutputBytes > maxOutputBytes {
            overflow()
            return false
        }
        requestFlush()
        return true
    }

    /// How long a connection cut off by `overflow` keeps its last bytes and the ERROR for a
    /// client that reads again. It holds at most the frame in flight and the ERROR meanwhile.
    static let overflowGrace: DispatchTimeInterval = .seconds(30)

    /// The peer is not reading. Drop every frame it has not started to receive, queue ERROR
    /// output_overflow behind the one in flight, stop reading, and close once that tail is
    /// written. The peer's socket buffers are full, so the ERROR can only leave when it reads
    /// again: the connection waits for that (up to `overflowGrace`; a second used to be too
    /// short and the client saw a bare EOF), then closes regardless.
    private func overflow() {
        output.dropUnstartedFrames(keeping: transport.committedOutputBytes)
        output.append(ErrorFrame(.outputOverflow, "output queue passed \(maxOutputBytes) bytes: the client is not reading").frame(requestID: 0))
        isClosing = true
        closeReason = .outputOverflow
        pauseReading()
        requestFlush()
        queue.asyncAfter(deadline: .now() + Connection.overflowGrace) { [self] in closeNow(.outputOverflow) }
    }

    /// Output waits for the end of the turn, unless the write source is already waiting for room.
    private func requestFlush() {
        guard writeSourceSuspended, !flushRequested, !isClosed else { return }
        flushRequested = true
        scheduler.schedule(self)
    }

    /// Called by the scheduler at the end of the turn.
    func writeScheduledOutput() {
        flushRequested = false
        guard !isClosed, writeSourceSuspended else { return }
        if flush() { resumeWriteSource() }
    }

    private func resumeWriteSource() {
        if writeSourceSuspended, !isClosed {
            writeSourceSuspended = false
            makeWriteSource().resume()
        }
    }

    /// Writes what it can. Returns true when output is left that the socket did not take
    /// (full, or a very large buffer): the write source then finishes it.
    private func flush() -> Bool {
        var spins = 0
        var blocked = false
        var failure: Int32?
        let transport = self.transport
        while !output.isEmpty, !blocked, failure == nil, spins < 16 {
            spins += 1
            // The closure touches nothing of `self`: `output` is being mutated.
            output.drain { bytes in
                switch transport.write(bytes) {
                case .bytes(let n): return n
                case .wouldBlock, .endOfStream: blocked = true // the write source fires again when it drains
                case .failed(let e): failure = e
                }
                return 0
            }
        }
        if let failure {
            closeNow(.ioError(failure))
            return false
        }
        let unfinished = !output.isEmpty
        if !unfinished {
            if !writeSourceSuspended, let ws = writeSource {
                writeSourceSuspended = true
                ws.suspend()
            }
            if isClosing { closeNow(closeReason); return false }
        }
        if pendingOutputBytes < Connection.lowWaterMark, !isClosing { onDrain?() }
        return unfinished
    }

    // MARK: Closing

    /// Sends `error` (if any), stops reading, and closes once the output is flushed or after
    /// a grace period, whichever comes first.
    func close(after error: ErrorFrame?, requestID: UInt32 = 0, reason: CloseReason = .server, grace: DispatchTimeInterval = .seconds(2)) {
        guard !isClosing else { return }
        if let error { send(error.frame(requestID: requestID)) }
        isClosing = true
        closeReason = reason
        // Unread input would keep the level-triggered read source firing: stop watching it.
        pauseReading()
        if pendingOutputBytes == 0 { closeNow(reason); return }
        requestFlush()
        queue.asyncAfter(deadline: .now() + grace) { [self] in closeNow(reason) }
    }

    /// Closes at once; unsent output is dropped.
    func closeNow(_ reason: CloseReason) {
        guard !isClosed else { return }
        isClosing = true
        isClosed = true
        closeReason = reason
        onFrame = nil
        onDrain = nil
        if let rs = readSource {
            // Resume before cancel, as below.
            if readSourceSuspended { readSourceSuspended = false; rs.resume() }
            readPaused = false
            rs.cancel()
        }
        if let ws = writeSource {
            // Resume before cancel: a suspended source never runs its cancel handler.
            if writeSourceSuspended { writeSourceSuspended = false; ws.resume() }
            ws.cancel()
        }
        let handler = onClose
        onClose = nil
        handler?(reason)
    }

    private func sourceCancelled() {
        cancelledSources += 1
        if cancelledSources == madeSources {
            transport.close()
            readSource = nil
            writeSource = nil
        }
    }
}
