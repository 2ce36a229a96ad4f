import Foundation
@testable import MessageAIAssistantProvider
import XCTest

/// The key comes from a 0600 file or an environment variable and never prints.
final class ProviderConfigurationTests: XCTestCase {
    private func tempFile(_ text: String, mode: Int) throws -> String {
        let path = NSTemporaryDirectory() + "messageai-key-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testKeyFileIsReadTrimmedAndNeverPrinted() throws {
        let key = try APIKey.fromFile(try tempFile("  sk-file-secret-123 \nsecond line\n", mode: 0o600))
        XCTAssertEqual(key.value, "sk-file-secret-123")
        XCTAssertFalse("\(key)".contains("secret"))
        XCTAssertFalse(String(reflecting: key).contains("secret"))
    }

    func testKeyFileReadableByOthersIsRefusedWithoutShowingTheKey() throws {
        let path = try tempFile("sk-file-secret-123\n", mode: 0o644)
        XCTAssertThrowsError(try APIKey.fromFile(path)) { error in
            XCTAssertTrue("\(error)".contains("chmod 600"), "\(error)")
            XCTAssertFalse("\(error)".contains("secret"))
        }
        XCTAssertThrowsError(try APIKey.fromFile(try tempFile("\n", mode: 0o600)))
        XCTAssertThrowsError(try APIKey.fromFile("/nonexistent/key"))
    }

    func testKeyFromEnvironment() throws {
        XCTAssertEqual(try APIKey.fromEnvironment("K", environment: ["K": "sk-env\n"]).value, "sk-env")
        XCTAssertThrowsError(try APIKey.fromEnvironment("K", environment: [:]))
    }

    func testCompletionsURLAcceptsBaseWithOrWithoutV1() {
        for base in ["http://h:1", "http://h:1/", "http://h:1/v1", "http://h:1/v1/"] {
            let c = ProviderConfiguration(baseURL: URL(string: base)!, model: "m")
            XCTAssertEqual(c.completionsURL.absoluteString, "http://h:1/v1/chat/completions")
        }
    }
}
