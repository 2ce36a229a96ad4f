import Crypto
import Foundation
import MessageAIProtocol
import XCTest

/// A logged-in fuzzing client and the world it acts in (FuzzWorld). Frames that end the
/// session (LOGOUT, a revoked session, a second HELLO that closes) are followed by a new
/// connection and a LOGIN, so the sweep goes on as a logged-in user.
final class FuzzSession {
    static let capabilities: Capabilities = [.zlib, .assistant, .files, .messageChanges, .avatars]
    let port: Int
    let name: String
    private(set) var client: TestClient
    private(set) var world: FuzzWorld
    private(set) var relogins = 0
    /// Answers that were internal_error: the server caught something it did not expect.
    private(set) var internalErrors: [String] = []
    private var nextID: UInt32 = 1

    init(port: Int, name: String) throws {
        self.port = port
        self.name = name
        let users = try TestUsers.register(["\(name)me", "\(name)peer", "\(name)third"], port: port, capabilities: Self.capabilities)
        client = users[0]
        let dm = try users[0].openDM(with: users[1].username)
        let group: Conversation = try users[0].request(GroupCreate(name: "fuzz", usernames: [users[1].username, users[2].username]))
        try users[1].sendText("first from the peer", in: dm.conversationID)
        let hello = Array("hello".utf8)
        let upload: FileUpload = try users[0].request(FileAnnounce(name: "notes.txt", size: 5, mediaType: "text/plain",
                                                                  sha256: Array(SHA256.hash(data: hello))))
        let done: FileUpload = try users[0].request(FileChunk(fileID: upload.fileID, offset: 0, data: hello))
        XCTAssertTrue(done.complete)
        let last: SendAck = try users[0].request(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                      text: "a file", attachment: Attachment(fileID: upload.fileID, caption: "notes")))
        world = FuzzWorld(peer: users[1].username, thirdUser: users[2].username, dm: dm.conversationID,
                          group: group.conversationID, lastSeq: last.seq, fileID: upload.fileID, token: users[0].token)
    }

    /// Sends one frame and returns its answer (nil when the connection closed after an ERROR).
    /// Throws when the frame got no answer, or when the server process is gone.
    @discardableResult
    func exchange(_ type: FrameType, _ payload: [UInt8], server: ChildServer? = nil) throws -> Frame? {
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        client.send(Frame(type: type, requestID: id, payload: payload))
        if type == .pong {
            // A PONG is itself an answer (PROTOCOL.md, PING): a PING behind it shows it was read.
            return try exchange(.ping, [], server: server)
        }
        let answer: Frame
        do {
            answer = try client.wait(for: "answer to \(type)", timeout: 30) { $0.requestID == id }
        } catch {
            if let server, !server.process.isRunning {
                throw TestTimeout(what: "an answer to \(type): the server stopped; stderr: \(server.stderr.suffix(3000))")
            }
            guard client.closedByServer else { throw error }
            // A close must be explained by an ERROR first (a closing error), with id 0 or ours.
            guard client.inbox.contains(where: { $0.type == .error }) else {
                throw TestTimeout(what: "an answer to \(type) (closed with no ERROR)")
            }
            try relogin()
            return nil
        }
        if answer.type == .error, let e = try? answer.decode(ErrorFrame.self) {
            if e.errorCode == .internalError { internalErrors.append("\(type): \(e.message)") }
            if e.errorCode == .notAuthenticated || e.errorCode.map({ $0.closesConnection }) == true { try relogin() }
        }
        if client.inbox.count > 200 { client.clearInbox() }
        return answer
    }

    private func relogin() throws {
        relogins += 1
        let c = try TestClient(port: port)
        try c.hello(capabilities: Self.capabilities)
        let s = try Self.login(c, "\(name)me")
        c.user = s.user
        c.token = s.token
        client = c
        world.token = s.token
    }

    /// LOGIN with the test password. The fuzz's own mutated LOGINs fail from this address and
    /// account, and a long run meets the failed-login throttle (issue 23): the answer says when
    /// to come back, and the session waits that long, as the client's outbox does.
    static func login(_ c: TestClient, _ login: String) throws -> SessionGranted {
        let deadline = Date().addingTimeInterval(180)
        while true {
            do {
                return try c.request(Login(login: login, password: TestUsers.password), timeout: 30)
            } catch let e as ErrorFrame where e.errorCode == .throttled && e.retryAfter > 0 && Date() < deadline {
                Thread.sleep(forTimeInterval: Double(e.retryAfter) / 1000 + 0.05)
            }
        }
    }
}
