import MessageAISocket
import Glibc
import MessageAIProtocol
import MessageAITLS

/// A received frame, viewed in place in the connection's input buffer: valid only during the
/// `onFrame` call. Measured paths read it without copying; setup code copies it (`frame`).
struct FrameView {
    var type: FrameType
    var flags: FrameFlags
    var requestID: UInt32
    var payload: UnsafeRawBufferPointer
    var frame: Frame { Frame(type: type, flags: flags, requestID: requestID, payload: Array(payload)) }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One non-blocking TCP connection to the server with its own buffers. Frames are cut out of
/// one growing input buffer and handed to `onFrame` without allocating; output is queued in
/// one array and written with as few write() calls as the kernel allows.
final class Connection {
    let fd: Int32
    let index: Int
    var output: [UInt8] = []
    private var outputStart = 0
    private var input: UnsafeMutableRawPointer
    private var inputCapacity: Int
    private var inputCount = 0
    /// True until TCP is connected and, over TLS, the handshake is done.
    private(set) var connecting = true
    /// Over TLS (`--tls-workloads`): every byte goes through it; nil for plaintext.
    let tls: TLSSession?
    private var tcpConnected = false
    private var handshakeWantsWrite = false
    private(set) var closedReason: String?
    var closed: Bool { closedReason != nil }
    /// Every byte read from the socket, frame headers included.
    private(set) var bytesReceived = 0
    /// Taken right after the read() that delivered the frame being handled.
    private(set) var lastReadNanos: UInt64 = 0
    var nextRequestID: UInt32 = 1
    var onFrame: (FrameView) -> Void = { _ in }
    var maxFrameLength = 32 << 20

    /// Starts a non-blocking connect to host:port (loopback only; checked by the caller).
    init(host: String, port: UInt16, index: Int = 0) throws {
        switch Sockets.open(host: host, port: port, nonBlocking: true) {
        case .success(let opened): fd = opened
        case .failure(let e): throw BenchError("connect to \(host):\(port): \(e.message) (open-file limit?)")
        }
        self.index = index
        let socketFD = fd
        if let context = benchTLSContext {
            let session = try TLSSession(context: context, fileDescriptor: socketFD, isServer: false)
            session.prepareClient(host: host)
            tls = session
        } else {
            tls = nil
        }
        inputCapacity = 64 * 1024
        input = .allocate(byteCount: inputCapacity, alignment: 16)
    }

    deinit {
        if closedReason == nil { Glibc.close(fd) }
        input.deallocate()
    }

    func close(_ reason: String) {
        guard closedReason == nil else { return }
        closedReason = reason
        tls?.shutdown()
        Glibc.close(fd)
    }

    /// Call when poll() reports the socket writable while connecting: true once connected.
    func finishConnect() -> Bool {
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        if !tcpConnected {
            if err != 0 { close("connect: \(String(cString: strerror(err)))"); return false }
            tcpConnected = true
        }
        if let tls {
            switch tls.handshake() {
            case .done: handshakeWantsWrite = false
            case .wantRead: handshakeWantsWrite = false; return false
            case .wantWrite: handshakeWantsWrite = true; return false
            case .closed: close("TLS handshake: the server closed the connection"); return false
            case .failed(let why): close(why); return false
            }
        }
        connecting = false
        return true
    }

    /// poll() for POLLOUT only while it means something (TCP connect, TLS handshake, output).
    var wantsWritable: Bool { connecting ? (!tcpConnected || handshakeWantsWrite) : hasPendingOutput }

    private func sendBytes(_ p: UnsafeRawPointer, _ n: Int) -> Int {
        guard let tls else { return send(fd, p, n, Int32(MSG_NOSIGNAL)) }
        switch tls.write(UnsafeRawBufferPointer(start: p, count: n)) {
        case .done(let k): return k
        case .wantRead, .wantWrite: errno = EAGAIN; return -1
        case .closed: errno = EPIPE; return -1
        case .failed: errno = EPROTO; return -1
        }
    }

    private func receiveBytes(_ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
        guard let tls else { return recv(fd, p, n, 0) }
        switch tls.read(into: UnsafeMutableRawBufferPointer(start: p, count: n)) {
        case .done(let k): return k
        case .wantRead, .wantWrite: errno = EAGAIN; return -1
        case .closed: return 0
        case .failed: errno = EPROTO; return -1
        }
    }

    var hasPendingOutput: Bool { outputStart < output.count }

    /// Queues a request and returns its id.
    @discardableResult
    func queue<T: WireMessage>(_ message: T, requestID: UInt32? = nil) -> UInt32 {
        let id = requestID ?? takeRequestID()
        message.frame(requestID: id).encode(into: &output)
        return id
    }

    func takeRequestID() -> UInt32 {
        defer { nextRequestID = nextRequestID == .max ? 1 : nextRequestID + 1 }
        return nextRequestID
    }

    /// Writes what it can without blocking; the rest waits for POLLOUT.
    func flush() {
        guard !connecting, !closed, outputStart < output.count else { return }
        while outputStart < output.count {
            let n = output.withUnsafeBytes { sendBytes($0.baseAddress! + outputStart, $0.count - outputStart) }
            if n > 0 { outputStart += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            close("write: \(String(cString: strerror(errno)))")
            return
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
        }
    }

    /// Reads until the socket is drained and hands every complete frame to `onFrame`.
    func readAvailable() {
        while !closed && !connecting {
            if inputCapacity - inputCount < 32 * 1024 { grow(to: inputCapacity * 2) }
            let n = receiveBytes(input + inputCount, inputCapacity - inputCount)
            if n == 0 { close("server closed the connection"); return }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { close("read: \(String(cString: strerror(errno)))") }
                return
            }
            lastReadNanos = nowNanos()
            bytesReceived += n
            inputCount += n
            deliverFrames()
            if n < inputCapacity / 2 { return }  // most likely drained; poll() will say if not
        }
    }

    private func deliverFrames() {
        var offset = 0
        while inputCount - offset >= 12 {
            let base = input + offset
            let length = Int(readBE32(base))
            guard length >= 8, length <= maxFrameLength else {
                close("bad frame length \(length) from the server"); return
            }
            guard inputCount - offset >= 4 + length else {
                if 4 + length > inputCapacity { grow(to: max(inputCapacity * 2, 4 + length + 16 * 1024)) }
                break
            }
            let b = base.assumingMemoryBound(to: UInt8.self)
            let view = FrameView(type: FrameType(rawValue: UInt16(b[4]) << 8 | UInt16(b[5])),
                                 flags: FrameFlags(rawValue: b[6]), requestID: readBE32(base + 8),
                                 payload: UnsafeRawBufferPointer(start: base + 12, count: length - 8))
            offset += 4 + length
            onFrame(view)
            if closed { return }
        }
        if offset > 0 {
            if offset < inputCount { memmove(input, input + offset, inputCount - offset) }
            inputCount -= offset
        }
    }

    private func grow(to capacity: Int) {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        bigger.copyMemory(from: input, byteCount: inputCount)
        input.deallocate()
        input = bigger
        inputCapacity = capacity
    }
}

@inline(__always)
func readBE32(_ p: UnsafeRawPointer) -> UInt32 {
    let b = p.assumingMemoryBound(to: UInt8.self)
    return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
}
