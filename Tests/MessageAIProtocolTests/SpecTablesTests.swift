import Foundation
import XCTest
@testable import MessageAIProtocol

/// The spec's tables against the code (issue 23: an independent client found frames missing
/// from the frame table, tags only in prose, error codes without numbers, capability bits
/// numbered three ways). Each field table the server fills is marked `<!-- fields: NAME -->`;
/// every tag a fully populated value of that type writes must be a row of its table.
final class SpecTablesTests: XCTestCase {
    private lazy var spec: String = (try? String(contentsOf: RepoPaths.spec, encoding: .utf8)) ?? ""
    private var lines: [Substring] { spec.split(separator: "\n", omittingEmptySubsequences: false) }

    func testFrameTableListsEveryFrameAndReservesNoneOfThem() throws {
        for entry in MessageRegistry.entries {
            let hex = String(format: "0x%04X", entry.type.frameType.rawValue)
            let row = lines.first { $0.hasPrefix("| \(hex) |") && $0.contains(entry.name) }
            XCTAssertNotNil(row, "\(entry.name) (\(hex)) has no row in a frame table")
        }
        // "Reserved" ranges must not cover a frame this version sends.
        let reserved = try XCTUnwrap(lines.first { $0.hasPrefix("- Frame types `0x") })
        let text = String(reserved)
        let pattern = try NSRegularExpression(pattern: "`0x([0-9A-F]{4})`(?:-`0x([0-9A-F]{4})`)?")
        let ranges = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m -> (UInt16, UInt16) in
            let low = String(text[Range(m.range(at: 1), in: text)!])
            let high = Range(m.range(at: 2), in: text).map { String(text[$0]) } ?? low
            return (UInt16(low, radix: 16)!, UInt16(high, radix: 16)!)
        }
        XCTAssertFalse(ranges.isEmpty)
        for entry in MessageRegistry.entries {
            let t = entry.type.frameType.rawValue
            XCTAssertFalse(ranges.contains { $0.0 <= t && t <= $0.1 }, "\(entry.name) is listed as reserved")
        }
    }

    func testErrorTableNumbersEveryCode() {
        for code in ErrorCode.allCases {
            let closes = code.closesConnection ? "closes" : "stays open"
            let row = lines.first { $0.hasPrefix("| \(code.rawValue) | \(code.name) | \(closes)") }
            XCTAssertNotNil(row, "error \(code.rawValue) \(code.name) (\(closes)) is not in the error table")
        }
    }

    /// One numbering: by value, in HELLO's table and in the conventions.
    func testCapabilitiesAreNamedByValue() throws {
        let named: [(Capabilities, String)] = [(.zlib, "zlib"), (.assistant, "assistant"), (.messageChanges, "messageChanges"),
                                              (.files, "files"), (.avatars, "avatars")]
        let hello = try XCTUnwrap(lines.first { $0.hasPrefix("| 3 | capabilities |") })
        let conventions = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("- **Capabilities**") })
        let convention = lines[conventions...conventions + 2].joined(separator: " ")
        for (bit, name) in named {
            XCTAssertTrue(hello.contains("\(bit.rawValue) = `\(name)`"), "HELLO does not name \(name) as \(bit.rawValue)")
            XCTAssertTrue(convention.contains("\(bit.rawValue) `\(name)`"), "the conventions do not name \(name) as \(bit.rawValue)")
        }
        XCTAssertNil(spec.range(of: #"capability bit \d"#, options: .regularExpression), "a capability named by bit position")
    }

    func testEveryFieldTheServerWritesIsInItsTable() throws {
        let tables = fieldTables()
        for (name, sample) in Self.samples {
            let documented = try XCTUnwrap(tables[name], "no `<!-- fields: \(name) -->` table")
            var w = FieldWriter()
            sample.encode(to: &w)
            let written = try Self.tags(of: w.bytes)
            let missing = written.subtracting(documented)
            XCTAssertTrue(missing.isEmpty, "\(name) writes tags \(missing.sorted()) its table does not list")
        }
    }

    func testSpecSaysTheServerSpeaksVersionTwo() {
        XCTAssertTrue(spec.contains("server speaks `[\(ProtocolVersion.minimum), \(ProtocolVersion.current)]`"))
    }

    /// NAME -> the tags in the first column of the table right after its marker.
    private func fieldTables() -> [String: Set<UInt8>] {
        var out: [String: Set<UInt8>] = [:]
        let all = lines
        for (i, line) in all.enumerated() {
            guard line.hasPrefix("<!-- fields: "), line.hasSuffix(" -->") else { continue }
            let name = line.dropFirst("<!-- fields: ".count).dropLast(" -->".count)
            var tags: Set<UInt8> = []
            var j = i + 3 // marker, header, separator
            while j < all.count, all[j].hasPrefix("| ") {
                if let t = all[j].split(separator: "|").first.flatMap({ UInt8($0.trimmingCharacters(in: .whitespaces)) }) { tags.insert(t) }
                j += 1
            }
            out[String(name)] = tags
        }
        return out
    }

    private static func tags(of payload: [UInt8]) throws -> Set<UInt8> {
        var tags: Set<UInt8> = []
        var i = 0
        while i < payload.count {
            let tag = payload[i]
            i += 1
            guard let (length, used) = Varint.read(payload[i...]) else { throw ProtocolError.malformedPayload("varint") }
            i += used + Int(length)
            tags.insert(tag)
        }
        return tags
    }

    // MARK: Fully populated values: every optional field set, every list non-empty.

    static let id16 = [UInt8](repeating: 7, count: 16)
    static let id32 = [UInt8](repeating: 9, count: 32)
    static let user = UserInfo(userID: 1, username: "ann", displayName: "Ann")
    static let attachment = Attachment(fileID: id16, name: "a.png", size: 3, mediaType: "image/png", sha256: id32,
                                       width: 2, height: 2, thumbnail: [1], caption: "c")
    static let message = ChatMessage(conversationID: 1, seq: 2, clientID: id16, senderID: 1, senderUsername: "ann", serverTime: 3,
                                     text: "t", kind: 2, replyTo: 1, editedAt: 4, deleted: true,
                                     reactions: [Reaction(emoji: "👍", userID: 1, username: "ann")], attachment: attachment)
    static let conversation = Conversation(conversationID: 1, kind: .group, name: "g", members: [user], lastSeq: 2, lastActivity: 3,
                                           unread: 1, lastMessage: message, deliveredSeq: 1, readSeq: 1, request: true, avatarID: id16)
    static let profile = Profile(user: user, online: true, lastSeen: 1, avatar: "", contactState: .accepted, away: true,
                                 awayMessage: "lunch", avatarID: id16, timeZone: "Asia/Tokyo")
    static let receipt = Receipt(conversationID: 1, userID: 1, username: "ann", deliveredSeq: 2, readSeq: 1)
    static let change = MessageChange(conversationID: 1, seq: 3, clientID: id16, actorID: 1, actorUsername: "ann", serverTime: 4,
                                      targetSeq: 2, action: .react, emoji: "👍", text: "t")
    static let item: AssistItem = {
        var i = AssistItem(itemID: 1, conversationID: 1, seq: 2, kind: .action, text: "t", who: "ann", due: "fri", from: "ben",
                           done: true, doneBy: "ann", doneAt: 5, rev: 6, engine: "local", engineVersion: "1")
        i.dueAt = 7; i.dueTimeZone = "Asia/Tokyo"
        return i
    }()
    static let action = AssistAction(what: "w", who: "ann", due: "fri")
    static let flag = AssistFlag(kind: "terse", reason: "r")
    static var welcome: Welcome {
        var w = Welcome(version: 2, capabilities: [.zlib, .assistant, .messageChanges, .files, .avatars], maxFrameLength: 1,
                        pingInterval: 1, idleTimeout: 1, maxMessageLength: 1, server: "s", maxInflatedLength: 1, maxGroupMembers: 1,
                        maxNameLength: 1, maxQueryLength: 1, sendLimit: 1, sendWindow: 1)
        w.assistantAnswerTimeout = 1; w.editWindow = 1
        w.maxFileSize = 1; w.fileQuota = 1; w.maxUploadsInFlight = 1; w.fileChunkSize = 1; w.maxImagePixels = 1
        return w
    }
    static var error: ErrorFrame {
        var e = ErrorFrame(.tooLong, "m", retryAfter: 1, limit: 1, field: "f")
        e.closes = true
        return e
    }

    static let samples: [(String, any FieldCodable)] = [
        ("User", user), ("Message", message), ("Reaction", Reaction(emoji: "👍", userID: 1, username: "ann")),
        ("Conversation", conversation), ("Profile", profile), ("Receipt", receipt), ("Attachment", attachment),
        ("Session", SessionInfo(sessionID: 1, device: "d", created: 1, lastUsed: 2, current: true)),
        ("AssistItem", item), ("AssistAction", action), ("AssistFlag", flag),
        ("WELCOME", welcome), ("ERROR", error), ("SESSION", SessionGranted(token: id16 + id16, sessionID: 1, user: user)),
        ("SESSIONS", Sessions(sessions: [SessionInfo(sessionID: 1, device: "d", created: 1, lastUsed: 2, current: true)])),
        ("USERS", Users(users: [user])), ("CONTACTS", Contacts(contacts: [profile])), ("CONTACT_UPDATE", ContactUpdate(profile: profile)),
        ("CONVERSATIONS", Conversations(conversations: [conversation])),
        ("SEND_ACK", SendAck(conversationID: 1, clientID: id16, seq: 1, serverTime: 1, duplicate: true)),
        ("HISTORY_PAGE", HistoryPage(conversationID: 1, messages: [message], hasMore: true)),
        ("SYNC_BATCH", SyncBatch(conversations: [conversation], messages: [message], receipts: [receipt], changes: [change])),
        ("SYNC_DONE", SyncDone(messageCount: 1, conversationCount: 1)),
        ("SEARCH_RESULTS", SearchResults(messages: [message], hasMore: true)),
        ("READERS_RESULT", ReadersResult(conversationID: 1, seq: 1, recipientCount: 1, deliveredTo: [user], readBy: [user])),
        ("MESSAGE_CHANGE", change),
        ("PRESENCE", Presence(user: user, online: true, lastSeen: 1, away: true, awayMessage: "lunch")),
        ("TYPING_EVENT", TypingEvent(conversationID: 1, user: user, ttl: 1)),
        ("FILE_UPLOAD", FileUpload(fileID: id16, chunkSize: 1, offset: 1, complete: true)),
        ("FILE_DATA", FileData(fileID: id16, offset: 1, data: [1], size: 1, sha256: id32)),
        ("ASSIST_ITEMS", AssistItems(items: [item], cursor: 1, hasMore: true)),
        ("ASSIST_SUMMARY_RESULT", AssistSummaryResult(conversationID: 1, fromSeq: 1, toSeq: 2, messageCount: 2, covered: 2, summary: "s",
                                                      keyPoints: ["k"], decisions: ["d"], actions: [action], openQuestions: ["q"],
                                                      engine: "local", engineVersion: "1", fallbackReason: "f", cached: true)),
        ("ASSIST_CHECK_RESULT", AssistCheckResult(clarity: [flag], tone: [flag], actions: [action], decision: "d", rewrite: "r",
                                                  engine: "local", engineVersion: "1", fallbackReason: "f")),
        ("ASSIST_SETTINGS", AssistSettings(conversationID: 1, providerOff: true, changedBy: "ann", providerAvailable: true, budgetLeft: 1)),
    ]
}

/// The text form of a message with a file (PROTOCOL.md, Files, "Text form").
final class TextFormTests: XCTestCase {
    func testTheNameIsEscapedSoItCannotForgeTheTextForm() {
        let a = Attachment(fileID: [], name: "x (1 B)] y", size: 3, caption: "v3")
        XCTAssertEqual(a.fallbackText, #"[file: x \(1 B\)\] y (3 B)] v3"#)
        XCTAssertEqual(Attachment(fileID: [], name: "a\\b[c]\n\u{202E}gnp.exe", size: 2048).fallbackText,
                       #"[file: a\\b\[c\]\u{A}\u{202E}gnp.exe (2.0 KiB)]"#)
        XCTAssertEqual(Attachment(fileID: [], name: "plan.pdf", size: 2048, caption: "the plan").fallbackText,
                       "[file: plan.pdf (2.0 KiB)] the plan", "an ordinary name reads as before")
    }
}
