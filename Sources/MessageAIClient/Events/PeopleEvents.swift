import Foundation
import MessageAIProtocol

/// Other people: typing, contact requests and message requests (presence: PresenceEvent).
public enum PeopleEvent: ClientEvent {
    /// Someone is typing in a conversation (JSON only: the prompt shows it in the terminal).
    case typing(conversationID: UInt64, user: String)
    /// Someone asked to add this user as a contact.
    case contactRequest(Profile)
    /// Someone accepted this user's contact request.
    case contactAccepted(Profile)
    /// A stranger started a direct conversation.
    case messageRequest(conversationID: UInt64, user: String)
    /// A contact (or this user, on another device) set or removed their profile picture;
    /// `path` is the picture in the cache (nil: removed, or it could not be fetched).
    case avatarChanged(Profile, path: String?, mine: Bool)

    public var type: String {
        switch self {
        case .typing: return "typing"
        case .contactRequest: return "contact_request"
        case .contactAccepted: return "contact_accepted"
        case .messageRequest: return "message_request"
        case .avatarChanged: return "avatar"
        }
    }

    public var jsonFields: [String: Any] {
        switch self {
        case .typing(let cid, let user):
            return ["conversation_id": cid, "user": user]
        case .contactRequest(let p), .contactAccepted(let p):
            var f = AccountCommands.profileFields(p)
            f["user"] = p.user.username
            return f
        case .messageRequest(let cid, let user):
            return ["conversation_id": cid, "user": user]
        case .avatarChanged(let p, let path, let mine):
            var f: [String: Any] = ["user": p.user.username, "avatar_id": Hex.encode(p.avatarID), "mine": mine]
            if let path { f["avatar_path"] = path }
            return f
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case .typing:
            return nil
        case .contactRequest(let p):
            let who = p.user.username
            return Segment.line("* \(who) wants to add you as a contact: /accept \(who) or /decline \(who)")
        case .contactAccepted(let p):
            return Segment.line("* \(p.user.username) is now a contact")
        case .messageRequest(_, let who):
            return Segment.line("* message request from \(who): they do not see that you read it until you reply (/dm \(who)), or /block \(who)")
        case .avatarChanged(let p, let path, let mine):
            let who = mine ? "your" : "\(p.user.username)'s"
            if p.avatarID.isEmpty { return Segment.line("* \(who) profile picture was removed") }
            return Segment.line("* \(mine ? "you have" : p.user.username + " has") a new profile picture" + (path == nil ? " (not fetched)" : ""))
        }
    }
}
