/// Capability bits announced in HELLO and WELCOME. WELCOME answers with the ones both sides have.
public struct Capabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The peer accepts frames with the `compressed` flag (zlib).
    public static let zlib = Capabilities(rawValue: 1)
    /// Replies, reactions, edits and deletes: the peer sends CHANGE and reads MESSAGE_CHANGE and
    /// the message fields 9-12. A server sends MESSAGE_CHANGE only to clients that announced it.
    public static let messageChanges = Capabilities(rawValue: 1 << 2)
}

/// Protocol versions this library speaks.
/// Version 2 (0.2.0): CONTACT_ADD became a request and PROFILE hides presence from
/// non-contacts; a version 1 client would read a request as an added contact who is offline,
/// so a server of version 2 does not speak version 1.
public enum ProtocolVersion {
    public static let current: UInt64 = 2
    public static let minimum: UInt64 = 2
}

/// HELLO: the first frame a client sends.
public struct Hello: WireMessage {
    public static let frameType = FrameType.hello
    public var maxVersion: UInt64
    public var minVersion: UInt64
    public var capabilities: Capabilities
    /// Free text for logs, such as "messageai/0.1.0".
    public var client: String

    public init(maxVersion: UInt64 = ProtocolVersion.current, minVersion: UInt64 = ProtocolVersion.minimum,
                capabilities: Capabilities, client: String) {
        self.maxVersion = maxVersion; self.minVersion = minVersion; self.capabilities = capabilities; self.client = client
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        maxVersion = try f.uint(1, "max_version"); minVersion = try f.uint(2, "min_version")
        capabilities = Capabilities(rawValue: try f.optionalBits(3, "capabilities"))
        client = try f.optionalString(4, "client")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, maxVersion); w.uint(2, minVersion); w.optionalUInt(3, capabilities.rawValue); w.optionalString(4, client)
    }
}

/// WELCOME: the server's answer to HELLO, with the version chosen and its limits.
public struct Welcome: WireMessage {
    public static let frameType = FrameType.welcome
    public var version: UInt64
    public var capabilities: Capabilities
    public var maxFrameLength: UInt64
    /// A client sends PING after this long without sending anything.
    public var pingInterval: UInt64
    /// The server closes a connection that sent nothing for this long (ms).
    public var idleTimeout: UInt64
    public var maxMessageLength: UInt64
    public var server: String
    /// Added after 0.1.0 (optional, 0 when a 0.1.0 server leaves them out): the largest
    /// inflated payload of a compressed frame the server accepts, members per group, characters
    /// in a display or group name, characters in a search query.
    public var maxInflatedLength: UInt64
    public var maxGroupMembers: UInt64
    public var maxNameLength: UInt64
    public var maxQueryLength: UInt64
    /// SEND's rate limit (tags 12, 13, added after 0.2.0; 0 when left out): `sendLimit`
    /// messages per `sendWindow` ms, a token bucket per user. Clients pace their sends to it.
    public var sendLimit: UInt64
    public var sendWindow: UInt64
    /// How long after sending a message its sender may edit it (ms); 0 when the server does not
    /// speak messageChanges.
    public var editWindow: UInt64 = 0
    /// Capability `files` (0 when absent): the largest file, the bytes one user may store,
    /// uploads one user may have unfinished at once, bytes per FILE_CHUNK / FILE_DATA, and
    /// pixels an image may have (more is refused before it is decoded).
    public var maxFileSize: UInt64 = 0
    public var fileQuota: UInt64 = 0
    public var maxUploadsInFlight: UInt64 = 0
    public var fileChunkSize: UInt64 = 0
    public var maxImagePixels: UInt64 = 0
    /// Capability `assistant` with a language-model provider (0 otherwise; tag 16, added in
    /// 0.4.1): the longest a summary, check or rewrite may take before the server answers, its
    /// fallback to the local engine included (ms). A client waits at least this long for those
    /// answers; its usual request timeout would give up on a slow model the server still awaits.
    public var assistantAnswerTimeout: UInt64 = 0

