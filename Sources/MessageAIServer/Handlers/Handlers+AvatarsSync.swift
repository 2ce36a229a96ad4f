import MessageAIProtocol

/// The conversation helpers in their synchronous form (the SQLite store called directly), for
/// AVATAR_SET, whose group-avatar path is not yet converted to the asynchronous interface
/// (issue 25 stage B). Same rules as `group`, `view` and `pushConversation` in
/// `Handlers+Conversations.swift`; this file goes when AVATAR_SET is converted.
extension ChatServer {
    func groupNow(_ conversationID: UInt64, member: UInt64) throws -> ConversationRecord {
        try requireMember(conversationID, member)
        guard let record = try sqlite.conversation(id: conversationID) else {
            throw ServerError.notAMember(conversation: conversationID)
        }
        guard record.kind == .group else {
            throw ServerError.invalidArgument(.notAGroup(conversation: conversationID))
        }
        return record
    }

    func viewNow(_ conversationID: UInt64, for userID: UInt64) throws -> Conversation {
        guard let c = try sqlite.conversationView(id: conversationID, userID: userID) else {
            throw ServerError.notFound(.conversation(conversationID))
        }
        return Conversation(c)
    }

    func pushConversationNow(_ conversationID: UInt64, to users: [UInt64], except: Peer?) {
        delivery.send(to: users, except: except, only: { _ in true }) { userID in
            do {
                return try viewNow(conversationID, for: userID).frame(requestID: 0)
            } catch {
                logger.error("CONVERSATION push of \(conversationID) to user \(userID) failed: \(error)")
                return nil
            }
        }
    }
}
