import XCTest
@testable import MessageAIClient

/// The two renderers: JSON lines exactly as scripts have always read them (keys sorted, the
/// same "type" names), terminal lines sanitised and coloured only where a tint says so.
final class EventRenderingTests: XCTestCase {
    private let message = StoredMessage(conversationID: 7, seq: 42, clientID: "00ff", senderID: 2, sender: "bob",
                                        text: "hi @alice \u{1B}[2J👍🏽", serverTime: 1_700_000_000_000, sentHere: false)

    private func json(_ e: ClientEvent) -> String { JSONLinesRenderer().render(e) ?? "" }
    private func term(_ e: ClientEvent, colour: Bool = false) -> String? { TerminalRenderer(colour: colour).render(e) }

    func testJSONLinesKeepTheirBytes() {
        XCTAssertEqual(json(ConnectionEvent.lost(reason: "eof", shown: false)), #"{"reason":"eof","state":"offline","type":"connection"}"# + "\n")
        XCTAssertEqual(json(PeopleEvent.presence(user: "bob", online: true, lastSeen: 0)), #"{"online":true,"type":"presence","user":"bob"}"# + "\n")
        XCTAssertEqual(json(Notice("a/b", conversation: 3)), #"{"conversation_id":3,"text":"a/b","type":"notice"}"# + "\n")
        XCTAssertEqual(json(ErrorEvent(command: "/dm", ClientError("not_found", "no user"))),
                       #"{"code":"not_found","command":"/dm","message":"no user","type":"error"}"# + "\n")
        let line = MessageLine(message: message, conversation: "bob", showsRef: true, me: "alice")
        XCTAssertEqual(json(MessageEvent.elsewhere(line, unread: 2, notice: true)),
                       #"{"client_id":"00ff","conversation":"bob","conversation_id":7,"sender":"bob","seq":42,"server_time":1700000000000,"#
                           + #""text":"hi @alice \u001b[2J👍🏽","type":"message","unread":2}"# + "\n")
    }

    func testJSONOnlyEventsShowNothingInTheTerminal() {
        XCTAssertNil(term(PeopleEvent.typing(conversationID: 1, user: "bob")))
        XCTAssertNil(term(ConnectionEvent.reconnecting))
        XCTAssertNil(term(MessageEvent.summarised(MessageLine(message: message, conversation: "bob", showsRef: false, me: nil))))
    }

    func testTerminalLinesAreSanitisedAndColouredByTint() throws {
        let line = MessageLine(message: message, conversation: "bob", showsRef: true, me: "alice")
        let plain = try XCTUnwrap(term(MessageEvent.shown(line)))
        XCTAssertTrue(plain.hasSuffix("#42 bob: hi @alice \u{FFFD}[2J👍🏽\n"), plain)
        XCTAssertFalse(plain.contains("\u{1B}"))
        let coloured = try XCTUnwrap(term(MessageEvent.shown(line), colour: true))
        XCTAssertTrue(coloured.contains("\u{1B}[\(Palette.user("bob"))mbob\u{1B}[0m"), coloured)
        XCTAssertTrue(coloured.contains("\u{1B}[\(Palette.mention)mhi @alice \u{FFFD}[2J👍🏽\u{1B}[0m"), coloured)
        // Nothing but the palette's own codes: the message's escape stays neutralised.
        XCTAssertFalse(coloured.contains("\u{1B}[2J"))
    }

    func testOwnMultiLineMessageClosesItsColourBeforeEachNewline() throws {
        let mine = StoredMessage(conversationID: 7, seq: 3, clientID: "01", senderID: 1, sender: "alice",
                                 text: "one\ntwo", serverTime: 0, sentHere: true)
        let out = try XCTUnwrap(term(MessageEvent.shown(MessageLine(message: mine, conversation: "bob", showsRef: false, me: "alice")), colour: true))
        XCTAssertTrue(out.contains("one\u{1B}[0m\n\u{1B}[\(Palette.own)mtwo\u{1B}[0m\n"), out)
    }

    func testOutputSendsEachEventThroughItsModesRenderer() {
        var written: [(String, Output.Stream)] = []
        for json in [false, true] {
            let output = Output(json: json)
            output.write = { written.append(($0, $1)) }
            output.emit(PeopleEvent.presence(user: "bob", online: false, lastSeen: 5))
            output.error(command: "", ClientError("offline", "not connected"))
        }
        XCTAssertEqual(written.map(\.0), [
            "* bob is offline\n", "error: not connected\n",
            #"{"last_seen":5,"online":false,"type":"presence","user":"bob"}"# + "\n",
            #"{"code":"offline","command":"","message":"not connected","type":"error"}"# + "\n", "error: not connected\n",
        ])
        XCTAssertEqual(written.map { $0.1 == .err }, [false, true, false, false, true])
    }
}
