import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Runs one test body against an in-memory database and a temp-file database, so both kinds
/// the server can use are covered by the same assertions (GRDB does the same).
enum StoreKind: CaseIterable, CustomStringConvertible {
    case memory, file
    var description: String { self == .memory ? "in-memory" : "temp-file" }
}

/// A temporary directory removed when the test ends.
final class TempDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("store-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    var databasePath: String { url.appendingPathComponent("messageai.sqlite").path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

extension XCTestCase {
    func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                      _ body: (SQLiteStore, StoreKind) throws -> Void) {
        for kind in StoreKind.allCases {
            do {
                let dir = try TempDirectory()
                let store = try SQLiteStore(path: kind == .memory ? ":memory:" : dir.databasePath)
                defer { store.close() }
                try body(store, kind)
            } catch {
                XCTFail("\(kind): \(error)", file: file, line: line)
            }
        }
    }
}

/// Small builders so tests read as scenarios.
extension SQLiteStore {
    @discardableResult
    func makeUser(_ name: String, now: UInt64 = 1_000) throws -> UserRecord {
        try createUser(email: "\(name)@example.com", username: name, displayName: name.capitalized,
                       passwordHash: "pbkdf2$test$\(name)", now: now)
    }

    func send(_ sender: UserRecord, _ conversation: UInt64, _ text: String, time: UInt64 = 2_000,
              clientID: [UInt8]? = nil) throws -> AppendOutcome {
        let outcome = try append([NewMessage(conversationID: conversation, senderID: sender.id,
                                             clientID: clientID ?? newClientID(), text: text, serverTime: time)])
        return outcome[0]
    }
}

func newClientID() -> [UInt8] {
    withUnsafeBytes(of: UUID().uuid) { Array($0) }
}

extension AppendOutcome {
    var message: StoredMessage {
        switch self {
        case .stored(let m), .duplicate(let m): return m
        case .clientIDReused(let m): return m!
        case .refused: preconditionFailure("refused: the sender is not a member")
        case .rateLimited: fatalError("no send limit in these tests")
        }
    }
    var isDuplicate: Bool {
        if case .duplicate = self { return true }
        return false
    }
}

extension SQLiteStore {
    /// The admin capability, asked for through the interface (`Store.admin`) but called with
    /// SQLite's own synchronous methods, so that these store tests need no `await` per line.
    var adminCapability: SQLiteStore? { admin == nil ? nil : self }
}
