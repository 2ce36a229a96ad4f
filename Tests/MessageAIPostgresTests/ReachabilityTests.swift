import MessageAIPostgres
import MessageAIStore
import XCTest

/// How long a caller waits on a database that is slow and on one that is gone, and the
/// sessions' `synchronous_commit` (the server's `--fsync`).
final class ReachabilityTests: PostgresTestCase {
    /// A database that is there but slow (a row lock held for 1.5 s) is no reason to refuse:
    /// the store's probes find it reachable and the send commits once the lock is released,
    /// well before the deadline.
    func testASlowDatabaseIsWaitedForNotRefused() async throws {
        let cluster = try XCTUnwrap(PostgresTestCase.cluster)
        let database = try newDatabase()
        let store = try await openStore(database: database, operationTimeout: .seconds(20))
        let (group, users) = try await makeGroup(store, users: 1)
        let holder = Thread {
            _ = try? cluster.psql("BEGIN; SELECT 1 FROM conversations WHERE id = \(group) FOR UPDATE; SELECT pg_sleep(1.5); COMMIT;",
                                  database: database)
        }
        holder.start()
        let deadline = ContinuousClock.now + .seconds(30)
        while try cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            XCTAssertLessThan(ContinuousClock.now, deadline, "the lock holder never slept")
            if ContinuousClock.now > deadline { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = ContinuousClock.now
        let sent = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                                 text: "behind the lock", serverTime: now())
        let waited = ContinuousClock.now - started
        XCTAssertEqual(sent.seq, 1)
        XCTAssertGreaterThan(waited, .milliseconds(500), "it waited for the lock, past several probes")
    }

    /// The pool's sessions run with the `synchronous_commit` asked for; both values wait
    /// for the WAL flush (`off` is not offered).
    func testSessionsUseTheSynchronousCommitAskedFor() async throws {
        let byDefault = try await openStore()
        let value = try await byDefault.sessionSetting("synchronous_commit")
        XCTAssertEqual(value, "on")
        let local = try await openStore(synchronousCommit: .local)
        let localValue = try await local.sessionSetting("synchronous_commit")
        XCTAssertEqual(localValue, "local")
    }
}
