/// Work on the hub that must happen in the order it was asked for, even when the store
/// suspends: each task starts after the one before it has ended. Presence announcements (a
/// contact sees "online" before "offline") and the assistant's extraction steps (a message's
/// first extraction is stored before an edit's replaces it) go through one each.
///
/// A task starts inline (`Task.immediate` on the hub's executor) when none is pending, so with
/// a store that answers at once (SQLite) it has ended when `run` returns and costs no job.
// @unchecked Sendable: hub-confined (its tasks run on the hub's executor, its callers on the hub).
final class HubTaskChain: @unchecked Sendable {
    private let hub: HubExecutor
    /// Tasks started and not yet ended, and the last one started.
    private var pending = 0
    private var tail: Task<Void, Never>?

    init(hub: HubExecutor) { self.hub = hub }

    func run(_ work: @escaping @Sendable () async -> Void) {
        let previous = pending > 0 ? tail : nil
        pending += 1
        let task = Task.immediate(executorPreference: hub) { [self] in
            if let previous { await previous.value }
            await work()
            pending -= 1
        }
        tail = pending > 0 ? task : nil
    }

    /// Returns once every task started so far has ended (shutdown, before the store closes).
    func settled() async {
        while pending > 0, let last = tail { await last.value }
    }
}

extension ChatServer {
    /// Runs `work` as a task on the hub, inline until it first suspends (no order kept with
    /// other such tasks once one suspends; `HubTaskChain` keeps one).
    func onHub(_ work: @escaping @Sendable () async -> Void) {
        Task.immediate(executorPreference: hub) { await work() }
    }
}
