import Foundation
import MessageAIProtocol

/// /avatar and /group avatar
enum AvatarCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/avatar", "/avatar PATH|off", "set your profile picture from an image (JPEG, PNG, WebP), or remove it",
                    server: true, args: 1...Int.max, run: avatar),
        CommandSpec("/group avatar", "/group avatar PATH|off", "set the current group's avatar (any member may), or remove it",
                    server: true, args: 1...Int.max, run: groupAvatar),
    ]

    /// The path, or nil for "off"/"none"/"remove".
    private static func path(_ inv: Invocation) -> String? {
        let given = inv.rest(from: 0)
        if ["off", "none", "remove"].contains(given.lowercased()) { return nil }
        return (given as NSString).expandingTildeInPath
    }

    static func avatar(_ inv: Invocation) {
        let path = path(inv)
        inv.client.setAvatar(path: path, conversationID: 0) { result in
            switch result {
            case .failure(let e): inv.fail(e)
            case .success(let f):
                guard let p = try? f.decode(Profile.self) else { inv.fail("bad_answer", "unexpected \(f.type)"); return }
                inv.succeed("ok", ["avatar_id": Hex.encode(p.avatarID)],
                            plain: p.avatarID.isEmpty ? "profile picture removed" : "profile picture set")
            }
        }
    }

    static func groupAvatar(_ inv: Invocation) {
        guard let g = ConversationCommands.currentGroup(inv) else { return }
        inv.client.setAvatar(path: path(inv), conversationID: g.id) { result in
            switch result {
            case .failure(let e): inv.fail(e)
            case .success(let f):
                guard let c = try? f.decode(Conversation.self) else { inv.fail("bad_answer", "unexpected \(f.type)"); return }
                try? inv.client.store?.upsert(c)
                inv.client.onChange()
                inv.succeed("ok", ["conversation_id": c.conversationID, "avatar_id": Hex.encode(c.avatarID)],
                            plain: c.avatarID.isEmpty ? "[\(c.name)]'s avatar removed" : "[\(c.name)]'s avatar set")
            }
        }
    }
}
