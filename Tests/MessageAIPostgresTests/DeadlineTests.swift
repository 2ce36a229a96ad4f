@testable import MessageAIPostgres
import XCTest

/// The store's deadline (Deadline.swift): one shared timer for every pending call. No database
/// needed: the operations are Swift's own sleeps and answers.
final class DeadlineTests: XCTestCase {
    /// An operation that never answers fails at its deadline, not at the end of its sleep, and
    /// is cancelled; a quick one returns its value; neither leaves an entry behind.
    func testAHungCallFailsAtItsDeadlineAndQuickOnesLeaveNothingBehind() async throws {
        let started = ContinuousClock.now
        do {
            _ = try await withDeadline(.milliseconds(200)) {
                try await Task.sleep(for: .seconds(30))
                return 0
            }
            XCTFail("a call that never answers must fail")
        } catch let error as PostgresStoreError {
            guard case .databaseUnavailable = error else { return XCTFail("\(error)") }
        }
        let waited = ContinuousClock.now - started
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(200))
        XCTAssertLessThan(waited, .seconds(10), "answered at the deadline, not after the sleep")

        // Many at once, with deadlines in every order: each gets its own answer.
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<500 {
                group.addTask { try await withDeadline(.milliseconds(Int64(1_000 + (i * 7919) % 4_000))) { i } }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(sums, (0..<500).reduce(0, +))
        XCTAssertEqual(DeadlineWatch.shared.pending, 0, "a call that ended in time leaves no entry")
    }

    /// A probe that reports the database gone answers the caller at once, long before the deadline.
    func testAProbeThatFindsTheDatabaseGoneAnswersBeforeTheDeadline() async throws {
        let started = ContinuousClock.now
        do {
            _ = try await withDeadline(.seconds(20), probe: (.milliseconds(100), { "connection refused" })) {
                try await Task.sleep(for: .seconds(30))
                return 0
            }
            XCTFail("the probe's answer must end the wait")
        } catch let error as PostgresStoreError {
            guard case .databaseUnavailable(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "connection refused")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
        XCTAssertEqual(DeadlineWatch.shared.pending, 0)
    }
}
