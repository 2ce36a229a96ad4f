/// Contact requests and blocking (protocol version 2).

/// CONTACT_ACCEPT: accepts a pending request from `username`; answered with PROFILE (state
/// accepted), or not_found when there is no such request.
public struct ContactAccept: WireMessage {
    public static let frameType = FrameType.contactAccept
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// CONTACT_DECLINE: drops a pending request from `username`; answered with OK. The requester
/// is not told. Idempotent.
public struct ContactDecline: WireMessage {
    public static let frameType = FrameType.contactDecline
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// CONTACT_UPDATE (push): a request arrived (state incoming) or was accepted (state accepted),
/// seen from the receiver. Tag 1 `profile`.
public struct ContactUpdate: WireMessage {
    public static let frameType = FrameType.contactUpdate
    public var profile: Profile
    public init(profile: Profile) { self.profile = profile }
    public init(from f: FieldReader) throws(ProtocolError) { profile = try f.record(1, "profile") }
    public func encode(to w: inout FieldWriter) { w.record(1, profile) }
}

/// BLOCK: answered with OK. Idempotent; the blocked user is not told.
public struct Block: WireMessage {
    public static let frameType = FrameType.block
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// UNBLOCK: answered with OK. Idempotent.
public struct Unblock: WireMessage {
    public static let frameType = FrameType.unblock
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// BLOCKED_LIST: answered with USERS, the users this user blocks.
public struct BlockedList: WireMessage {
    public static let frameType = FrameType.blockedList
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}
