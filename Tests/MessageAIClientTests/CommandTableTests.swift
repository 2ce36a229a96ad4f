import XCTest
@testable import MessageAIClient

final class CommandTableTests: XCTestCase {
    func testParsesMessagesCommandsAndSubcommands() {
        XCTAssertEqual(InputLine.parse("   "), .empty)
        XCTAssertEqual(InputLine.parse("hello there"), .message("hello there"))
        XCTAssertEqual(InputLine.parse("//not a command"), .message("/not a command"))
        XCTAssertEqual(InputLine.parse("/DM  Bob"), .command(name: "/dm", args: ["Bob"]))
        XCTAssertEqual(InputLine.parse("/group create team bob carol"), .command(name: "/group create", args: ["team", "bob", "carol"]))
        XCTAssertEqual(InputLine.parse("/group"), .command(name: "/group", args: []))
        XCTAssertEqual(InputLine.parse("/wait read 5"), .command(name: "/wait", args: ["read", "5"]))
    }

    func testQuotedWordsKeepTheirSpaces() {
        XCTAssertEqual(InputLine.parse(#"/group create "Launch team" bob carol"#),
                       .command(name: "/group create", args: ["Launch team", "bob", "carol"]))
        XCTAssertEqual(InputLine.parse(#"/open "Launch team""#), .command(name: "/open", args: ["Launch team"]))
        XCTAssertEqual(InputLine.parse("/group rename Bob's room"), .command(name: "/group rename", args: ["Bob's", "room"]))
        XCTAssertEqual(InputLine.parse(#"/open "unclosed name"#), .command(name: "/open", args: ["unclosed name"]))
        XCTAssertEqual(InputLine.parse(#"/name """#), .command(name: "/name", args: [""]))
    }

    /// Exactly the commands the CLI contract lists.
    func testTableHasTheContractCommands() {
        let contract = ["/help", "/register", "/login", "/logout", "/whoami", "/profile", "/passwd", "/name", "/search", "/add",
                        "/remove", "/contacts", "/dm", "/group create", "/group add", "/group rename", "/group leave",
                        "/group members", "/list", "/open", "/history", "/find", "/info", "/queue", "/retry", "/quit",
                        "/wait", "/wait-messages", "/follow", "/server", "/check", "/summary", "/actions", "/decisions",  // /server: issue 12 (TLS)
                        "/next",  // issue 16: jump to the next conversation with unread messages
                        "/requests", "/accept", "/decline", "/block", "/unblock", "/blocked",  // issue 15: consent
                        "/away", "/back", "/me", "/mute", "/unmute", "/unread", "/mentions", "/clear", "/set",  // issue 16: missing
                        "/reply", "/react", "/reactions", "/edit", "/delete",  // issue 17: message changes
                        "/done", "/undo", "/rewrite", "/take", "/assistant",  // issue 10: the server's assistant
                        "/send-file", "/files", "/save",  // issue 11: files
                        "/avatar", "/group avatar",  // issue 11: profile pictures and group avatars
                        "/sessions", "/revoke",  // issue 27: one's own sessions
                        "/catchup",  // issue 28: a catch-up across conversations
                        "/tz"]  // issue 28: due dates in every reader's time zone
        XCTAssertEqual(Set(CommandTable.all.map(\.name)), Set(contract))
        XCTAssertEqual(CommandTable.all.count, contract.count, "no duplicate names")
        for spec in CommandTable.all {
            XCTAssertTrue(spec.usage.hasPrefix(spec.name), spec.name)
            XCTAssertFalse(spec.help.isEmpty, spec.name)
            XCTAssertLessThanOrEqual(spec.minArgs, spec.maxArgs, spec.name)
        }
        XCTAssertEqual(CommandTable.groupNames, ["/group"])
        XCTAssertTrue(CommandTable.words.contains("/wait-messages"))
    }

    func testServerAddressParsing() {
        XCTAssertTrue(ClientConfiguration.parseServer("127.0.0.1:7878")! == ("127.0.0.1", 7878))
        XCTAssertTrue(ClientConfiguration.parseServer("[::1]:9")! == ("::1", 9))
        XCTAssertNil(ClientConfiguration.parseServer("localhost"))
        XCTAssertNil(ClientConfiguration.parseServer(":80"))
        XCTAssertNil(ClientConfiguration.parseServer("host:0"))
        XCTAssertNil(ClientConfiguration.parseServer("host:99999"))
    }
}
