/// DM_OPEN: the one direct conversation with `username`, created on first use (answered with CONVERSATION).
public struct DMOpen: WireMessage {
    public static let frameType = FrameType.dmOpen
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// GROUP_CREATE: the creator plus at least two others (answered with CONVERSATION).
public struct GroupCreate: WireMessage {
    public static let frameType = FrameType.groupCreate
    public var name: String
    public var usernames: [String]
    public init(name: String, usernames: [String]) { self.name = name; self.usernames = usernames }
    public init(from f: FieldReader) throws(ProtocolError) {
        name = try f.string(1, "name"); usernames = try f.strings(2, "usernames")
    }
    public func encode(to w: inout FieldWriter) { w.string(1, name); for u in usernames { w.string(2, u) } }
}

/// GROUP_ADD: any member adds members (answered with CONVERSATION).
public struct GroupAdd: WireMessage {
    public static let frameType = FrameType.groupAdd
    public var conversationID: UInt64
    public var usernames: [String]
    public init(conversationID: UInt64, usernames: [String]) { self.conversationID = conversationID; self.usernames = usernames }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); usernames = try f.strings(2, "usernames")
    }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID); for u in usernames { w.string(2, u) } }
}

/// GROUP_RENAME: any member renames (answered with CONVERSATION).
public struct GroupRename: WireMessage {
    public static let frameType = FrameType.groupRename
    public var conversationID: UInt64
    public var name: String
    public init(conversationID: UInt64, name: String) { self.conversationID = conversationID; self.name = name }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); name = try f.string(2, "name")
    }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID); w.string(2, name) }
}

/// GROUP_LEAVE: answered with OK; the others get CONVERSATION with the new member list.
public struct GroupLeave: WireMessage {
    public static let frameType = FrameType.groupLeave
    public var conversationID: UInt64
    public init(conversationID: UInt64) { self.conversationID = conversationID }
    public init(from f: FieldReader) throws(ProtocolError) { conversationID = try f.uint(1, "conversation_id") }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID) }
}

/// CONVERSATIONS_LIST: answered with CONVERSATIONS, most recent activity first.
public struct ConversationsList: WireMessage {
    public static let frameType = FrameType.conversationsList
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

public struct Conversations: WireMessage {
    public static let frameType = FrameType.conversations
    public var conversations: [Conversation]
    public init(conversations: [Conversation]) { self.conversations = conversations }
    public init(from f: FieldReader) throws(ProtocolError) { conversations = try f.records(1, "conversations") }
    public func encode(to w: inout FieldWriter) { w.records(1, conversations) }
}
