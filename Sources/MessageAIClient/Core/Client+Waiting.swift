import Foundation

/// A condition a command waits for, and what to do when it holds or the time is up.
final class Waiter {
    let condition: () -> Bool
    let done: (Bool) -> Void
    var deadline: DispatchWorkItem?

    init(condition: @escaping () -> Bool, done: @escaping (Bool) -> Void) {
        self.condition = condition
        self.done = done
    }
}

/// Waiting without polling: /wait, /wait-messages, /follow, the drain at end of input and the
/// wait for a sync check their condition when the client's state changes (a message stored,
/// a marker raised, the outbox drained, the link's state, the end of input) instead of every
/// 50 ms, so they answer as soon as the event happens and cost nothing while nothing does.
extension Client {
    /// Calls `done(true)` once `condition` holds (checked now, then on every change), or
    /// `done(false)` after `timeout` seconds. Main queue only.
    func wait(upTo timeout: Double, until condition: @escaping () -> Bool, _ done: @escaping (Bool) -> Void) {
        if condition() { done(true); return }
        let id = nextWaiter
        nextWaiter += 1
        let waiter = Waiter(condition: condition, done: done)
        let expire = DispatchWorkItem { [weak self] in
            guard let self, let w = self.waiters.removeValue(forKey: id) else { return }
            w.done(false)
        }
        waiter.deadline = expire
        waiters[id] = waiter
        DispatchQueue.main.asyncAfter(deadline: .now() + timeout, execute: expire)
    }

    /// Something the prompt or a waiting command may depend on changed.
    func onChange() {
        onPromptChange()
        checkWaiters()
    }

    /// Finishes the waits whose condition now holds, in the order they began. A `done` may
    /// start another wait or change state again; that wait is checked by its own start.
    func checkWaiters() {
        for id in waiters.keys.sorted() {
            guard let w = waiters[id], w.condition() else { continue }
            waiters[id] = nil
            w.deadline?.cancel()
            w.done(true)
        }
    }
}
