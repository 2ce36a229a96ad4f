import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The misbehaving chat-completions server (fake_chat_server.py), a real process on loopback.
/// Its behaviour is chosen per engine by the first path segment of the base URL.
final class FakeChatServer {
    let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()
    let port: Int

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fake_chat_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // The first line is the port; wait for it with a deadline, not a sleep.
        let got = DispatchSemaphore(value: 0)
        let line = LineBox()
        let handle = stdout.fileHandleForReading
        DispatchQueue.global().async {
            var bytes = Data()
            while true {
                let chunk = handle.readData(ofLength: 1)
                if chunk.isEmpty || chunk == Data("\n".utf8) { break }
                bytes.append(chunk)
            }
            line.value = String(decoding: bytes, as: UTF8.self)
            got.signal()
        }
        guard got.wait(timeout: .now() + 20) == .success, let p = Int(line.value ?? "") else {
            process.terminate()
            throw XCTSkip("the fake chat server did not start (python3 missing?)")
        }
        port = p
    }

    func baseURL(_ mode: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(mode)")! }

    /// Every request seen so far: path, Authorization header, JSON body.
    func requests(mode: String? = nil) -> [[String: Any]] {
        let all = (get("/_requests") as? [[String: Any]]) ?? []
        guard let mode else { return all }
        return all.filter { ($0["path"] as? String)?.hasPrefix("/\(mode)/") == true }
    }

    /// The most requests of this mode the server was handling at the same moment.
    func mostAtOnce(mode: String) -> Int { ((get("/_stats/\(mode)") as? [String: Any])?["most_at_once"] as? Int) ?? -1 }

    private func get(_ path: String) -> Any? {
        let done = DispatchSemaphore(value: 0)
        let box = LineBox()
        URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)\(path)")!) { data, _, _ in
            box.data = data
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let data = box.data else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }

    func stop() {
        try? stdin.fileHandleForWriting.close() // the script exits when its stdin closes
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// Test cases sharing one fake server per class, stopped when the class is done.
class FakeServerTestCase: XCTestCase {
    static var server: FakeChatServer?
    var server: FakeChatServer { Self.server! }

    override class func setUp() {
        super.setUp()
        server = try? FakeChatServer()
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        if Self.server == nil { throw XCTSkip("python3 is needed for the fake chat server") }
    }
}

private final class LineBox: @unchecked Sendable {
    var value: String?
    var data: Data?
}

/// Runs `body` on another thread and fails (instead of hanging the suite) if it has not
/// returned by the deadline: the engine promises bounded calls, so a hang is the bug to report.
func withinDeadline<T>(_ seconds: Double, file: StaticString = #filePath, line: UInt = #line, _ body: @escaping () -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    let box = ResultHolder<T>()
    DispatchQueue.global().async {
        box.value = body()
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else {
        XCTFail("the call did not return within \(seconds) s", file: file, line: line)
        return nil
    }
    return box.value
}

private final class ResultHolder<T>: @unchecked Sendable {
    var value: T?
}
