/// SEND: store a message (answered with SEND_ACK once it is committed). Idempotent by client_id.
public struct Send: WireMessage {
    public static let frameType = FrameType.send
    public var conversationID: UInt64
    public var clientID: [UInt8]
    public var text: String
    /// The seq of the message this one answers in the same conversation (0: none). Needs
    /// messageChanges; an older server ignores it and stores a plain message.
    public var replyTo: UInt64
    /// Capability `files`: one attachment (its `file_id`; `text` is then the caption, may be empty).
    public var attachment: Attachment?
    public init(conversationID: UInt64, clientID: [UInt8], text: String, replyTo: UInt64 = 0, attachment: Attachment? = nil) {
        self.conversationID = conversationID; self.clientID = clientID; self.text = text; self.replyTo = replyTo
        self.attachment = attachment
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); clientID = try f.bytes(2, "client_id", count: 16)
        text = try f.string(3, "text"); replyTo = try f.optionalUInt(4, "reply_to_seq")
        attachment = try f.optionalRecord(24, "attachment")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.bytes(2, clientID); w.string(3, text); w.optionalUInt(4, replyTo)
        if let attachment { w.record(24, attachment) }
    }
}

/// SEND_ACK: the message is durable. A resend of a stored client_id gets the original seq and time.
public struct SendAck: WireMessage {
    public static let frameType = FrameType.sendAck
    public var conversationID: UInt64
    public var clientID: [UInt8]
    public var seq: UInt64
    public var serverTime: UInt64
    /// Set when the message had been stored before (a resend).
    public var duplicate: Bool
    public init(conversationID: UInt64, clientID: [UInt8], seq: UInt64, serverTime: UInt64, duplicate: Bool = false) {
        self.conversationID = conversationID; self.clientID = clientID; self.seq = seq
        self.serverTime = serverTime; self.duplicate = duplicate
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); clientID = try f.bytes(2, "client_id", count: 16)
        seq = try f.uint(3, "seq"); serverTime = try f.uint(4, "server_time"); duplicate = try f.bool(5, "duplicate")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.bytes(2, clientID); w.uint(3, seq); w.uint(4, serverTime); w.optionalBool(5, duplicate)
    }
}

/// MARK: move this user's delivered and/or read marker forward (never back). Answered with OK
/// unless sent with request id 0. Read implies delivered.
public struct Mark: WireMessage {
    public static let frameType = FrameType.mark
    public var conversationID: UInt64
    public var deliveredSeq: UInt64
    public var readSeq: UInt64
    public init(conversationID: UInt64, deliveredSeq: UInt64 = 0, readSeq: UInt64 = 0) {
        self.conversationID = conversationID; self.deliveredSeq = deliveredSeq; self.readSeq = readSeq
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id")
        deliveredSeq = try f.optionalUInt(2, "delivered_seq"); readSeq = try f.optionalUInt(3, "read_seq")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.optionalUInt(2, deliveredSeq); w.optionalUInt(3, readSeq)
    }
}

/// HISTORY: a page of messages before `beforeSeq` (0: the newest), answered with HISTORY_PAGE.
public struct HistoryRequest: WireMessage {
    public static let frameType = FrameType.history
    public var conversationID: UInt64
    public var beforeSeq: UInt64
    /// 0 means 50; the server caps it at 500.
    public var limit: UInt64
    public init(conversationID: UInt64, beforeSeq: UInt64 = 0, limit: UInt64 = 0) {
        self.conversationID = conversationID; self.beforeSeq = beforeSeq; self.limit = limit
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id")
        beforeSeq = try f.optionalUInt(2, "before_seq"); limit = try f.optionalUInt(3, "limit")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.optionalUInt(2, beforeSeq); w.optionalUInt(3, limit)
    }
}

public struct HistoryPage: WireMessage {
    public static let frameType = FrameType.historyPage
    public var conversationID: UInt64
    /// Ascending by seq.
    public var messages: [ChatMessage]
    /// Older messages exist before the first one here.
    public var hasMore: Bool
    public init(conversationID: UInt64, messages: [ChatMessage], hasMore: Bool) {
        self.conversationID = conversationID; self.messages = messages; self.hasMore = hasMore
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); messages = try f.records(2, "messages")
        hasMore = try f.bool(3, "has_more")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.records(2, messages); w.optionalBool(3, hasMore)
    }
}

/// One conversation the client already has, and the last seq it holds of it.
public struct SyncPosition: FieldCodable, Equatable {
    public var conversationID: UInt64
    public var lastSeq: UInt64
    public init(conversationID: UInt64, lastSeq: UInt64) { self.conversationID = conversationID; self.lastSeq = lastSeq }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); lastSeq = try f.optionalUInt(2, "last_seq")
    }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID); w.optionalUInt(2, lastSeq) }
}

