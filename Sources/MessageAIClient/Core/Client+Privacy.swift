import Foundation
import MessageAIProtocol

extension Client {
    /// CONTACT_UPDATE: someone asked to add this user, or accepted their request.
    func handleContactUpdate(_ u: ContactUpdate) {
        switch u.profile.contactState {
        case .incoming:
            output.emit(PeopleEvent.contactRequest(u.profile))
        case .accepted:
            output.emit(PeopleEvent.contactAccepted(u.profile))
        default:
            break
        }
    }

    /// A stranger started a direct conversation: say it is a request, and how to answer it.
    func announceMessageRequest(_ c: Conversation) {
        let who = c.members.first { $0.userID != session?.userID }?.username ?? "someone"
        output.emit(PeopleEvent.messageRequest(conversationID: c.conversationID, user: who))
    }
}
