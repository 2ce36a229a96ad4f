/// USER_SEARCH: users whose username starts with `prefix` (answered with USERS).
public struct UserSearch: WireMessage {
    public static let frameType = FrameType.userSearch
    public var prefix: String
    /// At most this many results; 0 means the server's default (20). The server caps it at 50.
    public var limit: UInt64
    public init(prefix: String, limit: UInt64 = 0) { self.prefix = prefix; self.limit = limit }
    public init(from f: FieldReader) throws(ProtocolError) {
        prefix = try f.string(1, "prefix"); limit = try f.optionalUInt(2, "limit")
    }
    public func encode(to w: inout FieldWriter) { w.string(1, prefix); w.optionalUInt(2, limit) }
}

public struct Users: WireMessage {
    public static let frameType = FrameType.users
    public var users: [UserInfo]
    public init(users: [UserInfo]) { self.users = users }
    public init(from f: FieldReader) throws(ProtocolError) { users = try f.records(1, "users") }
    public func encode(to w: inout FieldWriter) { w.records(1, users) }
}

/// CONTACT_ADD: answered with PROFILE of the new contact.
public struct ContactAdd: WireMessage {
    public static let frameType = FrameType.contactAdd
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// CONTACT_REMOVE: answered with OK.
public struct ContactRemove: WireMessage {
    public static let frameType = FrameType.contactRemove
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}

/// CONTACTS_LIST: answered with CONTACTS.
public struct ContactsList: WireMessage {
    public static let frameType = FrameType.contactsList
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

public struct Contacts: WireMessage {
    public static let frameType = FrameType.contacts
    public var contacts: [Profile]
    public init(contacts: [Profile]) { self.contacts = contacts }
    public init(from f: FieldReader) throws(ProtocolError) { contacts = try f.records(1, "contacts") }
    public func encode(to w: inout FieldWriter) { w.records(1, contacts) }
}

/// PROFILE_GET: answered with PROFILE, or not_a_contact.
public struct ProfileGet: WireMessage {
    public static let frameType = FrameType.profileGet
    public var username: String
    public init(username: String) { self.username = username }
    public init(from f: FieldReader) throws(ProtocolError) { username = try f.string(1, "username") }
    public func encode(to w: inout FieldWriter) { w.string(1, username) }
}
