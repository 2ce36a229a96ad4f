import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Reads a trusted balancer's PROXY v2 header off a new socket before anything else touches it
/// (`ProxyHeader` parses). It asks the kernel for exactly the bytes the header still lacks, so
/// the client's first bytes behind it (its TLS ClientHello) stay in the socket for the
/// transport. On the hub queue; the descriptor's read source is cancelled, and its cancellation
/// has run, before `done` is called, so the connection's own sources never overlap it.
final class ProxyHeaderReader {
    enum Outcome {
        /// The client's address, or nil to keep the connection's own (LOCAL, UNSPEC).
        case source(String?)
        case failed(String)
    }

    private let fd: Int32
    private var bytes: [UInt8] = []
    private var want = ProxyHeader.fixedLength
    private var source: DispatchSourceRead?
    private var timer: DispatchSourceTimer?
    private var outcome: Outcome?

    init(fd: Int32) { self.fd = fd }

    /// Starts reading; `done` runs once on `queue`. The reader keeps itself alive until then.
    func start(on queue: DispatchQueue, timeoutMillis: Int, done: @escaping (Outcome) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in readAvailable() }
        source.setCancelHandler { [self] in
            self.timer?.cancel()
            self.timer = nil
            self.source = nil  // the cycle that kept the reader alive ends here
            done(outcome ?? .failed("no PROXY header"))
        }
        self.source = source
        // A balancer sends the header with the connection: one that trickles or never sends
        // it holds a descriptor, so it has a deadline of its own.
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(timeoutMillis))
        timer.setEventHandler { [self] in finish(.failed("no PROXY header within \(timeoutMillis) ms")) }
        self.timer = timer
        timer.resume()
        source.resume()
    }

    private func readAvailable() {
        while outcome == nil {
            var chunk = [UInt8](repeating: 0, count: want - bytes.count)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return finish(.failed("closed before its PROXY header was complete")) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                return finish(.failed("read failed (errno \(errno)) during its PROXY header"))
            }
            bytes += chunk.prefix(n)
            switch ProxyHeader.parse(bytes) {
            case .needMore(let total): want = total
            case .header(_, let address): finish(.source(address))
            case .invalid(let why): finish(.failed(why))
            }
        }
    }

    private func finish(_ outcome: Outcome) {
        guard self.outcome == nil else { return }
        self.outcome = outcome
        source?.cancel()
    }
}
