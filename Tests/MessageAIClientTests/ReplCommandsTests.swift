import Foundation
import MessageAIProtocol
import XCTest
@testable import MessageAIClient

/// The text rules behind /me, /mentions and the prompt's "seen 5m ago".
final class ReplCommandsTests: XCTestCase {
    func testActionsAndMentions() {
        XCTAssertEqual(Action.of("/me waves 👋🏽"), "waves 👋🏽")
        XCTAssertNil(Action.of("/me "))
        XCTAssertNil(Action.of("/meh"))
        XCTAssertNil(Action.of("me waves"))
        XCTAssertTrue(Mention.matches("@alice are you there?", "alice"))
        XCTAssertTrue(Mention.matches("ask Alice.", "alice"))
        XCTAssertTrue(Mention.matches("thanks al.ice", "al.ice"))
        XCTAssertFalse(Mention.matches("malice aforethought", "alice"))
        XCTAssertFalse(Mention.matches("alice_b said", "alice"))
        XCTAssertEqual(RelativeTime.ago(1_000, now: 31_000), "just now")
        XCTAssertEqual(RelativeTime.ago(0, now: 5 * 60_000 + 10), "5m ago")
        XCTAssertEqual(RelativeTime.ago(0, now: 3 * 3_600_000), "3h ago")
        XCTAssertEqual(RelativeTime.ago(0, now: 2 * 86_400_000), "2d ago")
    }

    private func line(_ text: String, sender: String = "bob", name: String? = nil, me: String? = "alice") -> MessageLine {
        MessageLine(message: StoredMessage(conversationID: 7, seq: 5, clientID: "00", senderID: 2, sender: sender, text: text,
                                           serverTime: 1_700_000_000_000, sentHere: false),
                    conversation: "team", showsRef: true, me: me, senderName: name)
    }

    func testAnActionReadsAsOneOnTheTerminalAndKeepsItsTextInJSON() throws {
        let waves = line("/me waves 👋🏽")
        XCTAssertTrue(waves.text.hasSuffix("#5 * bob waves 👋🏽"), waves.text)
        XCTAssertEqual(waves.jsonFields["text"] as? String, "/me waves 👋🏽", "scripts get the text as sent")
        XCTAssertEqual(waves.jsonFields["action"] as? String, "waves 👋🏽")
        XCTAssertEqual(MessageEvent.notice(waves, unread: 2), "* [team] bob waves 👋🏽 (2 unread, /next)")
        XCTAssertNil(line("hi").jsonFields["action"])
        let coloured = try XCTUnwrap(TerminalRenderer(colour: true).render(MessageEvent.shown(line("/me pokes @alice"))))
        XCTAssertTrue(coloured.contains("* \u{1B}[\(Palette.user("bob"))mbob\u{1B}[0m \u{1B}[\(Palette.mention)mpokes @alice"), coloured)
        XCTAssertEqual(Client.ownLine("alice", "/me nods"), "* alice nods")
    }

    func testDisplayNamesShowWithTheUsernameOnlyWhereTheyCouldBeConfused() {
        let client = Client(config: ClientConfiguration(), output: Output(json: true))
        let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
        let bob = UserInfo(userID: 2, username: "bob", displayName: "Bob Builder")
        let mallory = UserInfo(userID: 3, username: "mallory", displayName: "alice")
        let twin = UserInfo(userID: 4, username: "bob2", displayName: "Bob Builder")
        XCTAssertEqual(client.displayLabel(alice, among: [alice, bob]), "alice", "a name that is only the username's capitals")
        XCTAssertEqual(client.displayLabel(bob, among: [alice, bob]), "Bob Builder")
        XCTAssertEqual(client.displayLabel(mallory, among: [alice, mallory]), "alice (mallory)", "no passing for another member")
        XCTAssertEqual(client.displayLabel(bob, among: [bob, twin]), "Bob Builder (bob)")
        XCTAssertEqual(client.displayLabel(twin, among: [bob, twin]), "Bob Builder (bob2)")
        let shown = line("hi", name: "Bob Builder")
        XCTAssertTrue(shown.text.hasSuffix("#5 Bob Builder: hi"), shown.text)
        XCTAssertEqual(shown.jsonFields["sender"] as? String, "bob")
        XCTAssertEqual(shown.jsonFields["sender_name"] as? String, "Bob Builder")
    }

    func testPresenceLinesTellAwayAndBackFromComingOnline() {
        let bob = UserInfo(userID: 2, username: "bob", displayName: "")
        let online = PeerPresence(online: true, lastSeen: 0, away: false, awayMessage: "")
        let term = { (e: PresenceEvent) in TerminalRenderer(colour: false).render(e) ?? "" }
        XCTAssertEqual(term(PresenceEvent(presence: Presence(user: bob, online: true, lastSeen: 0, away: true, awayMessage: "lunch"), before: online)),
                       "* bob is away: lunch\n")
        var away = online
        away.away = true
        XCTAssertEqual(term(PresenceEvent(presence: Presence(user: bob, online: true, lastSeen: 0), before: away)), "* bob is back\n")
        XCTAssertEqual(term(PresenceEvent(presence: Presence(user: bob, online: false, lastSeen: 9, away: true), before: away)),
                       "* bob is offline (away)\n")
        XCTAssertEqual(term(PresenceEvent(presence: Presence(user: bob, online: true, lastSeen: 0), before: nil)), "* bob is online\n")
        let json = JSONLinesRenderer().render(PresenceEvent(presence: Presence(user: bob, online: true, lastSeen: 0, away: true, awayMessage: "lunch"), before: nil))
        XCTAssertEqual(json, #"{"away":true,"away_message":"lunch","online":true,"type":"presence","user":"bob"}"# + "\n")
    }

    func testTimesCanBeTurnedOffWithoutDoubleSpaces() {
        let output = Output(json: false)
        output.timestampFormat = "off"
        defer { output.timestampFormat = "HH:mm" }
        XCTAssertEqual(line("hi").text, "[team] #5 bob: hi")
        output.timestampFormat = "HH:mm:ss"
        XCTAssertNotNil(line("hi").text.range(of: #"^\[team\] \d\d:\d\d:\d\d #5 bob: hi$"#, options: .regularExpression), line("hi").text)
    }
}
