/// REGISTER: create an account and log in at once (answered with SESSION).
public struct Register: WireMessage {
    public static let frameType = FrameType.register
    public var email: String
    public var username: String
    public var password: String
    public var displayName: String
    /// A label for the session list, such as "laptop".
    public var device: String

    public init(email: String, username: String, password: String, displayName: String, device: String = "") {
        self.email = email; self.username = username; self.password = password
        self.displayName = displayName; self.device = device
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        email = try f.string(1, "email"); username = try f.string(2, "username")
        password = try f.string(3, "password"); displayName = try f.optionalString(4, "display_name")
        device = try f.optionalString(5, "device")
    }
    public func encode(to w: inout FieldWriter) {
        w.string(1, email); w.string(2, username); w.string(3, password)
        w.optionalString(4, displayName); w.optionalString(5, device)
    }
}

/// LOGIN: username or email, and password (answered with SESSION).
public struct Login: WireMessage {
    public static let frameType = FrameType.login
    public var login: String
    public var password: String
    public var device: String

    public init(login: String, password: String, device: String = "") {
        self.login = login; self.password = password; self.device = device
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        login = try f.string(1, "login"); password = try f.string(2, "password"); device = try f.optionalString(3, "device")
    }
    public func encode(to w: inout FieldWriter) {
        w.string(1, login); w.string(2, password); w.optionalString(3, device)
    }
}

/// RESUME: continue a session with its token after a reconnect or restart.
public struct Resume: WireMessage {
    public static let frameType = FrameType.resume
    public var token: [UInt8]

    public init(token: [UInt8]) { self.token = token }
    public init(from f: FieldReader) throws(ProtocolError) { token = try f.bytes(1, "token") }
    public func encode(to w: inout FieldWriter) { w.bytes(1, token) }
}

/// SESSION: the connection is now logged in as `user`.
public struct SessionGranted: WireMessage {
    public static let frameType = FrameType.session
    /// 32 random bytes; only in answer to REGISTER and LOGIN (a RESUME already has it).
    public var token: [UInt8]
    public var sessionID: UInt64
    public var user: UserInfo

    public init(token: [UInt8], sessionID: UInt64, user: UserInfo) {
        self.token = token; self.sessionID = sessionID; self.user = user
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        token = f.optionalBytes(1, "token"); sessionID = try f.uint(2, "session_id"); user = try f.record(3, "user")
    }
    public func encode(to w: inout FieldWriter) {
        if !token.isEmpty { w.bytes(1, token) }
        w.uint(2, sessionID); w.record(3, user)
    }
}

/// LOGOUT: revoke this connection's session (answered with OK).
public struct Logout: WireMessage {
    public static let frameType = FrameType.logout
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

/// SESSIONS_LIST: the user's open sessions (answered with SESSIONS).
public struct SessionsList: WireMessage {
    public static let frameType = FrameType.sessionsList
    public init() {}
    public init(from f: FieldReader) {}
    public func encode(to w: inout FieldWriter) {}
}

public struct SessionInfo: FieldCodable, Equatable {
    public var sessionID: UInt64
    public var device: String
    public var created: UInt64
    public var lastUsed: UInt64
    public var current: Bool

    public init(sessionID: UInt64, device: String, created: UInt64, lastUsed: UInt64, current: Bool) {
        self.sessionID = sessionID; self.device = device; self.created = created
        self.lastUsed = lastUsed; self.current = current
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        sessionID = try f.uint(1, "session_id"); device = try f.optionalString(2, "device")
        created = try f.uint(3, "created"); lastUsed = try f.optionalUInt(4, "last_used")
        current = try f.bool(5, "current")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, sessionID); w.optionalString(2, device); w.uint(3, created)
        w.optionalUInt(4, lastUsed); w.optionalBool(5, current)
    }
}

public struct Sessions: WireMessage {
    public static let frameType = FrameType.sessions
    public var sessions: [SessionInfo]
    public init(sessions: [SessionInfo]) { self.sessions = sessions }
    public init(from f: FieldReader) throws(ProtocolError) { sessions = try f.records(1, "sessions") }
    public func encode(to w: inout FieldWriter) { w.records(1, sessions) }
}

/// SESSION_REVOKE: end one of the user's sessions; its connections are closed (answered with OK).
public struct SessionRevoke: WireMessage {
    public static let frameType = FrameType.sessionRevoke
    public var sessionID: UInt64
    public init(sessionID: UInt64) { self.sessionID = sessionID }
    public init(from f: FieldReader) throws(ProtocolError) { sessionID = try f.uint(1, "session_id") }
    public func encode(to w: inout FieldWriter) { w.uint(1, sessionID) }
}

/// PROFILE_UPDATE: change the display name (answered with PROFILE, the user's own).
public struct ProfileUpdate: WireMessage {
    public static let frameType = FrameType.profileUpdate
    /// nil: unchanged (only with a `timeZone`; a frame with neither lacks `display_name`).
    public var displayName: String?
    /// Tag 2 (0.5.0): the user's time zone, an IANA name or "+09:00"; nil: unchanged.
    public var timeZone: String?
    public init(displayName: String) { self.displayName = displayName }
    public init(displayName: String? = nil, timeZone: String?) { self.displayName = displayName; self.timeZone = timeZone }
    public init(from f: FieldReader) throws(ProtocolError) {
        timeZone = f.has(2) ? try f.string(2, "time_zone") : nil
        displayName = timeZone == nil || f.has(1) ? try f.string(1, "display_name") : nil
    }
    public func encode(to w: inout FieldWriter) {
        if let displayName { w.string(1, displayName) }
        if let timeZone { w.string(2, timeZone) }
    }
}

/// PASSWORD_CHANGE: revokes every other session of the user (answered with OK).
public struct PasswordChange: WireMessage {
    public static let frameType = FrameType.passwordChange
    public var oldPassword: String
    public var newPassword: String
    public init(oldPassword: String, newPassword: String) { self.oldPassword = oldPassword; self.newPassword = newPassword }
    public init(from f: FieldReader) throws(ProtocolError) {
        oldPassword = try f.string(1, "old_password"); newPassword = try f.string(2, "new_password")
    }
    public func encode(to w: inout FieldWriter) { w.string(1, oldPassword); w.string(2, newPassword) }
}
