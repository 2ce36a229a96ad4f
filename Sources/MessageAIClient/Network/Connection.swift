import Foundation
import MessageAIProtocol
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to the server: reads frames, writes frames, reports its end once.
/// Everything runs on the queue given at init (the client's main queue).
final class Connection {
    let fd: Int32
    /// Nil for `--plaintext`; else every byte goes through it (see Connection+TLS.swift).
    let tls: TLSSession?
    private let queue: DispatchQueue
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var writeSuspended = true
    private var decoder: FrameDecoder
    private var outBuffer: [UInt8] = []
    private(set) var closed = false
    private(set) var lastReceived = DispatchTime.now()
    private(set) var lastSent = DispatchTime.now()

    var onFrame: (Frame) -> Void = { _ in }
    /// Run once each, when everything buffered has been handed to the socket (uploads pace
    /// their chunks by it).
    private var drainWaiters: [() -> Void] = []
    var outputEmpty: Bool { outBuffer.isEmpty }
    /// Called once, with the reason, when the connection ends for any cause.
    var onClose: (String) -> Void = { _ in }

    init(fd: Int32, tls: TLSSession? = nil, queue: DispatchQueue, maxFrameLength: Int = Frame.defaultMaxLength) {
        self.fd = fd
        self.tls = tls
        self.queue = queue
        decoder = FrameDecoder(maxLength: maxFrameLength)
    }

    func start() {
        let rs = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        rs.setEventHandler { [self] in readAvailable() }
        let ws = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        ws.setEventHandler { [self] in flush() }
        // The fd is closed only after both sources are cancelled (closing earlier crashed).
        let group = DispatchGroup()
        group.enter(); group.enter()
        rs.setCancelHandler { group.leave() }
        ws.setCancelHandler { group.leave() }
        let fd = self.fd
        group.notify(queue: queue) { Glibc.close(fd) }
        readSource = rs
        writeSource = ws
        rs.resume()
    }

    func send(_ frame: Frame) {
        guard !closed else { return }
        frame.encode(into: &outBuffer)
        lastSent = .now()
        flush()
    }

    private func flush() {
        while !outBuffer.isEmpty && !closed {
            let n = outBuffer.withUnsafeBytes { sendBytes($0) }
            if n > 0 {
                outBuffer.removeFirst(n)
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if writeSuspended { writeSuspended = false; writeSource?.resume() }
                return
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                let why = "write failed: \(String(cString: strerror(errno)))"
                // A server that closes a connection says why in its last frame (a revoked
                // session, a disabled account); a write racing that close fails first. Read
                // what already arrived, so the person is told the server's reason.
                for _ in 0..<8 where !closed {
                    if !readAvailable() { break }
                }
                if !closed { close(reason: why) }
                return
            }
        }
        if outBuffer.isEmpty && !writeSuspended { writeSuspended = true; writeSource?.suspend() }
        if outBuffer.isEmpty && !drainWaiters.isEmpty && !closed {
            let waiters = drainWaiters
            drainWaiters = []
            // Later, not inside send(): a waiter sends, which would flush re-entrantly.
            queue.async { for w in waiters { w() } }
        }
    }

    /// Runs `body` once the output buffer is empty (now, if it is); never if the connection closes.
    func whenDrained(_ body: @escaping () -> Void) {
        if outBuffer.isEmpty { queue.async { body() }; return }
        drainWaiters.append(body)
    }

    /// Reads one chunk and handles its frames; false when nothing was read.
    @discardableResult
    private func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { receiveBytes($0) }
        if n == 0 { close(reason: "the server closed the connection"); return false }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return false }
            close(reason: "read failed: \(String(cString: strerror(errno)))")
            return false
        }
        lastReceived = .now()
        decoder.feed(chunk[0..<n])
        while !closed {
            do {
                guard let frame = try decoder.next() else { break }
                onFrame(frame)
            } catch {
                close(reason: "bad data from the server: \(error)")
            }
        }
        return true
    }

    /// At exit: sends what is buffered (blocking, bounded), half-closes, and waits briefly for
    /// the server to finish reading, so a final MARK is not lost to a reset.
    func closeGracefully(timeoutMs: Int32 = 1000) {
        guard !closed else { return }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        var tv = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        while !outBuffer.isEmpty {
            let n = outBuffer.withUnsafeBytes { sendBytes($0) }
            if n <= 0 { break }
            outBuffer.removeFirst(n)
        }
        tls?.shutdown()
        shutdown(fd, Int32(SHUT_WR))
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMs) * 1_000_000
        var buf = [UInt8](repeating: 0, count: 4096)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let left = Int32((deadline - DispatchTime.now().uptimeNanoseconds) / 1_000_000)
            if poll(&p, 1, max(left, 1)) <= 0 { break }
            if buf.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) <= 0 { break }
        }
        close(reason: "closed by the client")
    }

    func close(reason: String) {
        guard !closed else { return }
        closed = true
        outBuffer = []
        // Waiters run anyway: their next request fails as offline, which ends them cleanly.
        let waiters = drainWaiters
        drainWaiters = []
        if !waiters.isEmpty { queue.async { for w in waiters { w() } } }
        readSource?.cancel()
        // A suspended source must be resumed before cancelling, or releasing it crashes.
        if writeSuspended { writeSuspended = false; writeSource?.resume() }
        writeSource?.cancel()
        onClose(reason)
    }
}
