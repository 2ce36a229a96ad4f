/// Every frame type this version knows: its spec name, its payload type and who sends it.
/// Dispatchers and tests walk this table instead of switching over types.
public enum MessageRegistry {
    public enum Sender: String, Sendable { case client, server, both }

    public struct Entry: Sendable {
        public let name: String
        public let type: any WireMessage.Type
        public let sentBy: Sender
    }

    public static let entries: [Entry] = [
        Entry(name: "HELLO", type: Hello.self, sentBy: .client),
        Entry(name: "WELCOME", type: Welcome.self, sentBy: .server),
        Entry(name: "PING", type: Ping.self, sentBy: .both),
        Entry(name: "PONG", type: Pong.self, sentBy: .both),
        Entry(name: "ERROR", type: ErrorFrame.self, sentBy: .server),
        Entry(name: "OK", type: OK.self, sentBy: .server),
        Entry(name: "REGISTER", type: Register.self, sentBy: .client),
        Entry(name: "LOGIN", type: Login.self, sentBy: .client),
        Entry(name: "RESUME", type: Resume.self, sentBy: .client),
        Entry(name: "SESSION", type: SessionGranted.self, sentBy: .server),
        Entry(name: "LOGOUT", type: Logout.self, sentBy: .client),
        Entry(name: "SESSIONS_LIST", type: SessionsList.self, sentBy: .client),
        Entry(name: "SESSIONS", type: Sessions.self, sentBy: .server),
        Entry(name: "SESSION_REVOKE", type: SessionRevoke.self, sentBy: .client),
        Entry(name: "PROFILE_UPDATE", type: ProfileUpdate.self, sentBy: .client),
        Entry(name: "PASSWORD_CHANGE", type: PasswordChange.self, sentBy: .client),
        Entry(name: "USER_SEARCH", type: UserSearch.self, sentBy: .client),
        Entry(name: "USERS", type: Users.self, sentBy: .server),
        Entry(name: "CONTACT_ADD", type: ContactAdd.self, sentBy: .client),
        Entry(name: "CONTACT_REMOVE", type: ContactRemove.self, sentBy: .client),
        Entry(name: "CONTACTS_LIST", type: ContactsList.self, sentBy: .client),
        Entry(name: "CONTACTS", type: Contacts.self, sentBy: .server),
        Entry(name: "PROFILE_GET", type: ProfileGet.self, sentBy: .client),
        Entry(name: "PROFILE", type: Profile.self, sentBy: .server),
        Entry(name: "CONTACT_ACCEPT", type: ContactAccept.self, sentBy: .client),
        Entry(name: "CONTACT_DECLINE", type: ContactDecline.self, sentBy: .client),
        Entry(name: "CONTACT_UPDATE", type: ContactUpdate.self, sentBy: .server),
        Entry(name: "BLOCK", type: Block.self, sentBy: .client),
        Entry(name: "UNBLOCK", type: Unblock.self, sentBy: .client),
        Entry(name: "BLOCKED_LIST", type: BlockedList.self, sentBy: .client),
        Entry(name: "DM_OPEN", type: DMOpen.self, sentBy: .client),
        Entry(name: "CONVERSATION", type: Conversation.self, sentBy: .server),
        Entry(name: "GROUP_CREATE", type: GroupCreate.self, sentBy: .client),
        Entry(name: "GROUP_ADD", type: GroupAdd.self, sentBy: .client),
        Entry(name: "GROUP_RENAME", type: GroupRename.self, sentBy: .client),
        Entry(name: "GROUP_LEAVE", type: GroupLeave.self, sentBy: .client),
        Entry(name: "CONVERSATIONS_LIST", type: ConversationsList.self, sentBy: .client),
        Entry(name: "CONVERSATIONS", type: Conversations.self, sentBy: .server),
        Entry(name: "SEND", type: Send.self, sentBy: .client),
        Entry(name: "SEND_ACK", type: SendAck.self, sentBy: .server),
        Entry(name: "MESSAGE", type: ChatMessage.self, sentBy: .server),
        Entry(name: "MARK", type: Mark.self, sentBy: .client),
        Entry(name: "RECEIPT", type: Receipt.self, sentBy: .server),
        Entry(name: "HISTORY", type: HistoryRequest.self, sentBy: .client),
        Entry(name: "HISTORY_PAGE", type: HistoryPage.self, sentBy: .server),
        Entry(name: "SYNC", type: SyncRequest.self, sentBy: .client),
        Entry(name: "SYNC_BATCH", type: SyncBatch.self, sentBy: .server),
        Entry(name: "SYNC_DONE", type: SyncDone.self, sentBy: .server),
        Entry(name: "SEARCH", type: SearchRequest.self, sentBy: .client),
        Entry(name: "SEARCH_RESULTS", type: SearchResults.self, sentBy: .server),
        Entry(name: "READERS", type: ReadersRequest.self, sentBy: .client),
        Entry(name: "READERS_RESULT", type: ReadersResult.self, sentBy: .server),
        Entry(name: "CHANGE", type: ChangeRequest.self, sentBy: .client),
        Entry(name: "MESSAGE_CHANGE", type: MessageChange.self, sentBy: .server),
        Entry(name: "PRESENCE", type: Presence.self, sentBy: .server),
        Entry(name: "TYPING", type: Typing.self, sentBy: .client),
        Entry(name: "TYPING_EVENT", type: TypingEvent.self, sentBy: .server),
        Entry(name: "AWAY", type: AwaySet.self, sentBy: .client),
        Entry(name: "ASSIST_ITEMS_LIST", type: AssistItemsList.self, sentBy: .client),
        Entry(name: "ASSIST_ITEMS", type: AssistItems.self, sentBy: .server),
        Entry(name: "ASSIST_ITEM_DONE", type: AssistItemDone.self, sentBy: .client),
        Entry(name: "ASSIST_SYNC", type: AssistSync.self, sentBy: .client),
        Entry(name: "ASSIST_SUMMARY", type: AssistSummary.self, sentBy: .client),
        Entry(name: "ASSIST_SUMMARY_RESULT", type: AssistSummaryResult.self, sentBy: .server),
        Entry(name: "ASSIST_CHECK", type: AssistCheck.self, sentBy: .client),
        Entry(name: "ASSIST_CHECK_RESULT", type: AssistCheckResult.self, sentBy: .server),
        Entry(name: "ASSIST_SETTINGS_SET", type: AssistSettingsSet.self, sentBy: .client),
        Entry(name: "ASSIST_SETTINGS", type: AssistSettings.self, sentBy: .server),
        Entry(name: "ASSIST_SETTINGS_GET", type: AssistSettingsGet.self, sentBy: .client),
        Entry(name: "FILE_ANNOUNCE", type: FileAnnounce.self, sentBy: .client),
        Entry(name: "FILE_UPLOAD", type: FileUpload.self, sentBy: .server),
        Entry(name: "FILE_CHUNK", type: FileChunk.self, sentBy: .client),
        Entry(name: "FILE_STATUS", type: FileStatus.self, sentBy: .client),
        Entry(name: "FILE_GET", type: FileGet.self, sentBy: .client),
        Entry(name: "FILE_DATA", type: FileData.self, sentBy: .server),
        Entry(name: "AVATAR_SET", type: AvatarSet.self, sentBy: .client),
    ]

    private static let byType: [FrameType: Entry] = {
        var d: [FrameType: Entry] = [:]
        for e in entries { d[e.type.frameType] = e }
        return d
    }()

    public static func entry(for type: FrameType) -> Entry? { byType[type] }
    public static func name(of type: FrameType) -> String? { byType[type]?.name }

    /// Decodes any known frame into its typed message; nil for an unknown frame type.
    public static func decode(_ frame: Frame, maxInflated: Int = Compression.defaultMaxInflated) throws(ProtocolError) -> (any WireMessage)? {
        guard let e = byType[frame.type] else { return nil }
        return try e.type.init(from: FieldReader(frame.fieldBytes(maxInflated: maxInflated)))
    }
}