    public init(version: UInt64, capabilities: Capabilities, maxFrameLength: UInt64, pingInterval: UInt64,
                idleTimeout: UInt64, maxMessageLength: UInt64, server: String, maxInflatedLength: UInt64 = 0,
                maxGroupMembers: UInt64 = 0, maxNameLength: UInt64 = 0, maxQueryLength: UInt64 = 0,
                sendLimit: UInt64 = 0, sendWindow: UInt64 = 0) {
        self.version = version; self.capabilities = capabilities; self.maxFrameLength = maxFrameLength
        self.pingInterval = pingInterval; self.idleTimeout = idleTimeout
        self.maxMessageLength = maxMessageLength; self.server = server
        self.maxInflatedLength = maxInflatedLength; self.maxGroupMembers = maxGroupMembers
        self.maxNameLength = maxNameLength; self.maxQueryLength = maxQueryLength
        self.sendLimit = sendLimit; self.sendWindow = sendWindow
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        version = try f.uint(1, "version")
        capabilities = Capabilities(rawValue: try f.optionalBits(2, "capabilities"))
        maxFrameLength = try f.uint(3, "max_frame_length"); pingInterval = try f.uint(4, "ping_interval_ms")
        idleTimeout = try f.uint(5, "idle_timeout_ms"); maxMessageLength = try f.uint(6, "max_message_length")
        server = try f.optionalString(7, "server")
        maxInflatedLength = try f.optionalUInt(8, "max_inflated_length"); maxGroupMembers = try f.optionalUInt(9, "max_group_members")
        maxNameLength = try f.optionalUInt(10, "max_name_length"); maxQueryLength = try f.optionalUInt(11, "max_query_length")
        sendLimit = try f.optionalUInt(12, "send_limit"); sendWindow = try f.optionalUInt(13, "send_window_ms")
        editWindow = try f.optionalUInt(20, "edit_window_ms")
        maxFileSize = try f.optionalUInt(24, "max_file_size"); fileQuota = try f.optionalUInt(25, "file_quota")
        maxUploadsInFlight = try f.optionalUInt(26, "max_uploads_in_flight"); fileChunkSize = try f.optionalUInt(27, "file_chunk_size")
        maxImagePixels = try f.optionalUInt(28, "max_image_pixels")
        assistantAnswerTimeout = try f.optionalUInt(16, "assistant_answer_ms")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, version); w.optionalUInt(2, capabilities.rawValue); w.uint(3, maxFrameLength)
        w.uint(4, pingInterval); w.uint(5, idleTimeout); w.uint(6, maxMessageLength); w.optionalString(7, server)
        w.optionalUInt(8, maxInflatedLength); w.optionalUInt(9, maxGroupMembers)
        w.optionalUInt(10, maxNameLength); w.optionalUInt(11, maxQueryLength)
        w.optionalUInt(12, sendLimit); w.optionalUInt(13, sendWindow)
        w.optionalUInt(16, assistantAnswerTimeout)
        w.optionalUInt(20, editWindow)
        w.optionalUInt(24, maxFileSize); w.optionalUInt(25, fileQuota); w.optionalUInt(26, maxUploadsInFlight)
        w.optionalUInt(27, fileChunkSize); w.optionalUInt(28, maxImagePixels)
    }
}

/// PING and PONG carry no fields: PONG echoes PING's request id.
public struct Ping: WireMessage {
    public static let frameType = FrameType.ping
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

public struct Pong: WireMessage {
    public static let frameType = FrameType.pong
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

/// OK: success for a request that has nothing else to return.
public struct OK: WireMessage {
    public static let frameType = FrameType.ok
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

/// ERROR: a request failed, or the connection is about to close.
public struct ErrorFrame: WireMessage, Error {
    public static let frameType = FrameType.error
    /// An `ErrorCode` raw value; unknown codes are kept so a newer server's errors still show.
    public var code: UInt64
    public var message: String
    /// For rate_limited and throttled: wait this long before retrying (ms).
    public var retryAfter: UInt64
    /// For too_long: the limit that was passed.
    public var limit: UInt64
    /// The request field the error is about, when there is one.
    public var field: String
    /// Set when the server closes the connection after this frame.
    public var closes: Bool

    public init(_ code: ErrorCode, _ message: String, retryAfter: UInt64 = 0, limit: UInt64 = 0, field: String = "") {
        self.code = UInt64(code.rawValue); self.message = message; self.retryAfter = retryAfter
        self.limit = limit; self.field = field; self.closes = code.closesConnection
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        code = try f.uint(1, "code"); message = try f.optionalString(2, "message")
        retryAfter = try f.optionalUInt(3, "retry_after_ms"); limit = try f.optionalUInt(4, "limit")
        field = try f.optionalString(5, "field"); closes = try f.bool(6, "closes")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, code); w.optionalString(2, message); w.optionalUInt(3, retryAfter)
        w.optionalUInt(4, limit); w.optionalString(5, field); w.optionalBool(6, closes)
    }

    public var errorCode: ErrorCode? { UInt16(exactly: code).flatMap(ErrorCode.init(rawValue:)) }
}
