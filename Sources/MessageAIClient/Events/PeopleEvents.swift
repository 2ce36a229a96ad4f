import Foundation
import MessageAIProtocol

/// Other people: presence, typing, contact requests and message requests.
public enum PeopleEvent: ClientEvent {
    /// A contact came online or went offline (`lastSeen` 0: not known).
    case presence(user: String, online: Bool, lastSeen: UInt64)
    /// Someone is typing in a conversation (JSON only: the prompt shows it in the terminal).
    case typing(conversationID: UInt64, user: String)
    /// Someone asked to add this user as a contact.
    case contactRequest(Profile)
    /// Someone accepted this user's contact request.
    case contactAccepted(Profile)
    /// A stranger started a direct conversation.
    case messageRequest(conversationID: UInt64, user: String)

    public var type: String {
        switch self {
        case .presence: return "presence"
        case .typing: return "typing"
        case .contactRequest: return "contact_request"
        case .contactAccepted: return "contact_accepted"
        case .messageRequest: return "message_request"
        }
    }

    public var jsonFields: [String: Any] {
        switch self {
        case .presence(let user, let online, let lastSeen):
            var f: [String: Any] = ["user": user, "online": online]
            if lastSeen > 0 { f["last_seen"] = lastSeen }
            return f
        case .typing(let cid, let user):
            return ["conversation_id": cid, "user": user]
        case .contactRequest(let p), .contactAccepted(let p):
            var f = AccountCommands.profileFields(p)
            f["user"] = p.user.username
            return f
        case .messageRequest(let cid, let user):
            return ["conversation_id": cid, "user": user]
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case .presence(let user, let online, _):
            return Segment.line("* \(user) is \(online ? "online" : "offline")")
        case .typing:
            return nil
        case .contactRequest(let p):
            let who = p.user.username
            return Segment.line("* \(who) wants to add you as a contact: /accept \(who) or /decline \(who)")
        case .contactAccepted(let p):
            return Segment.line("* \(p.user.username) is now a contact")
        case .messageRequest(_, let who):
            return Segment.line("* message request from \(who): they do not see that you read it until you reply (/dm \(who)), or /block \(who)")
        }
    }
}
