import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The decisions on PROTOCOL-REVIEW.md's points, held to the server over real sockets: the
/// limits table, the username and name rules, TYPING's answer, WELCOME's announced limits.
final class SpecLimitsTests: XCTestCase {
    var server: TestServer!
    override func tearDown() { server?.stop() }

    func register(_ c: TestClient, _ username: String, displayName: String = "", device: String = "t") throws -> Frame {
        try c.wait(for: "register answer", timeout: 30) { [id = c.send(Register(
            email: "u\(username.lowercased().unicodeScalars.map { String($0.value) }.joined())@example.org", username: username, password: TestUsers.password,
            displayName: displayName, device: device))] in $0.requestID == id }
    }

    func testWelcomeAnnouncesTheLimitsAClientNeeds() throws {
        server = try TestServer { $0.maxFrameLength = 65_536 }
        let welcome = try TestClient(port: server.port).hello()
        XCTAssertEqual(welcome.maxFrameLength, 65_536)
        XCTAssertEqual(welcome.maxInflatedLength, 262_144, "4 × the frame limit, as enforced")
        XCTAssertEqual(welcome.maxGroupMembers, 256)
        XCTAssertEqual(welcome.maxNameLength, 64)
        XCTAssertEqual(welcome.maxQueryLength, 256)
        XCTAssertEqual(welcome.maxMessageLength, 10_000)
    }

    func testLengthLimitsAnswerTooLongWithTheLimit() throws {
        server = try TestServer()
        let alice = try TestUsers.register(["alice", "bob", "carol"], port: server.port)[0]
        let long = String(repeating: "é", count: 65)
        for (error, field) in [
            (try alice.requestError(ProfileUpdate(displayName: long)), "display_name"),
            (try alice.requestError(GroupCreate(name: long, usernames: ["bob", "carol"])), "name"),
            (try alice.requestError(SearchRequest(query: String(repeating: "q", count: 257))), "query"),
        ] {
            XCTAssertEqual(error.errorCode, .tooLong, field)
            XCTAssertEqual(error.field, field)
            XCTAssertEqual(error.limit, field == "query" ? 256 : 64)
        }
        let c = try server.client()
        let device = try register(c, "dana", device: String(repeating: "d", count: 65)).decode(ErrorFrame.self)
        XCTAssertEqual(device.errorCode, .tooLong)
        XCTAssertEqual(device.limit, 64)
    }

    func testUsernameRule() throws {
        server = try TestServer()
        let c = try server.client()
        for bad in [".dot", "-dash", "ab", "with space", "ünï"] {
            XCTAssertEqual(try register(c, bad).decode(ErrorFrame.self).errorCode, .invalidUsername, bad)
        }
        // Capitals are refused with the lowercase form to type instead (0.1.0 took them).
        let capitals = try register(try server.client(), "MixedCase").decode(ErrorFrame.self)
        XCTAssertEqual(capitals.errorCode, .invalidUsername)
        XCTAssertTrue(capitals.message.contains("try 'mixedcase'"), capitals.message)
        let mixed = try register(try server.client(), "mixedcase").decode(SessionGranted.self)
        _ = try register(try server.client(), "_under").decode(SessionGranted.self)
        XCTAssertEqual(try register(try server.client(), "mixedcase").decode(ErrorFrame.self).errorCode, .usernameTaken)
        let login = try server.client()
        let again: SessionGranted = try login.request(Login(login: "MIXEDCASE", password: TestUsers.password, device: "t"), timeout: 30)
        XCTAssertEqual(again.user.userID, mixed.user.userID, "logins ignore case")
    }

    func testNamesRefuseControlAndBidiCharactersAndEmptyResetsToTheUsername() throws {
        server = try TestServer()
        let users = try TestUsers.register(["alice", "bob", "carol"], port: server.port)
        let alice = users[0]
        for bad in ["\u{202E}gnp.exe", "tab\there", "line\nbreak", "\u{200D}", "   ", "nul\u{0}"] {
            let e = try alice.requestError(ProfileUpdate(displayName: bad))
            XCTAssertEqual(e.errorCode, .invalidArgument, bad.debugDescription)
            XCTAssertEqual(e.field, "display_name")
            let g = try alice.requestError(GroupCreate(name: bad, usernames: ["bob", "carol"]))
            XCTAssertEqual(g.errorCode, .invalidArgument, bad.debugDescription)
        }
        for good in ["👩‍👩‍👧 family", "مرحبا", "Zoë 🇫🇷", "東京"] {
            let p: Profile = try alice.request(ProfileUpdate(displayName: good))
            XCTAssertEqual(p.user.displayName, good)
        }
        let reset: Profile = try alice.request(ProfileUpdate(displayName: ""))
        XCTAssertEqual(reset.user.displayName, "alice", "empty means the username")
        let c = try server.client()
        XCTAssertEqual(try register(c, "dana", device: "evil\u{202E}").decode(ErrorFrame.self).errorCode, .invalidArgument)
    }

