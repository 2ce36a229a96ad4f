import Dispatch
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
///
/// Why no timer task per call (as before perf25c): a sleeping task that the quick answer
/// cancels costs a task start, a cancellation wake-up and a stale timer firing later, on every
/// store call; the profile of W1 on PostgreSQL found thread wake-ups to be most of the
/// server's kernel time. One watch (`DeadlineWatch`) holds every call's deadline and sleeps
/// until the earliest: a call that ends in time only removes its entry.
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
        let id = DeadlineWatch.shared.add(timeout: timeout, probe: probe) { reason in
            if race.finish(.failure(PostgresStoreError.databaseUnavailable(reason: reason))) { work.cancel() }
        }
        race.setWatch(id)
    }
}

/// The continuation, resumed exactly once by whichever side finishes first; the winner also
/// takes the call's entry out of the watch.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var watch: UInt64?
    }
    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = Mutex(State(continuation: continuation, watch: nil))
    }

    /// Returns whether this call was the one that answered the caller.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (continuation, watch) = state.withLock { state in
            defer { state.continuation = nil; state.watch = nil }
            return (state.continuation, state.watch)
        }
        if let watch { DeadlineWatch.shared.remove(watch) }
        guard let continuation else { return false }
        continuation.resume(with: result)
        return true
    }

    func setWatch(_ id: UInt64) {
        let finished = state.withLock { state in
            if state.continuation == nil { return true }
            state.watch = id
            return false
        }
        if finished { DeadlineWatch.shared.remove(id) }
    }
}

/// Every pending call's deadline (and probe times), and one Dispatch timer armed for the
/// earliest of them. Adding and removing take a lock and, for a call that ends in time,
/// nothing else; the timer fires at most once per due time of the earliest pending call
/// (re-armed then for the next), and not at all while nothing is pending. Unchecked: the
/// timer source is not marked Sendable, and Dispatch allows `schedule` from any thread.
final class DeadlineWatch: @unchecked Sendable {
    static let shared = DeadlineWatch()

    private struct Entry {
        let end: UInt64
        var nextProbe: UInt64?
        let probeEvery: UInt64
        let check: (@Sendable () async -> String?)?
        var probing = false
        let expire: @Sendable (String) -> Void
        let timeout: Duration
        var due: UInt64 { probing ? end : min(end, nextProbe ?? end) }
    }
    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var armedFor = UInt64.max
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "messageai.postgres.deadlines")
    private let timer: any DispatchSourceTimer

    private init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in fire() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    private static func nanos(_ d: Duration) -> UInt64 {
        let (s, atto) = d.components
        return UInt64(max(0, s)) * 1_000_000_000 + UInt64(max(0, atto / 1_000_000_000))
    }

    func add(timeout: Duration, probe: (after: Duration, check: @Sendable () async -> String?)?,
             expire: @escaping @Sendable (String) -> Void) -> UInt64 {
        let now = Self.now(), end = now + Self.nanos(timeout)
        let every = probe.map { Self.nanos($0.after) } ?? 0
        // As before: a probe only while another interval fits before the deadline.
        let firstProbe = probe != nil && now + every < end ? now + every : nil
        let entry = Entry(end: end, nextProbe: firstProbe, probeEvery: every, check: probe?.check, expire: expire, timeout: timeout)
        return state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = entry
            if entry.due < state.armedFor { arm(entry.due, &state) }
            return state.nextID
        }
    }

    func remove(_ id: UInt64) {
        // The timer stays armed: when it fires with nothing due it re-arms for what is left.
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Pending calls (for the tests: a call that ended leaves nothing behind).
    var pending: Int { state.withLock { $0.entries.count } }

    private func fire() {
        let now = Self.now()
        var expired: [Entry] = [], probes: [(UInt64, Entry)] = []
        state.withLock { state in
            for (id, entry) in state.entries where entry.due <= now {
                if entry.end <= now {
                    state.entries[id] = nil
                    expired.append(entry)
                } else {
                    state.entries[id]?.probing = true
                    probes.append((id, entry))
                }
            }
            state.armedFor = .max
            if let next = state.entries.values.map(\.due).min() { arm(next, &state) }
        }
        for entry in expired { entry.expire("no answer within \(entry.timeout)") }
        for (id, entry) in probes {
            guard let check = entry.check else { continue }
            Task { [self] in
                if let down = await check() {
                    // Out of the watch first: the race's finish will find nothing to remove.
                    remove(id)
                    entry.expire(down)
                } else {
                    probed(id)
                }
            }
        }
    }

    /// A probe found the database there: the next one after another interval, if it fits.
    private func probed(_ id: UInt64) {
        let now = Self.now()
        state.withLock { state in
            guard var entry = state.entries[id] else { return }
            entry.probing = false
            entry.nextProbe = now + entry.probeEvery < entry.end ? now + entry.probeEvery : nil
            state.entries[id] = entry
            if entry.due < state.armedFor { arm(entry.due, &state) }
        }
    }

    /// Under the lock, so that two callers cannot arm in one order and record in the other.
    private func arm(_ due: UInt64, _ state: inout State) {
        state.armedFor = due
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due), leeway: .milliseconds(1))
    }
}
