import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The thread extraction runs on: one thread, work in order, at a lower CPU priority (nice 10)
/// than the hub. On a busy machine the hub then wins the core: a message's ack and pushes do
/// not wait behind the engine judging the previous one (BENCHMARKS.md, "The assistant's
/// extraction"). A Dispatch queue cannot do this: its worker threads are shared, and a nice set
/// on one would stay with whatever ran there next.
final class ExtractionThread: @unchecked Sendable {
    private let lock = NSCondition()
    private var work: [() -> Void] = []
    private var stopped = false

    init(nice: Int32 = 10) {
        let thread = Thread { [self] in
            #if canImport(Glibc)
            // On Linux the nice value is per thread: `who` 0 is the calling thread only (setpriority(2)).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
            #endif
            run()
        }
        thread.name = "messageai.assistant.extract"
        thread.start()
    }

    func async(_ block: @escaping () -> Void) {
        lock.lock()
        work.append(block)
        lock.signal()
        lock.unlock()
    }

    /// Ends the thread once the work queued so far is done.
    func stop() {
        lock.lock()
        stopped = true
        lock.signal()
        lock.unlock()
    }

    private func run() {
        while true {
            lock.lock()
            while work.isEmpty && !stopped { lock.wait() }
            if work.isEmpty && stopped { lock.unlock(); return }
            let batch = work
            work = []
            lock.unlock()
            for block in batch { block() }
        }
    }
}