    /// Message text is delivered exactly as sent, controls included (the client neutralises
    /// them for the terminal; PipedModeTests checks that side).
    func testMessageTextIsDeliveredExactlyAsSent() throws {
        server = try TestServer()
        let users = try TestUsers.register(["alice", "bob"], port: server.port)
        let (alice, bob) = (users[0], users[1])
        let dm = try alice.openDM(with: "bob")
        let texts = ["line 1\r\nline 2\n\tindented — \u{202B}עברית\u{202C} and مرحبا", "clear \u{1B}[2J\u{1B}]0;pwned\u{07} done"]
        for text in texts {
            _ = try alice.sendText(text, in: dm.conversationID)
            XCTAssertEqual(try bob.push(ChatMessage.self).text, text)
        }
        // U+0000 is the one character refused, on every store (PostgreSQL's text cannot hold
        // it): neither stored nor cut at the NUL (NulTextTests runs this on both backends).
        let nul = try alice.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "nul\u{0}end"))
        XCTAssertEqual(nul.errorCode, .invalidArgument)
        XCTAssertEqual(nul.field, "text")
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), texts, "stored whole")
    }

    /// PING is answered while the connection's LOGIN is still being hashed.
    func testPingIsAnsweredDuringASlowLogin() throws {
        server = try TestServer { $0.pbkdf2Rounds = 3_000_000 }
        _ = try TestUsers.register(["alice"], port: server.port)
        let c = try server.client()
        let login = c.send(Login(login: "alice", password: TestUsers.password, device: "t"))
        let ping = c.send(Ping())
        let first = try c.wait(for: "first answer", timeout: 60) { $0.requestID == login || $0.requestID == ping }
        XCTAssertEqual(first.requestID, ping, "PONG before the slow SESSION")
        let _: SessionGranted = try c.answer(login, timeout: 60)
    }

    func testHelloClientLabelIsBoundedAndARefusedHelloCanBeRetried() throws {
        server = try TestServer()
        let c = try TestClient(port: server.port)
        let e = try c.requestError(Hello(capabilities: [], client: String(repeating: "x", count: 129)))
        XCTAssertEqual(e.errorCode, .tooLong)
        XCTAssertEqual(e.limit, 128)
        XCTAssertFalse(e.closes)
        let welcome = try c.hello()
        XCTAssertEqual(welcome.version, ProtocolVersion.current)
    }

    func testTypingWithARequestIDIsAnsweredOK() throws {
        server = try TestServer()
        let users = try TestUsers.register(["alice", "bob"], port: server.port)
        let (alice, bob) = (users[0], users[1])
        let dm = try alice.openDM(with: "bob")
        let _: OK = try alice.request(Typing(conversationID: dm.conversationID))
        XCTAssertEqual(try bob.push(TypingEvent.self).conversationID, dm.conversationID)
        let _: OK = try alice.request(Typing(conversationID: dm.conversationID)) // renewed too soon: dropped, still answered
        alice.send(Typing(conversationID: dm.conversationID).frame(requestID: 0))
        let _: Pong = try alice.request(Ping())
        XCTAssertFalse(alice.inbox.contains { $0.type == .ok }, "id 0: no answer")
    }

    func testGroupSizeIsBounded() throws {
        server = try TestServer()
        let alice = try TestUsers.register(["alice"], port: server.port)[0]
        // Accounts made in the store directly: 256 password hashes would take minutes.
        let names = (0..<256).map { "member\($0)" }
        try server.server.queue.sync {
            for n in names { _ = try server.store.createUser(email: "\(n)@example.org", username: n, displayName: n, passwordHash: "x", now: 1) }
        }
        let tooMany = try alice.requestError(GroupCreate(name: "everyone", usernames: names))
        XCTAssertEqual(tooMany.errorCode, .invalidArgument)
        XCTAssertEqual(tooMany.limit, 256)
        let full: Conversation = try alice.request(GroupCreate(name: "almost", usernames: Array(names.dropLast())))
        XCTAssertEqual(full.members.count, 256)
        let more = try alice.requestError(GroupAdd(conversationID: full.conversationID, usernames: [names.last!]))
        XCTAssertEqual(more.errorCode, .invalidArgument)
        XCTAssertEqual(more.limit, 256)
    }
}