/// SYNC: what the client holds; the server answers with SYNC_BATCH frames then SYNC_DONE,
/// all with this request id. Conversations not listed are sent whole.
public struct SyncRequest: WireMessage {
    public static let frameType = FrameType.sync
    public var positions: [SyncPosition]
    public init(positions: [SyncPosition]) { self.positions = positions }
    public init(from f: FieldReader) throws(ProtocolError) { positions = try f.records(1, "positions") }
    public func encode(to w: inout FieldWriter) { w.records(1, positions) }
}

/// SYNC_BATCH: part of a sync answer; compressed when both peers have zlib.
public struct SyncBatch: WireMessage {
    public static let frameType = FrameType.syncBatch
    /// Conversations whose metadata the client lacks or that changed (new ones, renamed ones).
    public var conversations: [Conversation]
    /// Missing messages, ascending by seq within each conversation.
    public var messages: [ChatMessage]
    /// Every member's markers in the batch's conversations.
    public var receipts: [Receipt]
    /// Changes (messageChanges only) above the client's position, ascending by seq, after the
    /// batch's messages of the same conversation.
    public var changes: [MessageChange]
    public init(conversations: [Conversation], messages: [ChatMessage], receipts: [Receipt], changes: [MessageChange] = []) {
        self.conversations = conversations; self.messages = messages; self.receipts = receipts; self.changes = changes
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversations = try f.records(1, "conversations"); messages = try f.records(2, "messages")
        receipts = try f.records(3, "receipts"); changes = try f.records(4, "changes")
    }
    public func encode(to w: inout FieldWriter) {
        w.records(1, conversations); w.records(2, messages); w.records(3, receipts); w.records(4, changes)
    }
}

/// SYNC_DONE: the sync answer is complete; later messages arrive as MESSAGE pushes.
public struct SyncDone: WireMessage {
    public static let frameType = FrameType.syncDone
    public var messageCount: UInt64
    public var conversationCount: UInt64
    public init(messageCount: UInt64, conversationCount: UInt64) {
        self.messageCount = messageCount; self.conversationCount = conversationCount
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        messageCount = try f.optionalUInt(1, "message_count"); conversationCount = try f.optionalUInt(2, "conversation_count")
    }
    public func encode(to w: inout FieldWriter) { w.optionalUInt(1, messageCount); w.optionalUInt(2, conversationCount) }
}

/// SEARCH: full-text search over the user's conversations, newest first (answered with SEARCH_RESULTS).
public struct SearchRequest: WireMessage {
    public static let frameType = FrameType.search
    public var query: String
    /// 0: every conversation of the user.
    public var conversationID: UInt64
    /// Results to skip, for the next page.
    public var offset: UInt64
    /// 0 means 20; capped at 100.
    public var limit: UInt64
    public init(query: String, conversationID: UInt64 = 0, offset: UInt64 = 0, limit: UInt64 = 0) {
        self.query = query; self.conversationID = conversationID; self.offset = offset; self.limit = limit
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        query = try f.string(1, "query"); conversationID = try f.optionalUInt(2, "conversation_id")
        offset = try f.optionalUInt(3, "offset"); limit = try f.optionalUInt(4, "limit")
    }
    public func encode(to w: inout FieldWriter) {
        w.string(1, query); w.optionalUInt(2, conversationID); w.optionalUInt(3, offset); w.optionalUInt(4, limit)
    }
}

public struct SearchResults: WireMessage {
    public static let frameType = FrameType.searchResults
    public var messages: [ChatMessage]
    public var hasMore: Bool
    public init(messages: [ChatMessage], hasMore: Bool) { self.messages = messages; self.hasMore = hasMore }
    public init(from f: FieldReader) throws(ProtocolError) {
        messages = try f.records(1, "messages"); hasMore = try f.bool(2, "has_more")
    }
    public func encode(to w: inout FieldWriter) { w.records(1, messages); w.optionalBool(2, hasMore) }
}

/// READERS: who has received and read one message (answered with READERS_RESULT).
public struct ReadersRequest: WireMessage {
    public static let frameType = FrameType.readers
    public var conversationID: UInt64
    public var seq: UInt64
    public init(conversationID: UInt64, seq: UInt64) { self.conversationID = conversationID; self.seq = seq }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); seq = try f.uint(2, "seq")
    }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID); w.uint(2, seq) }
}

public struct ReadersResult: WireMessage {
    public static let frameType = FrameType.readersResult
    public var conversationID: UInt64
    public var seq: UInt64
    /// Members other than the sender.
    public var recipientCount: UInt64
    public var deliveredTo: [UserInfo]
    public var readBy: [UserInfo]
    public init(conversationID: UInt64, seq: UInt64, recipientCount: UInt64, deliveredTo: [UserInfo], readBy: [UserInfo]) {
        self.conversationID = conversationID; self.seq = seq; self.recipientCount = recipientCount
        self.deliveredTo = deliveredTo; self.readBy = readBy
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); seq = try f.uint(2, "seq")
        recipientCount = try f.optionalUInt(3, "recipient_count")
        deliveredTo = try f.records(4, "delivered_to"); readBy = try f.records(5, "read_by")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.uint(2, seq); w.optionalUInt(3, recipientCount)
        w.records(4, deliveredTo); w.records(5, readBy)
    }
}
