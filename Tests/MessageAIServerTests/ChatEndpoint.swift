import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The provider tests' chat-completions server (Tests/MessageAIAssistantProviderTests/
/// fake_chat_server.py), a real process on loopback, for the server's provider extraction.
/// The first path segment of the base URL picks its behaviour; `/_requests` lists what it got.
final class ChatEndpoint {
    private let process = Process()
    private let stdin = Pipe(), stdout = Pipe()
    let port: Int

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MessageAIAssistantProviderTests/fake_chat_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Its first line is the port (readLine-like, with a deadline).
        let first = DispatchSemaphore(value: 0)
        let box = Box()
        let handle = stdout.fileHandleForReading
        DispatchQueue.global().async {
            var bytes = Data()
            while case let c = handle.readData(ofLength: 1), !c.isEmpty, c != Data("\n".utf8) { bytes.append(c) }
            box.text = String(decoding: bytes, as: UTF8.self)
            first.signal()
        }
        guard first.wait(timeout: .now() + 20) == .success, let p = Int(box.text) else {
            process.terminate()
            throw XCTSkip("the fake chat server did not start (python3 missing?)")
        }
        port = p
    }

    func url(_ mode: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(mode)")! }

    /// The user prompts (the text sent to the model) of every request of this mode so far.
    func prompts(mode: String) -> [String] {
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/_requests")!) { data, _, _ in
            box.data = data ?? Data()
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        let all = (try? JSONSerialization.jsonObject(with: box.data)) as? [[String: Any]] ?? []
        return all.filter { ($0["path"] as? String)?.hasPrefix("/\(mode)/") == true }.compactMap {
            (($0["body"] as? [String: Any])?["messages"] as? [[String: Any]])?.last?["content"] as? String
        }
    }

    func stop() {
        try? stdin.fileHandleForWriting.close() // the script exits when its stdin closes
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    private final class Box: @unchecked Sendable { var text = ""; var data = Data() }
}
