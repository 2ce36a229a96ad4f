import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import Synchronization
import XCTest

/// PostgreSQL stopped under a send load: every caller gets a typed, retryable error in well
/// under a second (the store's probe finds the database gone; the deadline is 10 s);
/// nothing traps, nothing hangs.
final class DatabaseStopTests: PostgresTestCase {
    nonisolated(unsafe) private var ownCluster: TestCluster?

    /// Its own cluster, since the test stops it (started here, on the main thread).
    override func setUpWithError() throws {
        ownCluster = try TestCluster.start()
    }

    override func tearDown() async throws {
        try await super.tearDown()
        ownCluster?.stop()
    }

    func testStoppedDatabaseGivesDatabaseUnavailableInUnderASecond() async throws {
        let cluster = try XCTUnwrap(ownCluster)
        let store = try await openStore(on: cluster, maximumConnections: 4, operationTimeout: .seconds(10))
        let (group, users) = try await makeGroup(store, users: 4)
        let acknowledged = Acknowledged()
        // Each sender sends until its first failure, which it returns (bounded in count).
        let senders = Task {
            try await withThrowingTaskGroup(of: StoreError?.self) { tasks in
                for sender in users {
                    tasks.addTask {
                        for i in 0..<200_000 {
                            do {
                                _ = try await store.appendMessage(conversationID: group, senderID: sender, clientID: newClientID(),
                                                                  text: "load \(i)", serverTime: now())
                                acknowledged.count.add(1, ordering: .relaxed)
                            } catch let error as StoreError {
                                return error
                            } catch {
                                return StoreError.failed("untyped: \(error)")
                            }
                        }
                        return nil
                    }
                }
                var failures: [StoreError?] = []
                for try await failure in tasks { failures.append(failure) }
                return failures
            }
        }
        let started = ContinuousClock.now
        while acknowledged.count.load(ordering: .relaxed) < 200 {
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(30), "no load reached the database")
            if ContinuousClock.now - started > .seconds(30) { senders.cancel(); return }
            try await Task.sleep(for: .milliseconds(5))
        }
        cluster.stop()
        let stopped = ContinuousClock.now
        let failures = try await senders.value
        let answered = ContinuousClock.now - stopped
        print("figure: senders answered \(answered) after the database stopped")
        XCTAssertLessThan(answered, .seconds(1), "senders answered long before the deadline")
        XCTAssertEqual(failures.count, users.count)
        for failure in failures {
            if case .some(.unavailable) = failure { continue }
            XCTFail("expected unavailable, got \(String(describing: failure))")
        }
        // A call made after the stop is answered once the probe finds nothing listening, not at
        // the store's deadline (10 s), nor when the pool gives up connecting (60 s).
        let later = ContinuousClock.now
        do {
            _ = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                              text: "after", serverTime: now())
            XCTFail("a send to a stopped database succeeded")
        } catch {
            if case StoreError.unavailable = error {} else { XCTFail("expected StoreError.unavailable, got \(error)") }
        }
        print("figure: a send after the stop answered in \(ContinuousClock.now - later)")
        XCTAssertLessThan(ContinuousClock.now - later, .seconds(1))
    }
}

final class Acknowledged: Sendable {
    let count = Atomic<Int>(0)
}
