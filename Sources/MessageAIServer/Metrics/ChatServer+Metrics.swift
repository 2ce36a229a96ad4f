import Dispatch

/// The hooks of `ServerMetrics` that need more than one line where they happen.
extension ChatServer {
    func countOpened(tls: Bool) {
        if tls {
            metrics.acceptedTLS.increment(); metrics.connectionsOpenTLS.increment()
        } else {
            metrics.acceptedPlain.increment(); metrics.connectionsOpenPlain.increment()
        }
    }

    func countClosed(_ peer: Peer, reason: Connection.CloseReason) {
        // The transport of a server never changes (SIGHUP swaps certificates, not TLS for plain).
        if tlsContext != nil {
            metrics.connectionsOpenTLS.decrement()
            if !peer.connection.handshakeCompleted { metrics.handshakesFailed.increment() }
        } else {
            metrics.connectionsOpenPlain.decrement()
        }
        if reason == .outputOverflow { metrics.outputOverflows.increment() }
    }

    /// `/healthz`: the store answers a query on the hub within 2 s.
    func checkHealth(_ done: @escaping @Sendable (Bool) -> Void) {
        let answered = DispatchSemaphore(value: 0)
        let result = Box(false)
        queue.async { [self] in
            onHub { [self] in
                // Any answer counts, "no such user" included: only a failing query is unhealthy.
                do { _ = try await store.user(id: 0); result.value = true } catch { result.value = false }
                answered.signal()
            }
        }
        DispatchQueue.global().async {
            done(answered.wait(timeout: .now() + 2) == .success && result.value)
        }
    }
}

/// A value handed from the hub to the waiting health check (the semaphore orders the accesses).
private final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
