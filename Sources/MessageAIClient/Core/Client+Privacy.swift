import Foundation
import MessageAIProtocol

extension Client {
    /// CONTACT_UPDATE: someone asked to add this user, or accepted their request.
    func handleContactUpdate(_ u: ContactUpdate) {
        learn(u.profile)
        onChange()
        let who = u.profile.user.username
        var fields = PrivacyCommands.fields(u.profile)
        fields["user"] = who
        switch u.profile.contactState {
        case .incoming:
            output.emit("contact_request", fields, plain: "* \(who) wants to add you as a contact: /accept \(who) or /decline \(who)")
        case .accepted:
            output.emit("contact_accepted", fields, plain: "* \(who) is now a contact")
        default:
            break
        }
    }

    /// A stranger started a direct conversation: say it is a request, and how to answer it.
    func announceMessageRequest(_ c: Conversation) {
        let who = c.members.first { $0.userID != session?.userID }?.username ?? "someone"
        output.emit("message_request", ["conversation_id": c.conversationID, "user": who],
                    plain: "* message request from \(who): they do not see that you read it until you reply (/dm \(who)), or /block \(who)")
    }
}
