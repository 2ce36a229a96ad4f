import Foundation
import MessageAIProtocol
import XCTest

/// The assistant's flags on the real executable: the API key file must be private, the key is
/// never printed, and `--assistant off` takes the capability away.
final class AssistantProcessTests: XCTestCase {
    private func run(_ arguments: [String]) throws -> (status: Int32, out: String) { try ChildServer.run(arguments) }

    func testAKeyFileOthersCanReadIsRefusedAndTheKeyIsNeverPrinted() throws {
        let dir = try ServerTestDirectory()
        let key = dir.path + "/key"
        let secret = "sk-test-\(UUID().uuidString)"
        try (secret + "\n").write(toFile: key, atomically: true, encoding: .utf8)
        chmod(key, 0o644)
        let refused = try run(["--port", "0", "--data-dir", dir.path + "/data", "--plaintext",
                               "--assistant-base-url", "http://127.0.0.1:9", "--assistant-api-key-file", key])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.out.contains("chmod 600"), refused.out)
        XCTAssertFalse(refused.out.contains(secret))

        chmod(key, 0o600)
        let child = try ChildServer(dataDir: dir.path + "/data", arguments: [
            "--log-level", "info", "--assistant-base-url", "http://127.0.0.1:9", "--assistant-api-key-file", key])
        let c = try TestClient(port: child.port)
        let welcome = try c.hello(capabilities: [.zlib, .assistant])
        XCTAssertTrue(welcome.capabilities.contains(.assistant))
        XCTAssertEqual(child.terminate(), 0)
        XCTAssertTrue(child.stderr.contains("key set"), child.stderr)
        XCTAssertFalse(child.stderr.contains(secret), "the key is never logged")
    }

    func testAKeyIsNeverAFlag() throws {
        let r = try run(["--assistant-api-key", "sk-nope"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.out.contains("Unknown option"), r.out)
    }

    func testAssistantOffTakesTheCapabilityAway() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data", arguments: ["--assistant", "off"])
        let c = try TestClient(port: child.port)
        let welcome = try c.hello(capabilities: [.zlib, .assistant])
        XCTAssertFalse(welcome.capabilities.contains(.assistant))
        XCTAssertEqual(child.terminate(), 0)
    }
}
