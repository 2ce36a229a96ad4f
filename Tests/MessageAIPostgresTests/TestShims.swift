import MessageAIPostgres
import MessageAIStore
import XCTest

// The tests' shorthand over the shared store interface: one text message, a user by name.
// Test-only: the store itself speaks MessageAIStore's records.

/// What appending one message gave: its place, and whether it was stored before (a resend).
struct AppendedMessage: Equatable {
    let seq: UInt64
    let serverTime: UInt64
    let duplicate: Bool
}

extension PostgresStore {
    /// One message through `append(_:)`; a reused client id throws `StoreError.conflict`.
    func appendMessage(conversationID: UInt64, senderID: UInt64, clientID: [UInt8], text: String, serverTime: UInt64,
                       replyTo: UInt64 = 0) async throws -> AppendedMessage {
        let outcome = try await append([NewMessage(conversationID: conversationID, senderID: senderID, clientID: clientID,
                                                   text: text, serverTime: serverTime, replyTo: replyTo)])
        switch outcome.first {
        case .stored(let m): return AppendedMessage(seq: m.seq, serverTime: m.serverTime, duplicate: false)
        case .duplicate(let m): return AppendedMessage(seq: m.seq, serverTime: m.serverTime, duplicate: true)
        case .clientIDReused, .refused, .rateLimited, nil: throw StoreError.conflict("client id already used")
        }
    }

    /// One message through `append(_:)`, as `appendMessage` answers.
    func append(_ new: NewMessage) async throws -> AppendedMessage {
        try await appendMessage(new)
    }

    func appendMessage(_ new: NewMessage) async throws -> AppendedMessage {
        switch try await append([new]).first {
        case .stored(let m): return AppendedMessage(seq: m.seq, serverTime: m.serverTime, duplicate: false)
        case .duplicate(let m): return AppendedMessage(seq: m.seq, serverTime: m.serverTime, duplicate: true)
        case .clientIDReused, .refused, .rateLimited, nil: throw StoreError.conflict("client id already used")
        }
    }

    /// A user by name (email NAME@example.org unless given); returns the id.
    func createUser(username: String, email: String, displayName: String, passwordHash: String, now: UInt64) async throws -> UInt64 {
        try await createUser(email: email, username: username, displayName: displayName, passwordHash: passwordHash, now: now).id
    }
}

/// Fails unless `body` throws `expected`.
func assertThrows(_ expected: StoreError, file: StaticString = #filePath, line: UInt = #line,
                  _ body: () async throws -> Void) async {
    do {
        try await body()
        XCTFail("expected \(expected), nothing was thrown", file: file, line: line)
    } catch let error as StoreError {
        XCTAssertEqual(error, expected, file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error)", file: file, line: line)
    }
}
