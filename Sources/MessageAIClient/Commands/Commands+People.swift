import Foundation
import MessageAIProtocol

/// /search, /add, /remove, /contacts
enum PeopleCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/search", "/search TEXT", "find people by the start of their username, any word of their display name, or their exact email",
                    server: true, args: 1...8, run: search),
        CommandSpec("/add", "/add USER", "ask USER to be a contact (or accept their request)", server: true, args: 1...1, run: add),
        CommandSpec("/remove", "/remove USER", "remove a contact", server: true, args: 1...1, run: remove),
        CommandSpec("/contacts", "/contacts", "list contacts (presence once accepted) and requests", server: true, run: contacts),
    ]

    static func search(_ inv: Invocation) {
        inv.client.call(UserSearch(prefix: inv.rest(from: 0)), for: inv, expect: Users.self) { u in
            let lines = u.users.map { $0.displayName.isEmpty ? $0.username : "\($0.username) (\($0.displayName))" }
            inv.succeed("users", ["users": u.users.map { ["username": $0.username, "display_name": $0.displayName] }],
                        plain: lines.isEmpty ? "no users found" : lines.joined(separator: "\n"))
        }
    }

    static func add(_ inv: Invocation) { PrivacyCommands.request(inv) }

    static func remove(_ inv: Invocation) {
        inv.client.call(ContactRemove(username: inv.args[0]), for: inv, expect: OK.self) { _ in
            inv.succeed("ok", ["username": inv.args[0]], plain: "removed \(inv.args[0]) from your contacts")
        }
    }

    static func contacts(_ inv: Invocation) { PrivacyCommands.contacts(inv) }
}
