import Dispatch

/// Writes the output of one server's connections at the end of each turn of its hub queue.
///
/// A connection with new output registers here instead of resuming its write source: resuming
/// and suspending a write source per frame cost two `epoll_ctl` calls and a wake-up of the
/// dispatch manager thread each time (~30 % of the CPU per group delivery, BENCHMARKS.md E3).
/// At the end of a turn every registered connection writes once, so frames queued during the
/// turn still leave in one `send()`; only a socket that is full (EAGAIN) falls back to its
/// write source. One scheduler per server: each server has its own hub queue.
///
/// A turn is a read event or the group commit (`turn`). Output queued anywhere else — timers,
/// the hop back from password hashing, shutdown — schedules one flush on the queue instead.
/// Everything here runs on the hub queue.
// @unchecked Sendable: confined to the hub queue (above).
final class OutputScheduler: @unchecked Sendable {
    private let queue: DispatchQueue
    private var ready: [Connection] = []
    private var depth = 0
    private var flushQueued = false

    init(queue: DispatchQueue) { self.queue = queue }

    /// Runs `body`, then writes the output it queued (unless an outer turn will).
    func turn<T>(_ body: () throws -> T) rethrows -> T {
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { flush() }
        }
        return try body()
    }

    /// `connection` has output to write and no active write source.
    func schedule(_ connection: Connection) {
        ready.append(connection)
        if depth == 0 { queueFlush() }
    }

    private func queueFlush() {
        guard !flushQueued else { return }
        flushQueued = true
        queue.async { [self] in
            flushQueued = false
            flush()
        }
    }

    /// Writes each ready connection once. Output queued while writing (a sync's next batch,
    /// a presence change after a failed write) waits for the next turn of the queue, so one
    /// busy connection cannot keep the queue to itself.
    private func flush() {
        guard !ready.isEmpty else { return }
        let batch = ready
        ready = []
        depth += 1
        for connection in batch { connection.writeScheduledOutput() }
        depth -= 1
        if !ready.isEmpty { queueFlush() }
    }
}
