import Foundation
import MessageAIProtocol

/// Contact requests and blocking: /requests, /accept, /decline, /block, /unblock, /blocked.
/// /add and /contacts (Commands+People) answer through `request` and `contacts` here.
enum PrivacyCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/requests", "/requests", "list incoming contact requests and message requests", server: true, run: requests),
        CommandSpec("/accept", "/accept USER", "accept USER's contact request", server: true, args: 1...1, run: accept),
        CommandSpec("/decline", "/decline USER", "decline USER's contact request (they are not told)", server: true, args: 1...1, run: decline),
        CommandSpec("/block", "/block USER", "block USER: no messages, requests or presence (they are not told)", server: true, args: 1...1, run: block),
        CommandSpec("/unblock", "/unblock USER", "unblock USER", server: true, args: 1...1, run: unblock),
        CommandSpec("/blocked", "/blocked", "list the users you block", server: true, run: blocked),
    ]

    static func stateName(_ s: ContactState) -> String {
        switch s {
        case .none: return "none"
        case .accepted: return "accepted"
        case .requested: return "requested"
        case .incoming: return "incoming"
        }
    }

    static func fields(_ p: Profile) -> [String: Any] { AccountCommands.profileFields(p) }

    /// Presence for accepted contacts (and one's own profile); the request's direction for the
    /// others, and no "offline" for people whose presence is simply not shown.
    static func line(_ p: Profile) -> String {
        if p.contactState == .none && p.online { return AccountCommands.profileLine(p) }
        switch p.contactState {
        case .accepted: return AccountCommands.profileLine(p)
        case .requested: return "\(p.user.username) (\(p.user.displayName)): request sent, not accepted yet"
        case .incoming: return "\(p.user.username) (\(p.user.displayName)): wants to add you (/accept \(p.user.username) or /decline \(p.user.username))"
        case .none: return "\(p.user.username) (\(p.user.displayName))"
        }
    }

    /// /add: a request, or an accept when they had asked first.
    static func request(_ inv: Invocation) {
        inv.client.call(ContactAdd(username: inv.args[0]), for: inv, expect: Profile.self) { p in
            inv.client.learn(p)
            let plain = p.contactState == .accepted
                ? "\(p.user.username) is now a contact" : "contact request sent to \(p.user.username)"
            inv.succeed("ok", fields(p), plain: plain)
        }
    }

    static func contacts(_ inv: Invocation) {
        inv.client.call(ContactsList(), for: inv, expect: Contacts.self) { c in
            for p in c.contacts { inv.client.learn(p) }
            inv.succeed("contacts", ["contacts": c.contacts.map(fields)],
                        plain: c.contacts.isEmpty ? "no contacts yet: /add USER" : c.contacts.map(line).joined(separator: "\n"))
        }
    }

    /// Contact requests, then message requests (direct conversations from non-contacts not yet
    /// answered), both read from the server so they are current.
    static func requests(_ inv: Invocation) {
        inv.client.call(ContactsList(), for: inv, expect: Contacts.self) { c in
            let incoming = c.contacts.filter { $0.contactState == .incoming }
            inv.client.call(ConversationsList(), for: inv, expect: Conversations.self) { list in
                let me = inv.client.session?.userID
                let held = list.conversations.filter(\.request).map { conv -> (Conversation, String) in
                    (conv, conv.members.first { $0.userID != me }?.username ?? "")
                }
                let messages: [[String: Any]] = held.map { conv, who in
                    ["conversation_id": conv.conversationID, "user": who, "unread": conv.unread,
                     "last_text": conv.lastMessage?.text ?? ""]
                }
                var lines = incoming.map(line)
                lines += held.map { conv, who in
                    "message request from \(who) (\(conv.unread) unread): reply in /dm \(who) to accept, or /block \(who)"
                }
                inv.succeed("requests", ["requests": incoming.map(fields), "messages": messages],
                            plain: lines.isEmpty ? "no contact or message requests" : lines.joined(separator: "\n"))
            }
        }
    }

    static func accept(_ inv: Invocation) {
        inv.client.call(ContactAccept(username: inv.args[0]), for: inv, expect: Profile.self) { p in
            inv.client.learn(p)
            inv.succeed("ok", fields(p), plain: "\(p.user.username) is now a contact")
        }
    }

    static func decline(_ inv: Invocation) {
        inv.client.call(ContactDecline(username: inv.args[0]), for: inv, expect: OK.self) { _ in
            inv.succeed("ok", ["username": inv.args[0]], plain: "declined \(inv.args[0])'s request")
        }
    }

    static func block(_ inv: Invocation) {
        inv.client.call(Block(username: inv.args[0]), for: inv, expect: OK.self) { _ in
            inv.succeed("ok", ["username": inv.args[0]], plain: "blocked \(inv.args[0]); they are not told")
        }
    }

    static func unblock(_ inv: Invocation) {
        inv.client.call(Unblock(username: inv.args[0]), for: inv, expect: OK.self) { _ in
            inv.succeed("ok", ["username": inv.args[0]], plain: "unblocked \(inv.args[0])")
        }
    }

    static func blocked(_ inv: Invocation) {
        inv.client.call(BlockedList(), for: inv, expect: Users.self) { u in
            inv.succeed("blocked", ["users": u.users.map { ["username": $0.username, "display_name": $0.displayName] }],
                        plain: u.users.isEmpty ? "you block nobody" : u.users.map(\.username).joined(separator: "\n"))
        }
    }
}
