import Synchronization

/// Runs `operation` and returns its result, or throws `PostgresStoreError.databaseUnavailable`
/// once `timeout` has passed, whichever comes first.
///
/// With `probe`, an operation still unanswered after `probe.after` (and every `probe.after`
/// after that) asks `probe.check` whether the database is there at all (see
/// PostgresStore+Reachability.swift): a reason means it is not, and the caller is answered
/// at once instead of at the deadline.
///
/// Why not a task group racing a sleep: a group waits for all its children before it returns,
/// and a lease request waiting on a pool that cannot connect gives up only when PostgresNIO's
/// circuit breaker trips (60 s, not configurable through `PostgresClient`). Here the caller is
/// answered at the deadline and the late operation is cancelled and left to end on its own.
func withDeadline<T: Sendable>(_ timeout: Duration,
                               probe: (after: Duration, check: @Sendable () async -> String?)? = nil,
                               _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let race = Race(continuation)
        let work = Task {
            do {
                race.finish(.success(try await operation()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            let clock = ContinuousClock(), end = clock.now + timeout
            // One task sleeps for both: a probe every `probe.after` while the deadline is
            // further away (the probe's answers are shared between callers), then the rest.
            if let probe {
                while clock.now + probe.after < end {
                    do { try await Task.sleep(for: probe.after) } catch { return }  // cancelled: the work won
                    if let down = await probe.check() {
                        if race.finish(.failure(PostgresStoreError.databaseUnavailable(reason: down))) { work.cancel() }
                        return
                    }
                }
            }
            do { try await Task.sleep(until: end, clock: clock) } catch { return }  // cancelled: the work won
            if race.finish(.failure(PostgresStoreError.databaseUnavailable(reason: "no answer within \(timeout)"))) {
                work.cancel()
            }
        }
        race.setTimer(timer)
    }
}

/// The continuation, resumed exactly once by whichever side finishes first; the winner also
/// stops the timer so that no sleeping task outlives a quick operation.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var timer: Task<Void, Never>?
    }
    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = Mutex(State(continuation: continuation, timer: nil))
    }

    /// Returns whether this call was the one that answered the caller.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (continuation, timer) = state.withLock { state in
            defer { state.continuation = nil; state.timer = nil }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        guard let continuation else { return false }
        continuation.resume(with: result)
        return true
    }

    func setTimer(_ timer: Task<Void, Never>) {
        let finished = state.withLock { state in
            if state.continuation == nil { return true }
            state.timer = timer
            return false
        }
        if finished { timer.cancel() }
    }
}
