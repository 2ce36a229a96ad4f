import Dispatch
import Synchronization

/// The hub's executor: runs Swift concurrency jobs on the hub's serial DispatchQueue, inside an
/// output turn, so that an asynchronous handler resumes on the hub after a store suspended
/// (a database across a network) and its answers leave with the turn's other output.
///
/// Linux's Dispatch has no `DispatchSerialQueue` executor, hence this one. It is both a
/// `SerialExecutor` (the hub is one serial context; `checkIsolated` asks Dispatch) and a
/// `TaskExecutor`: the dispatcher starts a handler with `Task.immediate(executorPreference:)`,
/// so the handler runs inline on the hub until it first suspends and, after that, on the hub
/// again. The handlers and the store's requirements are `nonisolated(nonsending)` (the
/// server target builds with `NonisolatedNonsendingByDefault`), so awaiting a store that
/// answers at once (SQLite) suspends nothing and enqueues no job here: `jobsEnqueued` counts
/// them, which is how a test shows that SQLite costs no hop.
final class HubExecutor: SerialExecutor, TaskExecutor {
    let queue: DispatchQueue
    private let output: OutputScheduler
    private let enqueued = Atomic<Int>(0)

    init(queue: DispatchQueue, output: OutputScheduler) {
        self.queue = queue
        self.output = output
    }

    /// Jobs run here so far (each one a resumption after a suspension, or a task that could
    /// not start inline). Any thread may enqueue: a database driver resumes from its own.
    var jobsEnqueued: Int { enqueued.load(ordering: .relaxed) }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .relaxed)
        let job = UnownedJob(job)
        queue.async { [self] in
            output.turn { job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor()) }
        }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
