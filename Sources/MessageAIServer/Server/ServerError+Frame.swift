import MessageAIProtocol

/// The one place a `ServerError` becomes the ERROR frame a client reads. Clients show these
/// texts to people and the tests and acceptance scenarios check them: change one only on
/// purpose, never in passing.
extension ServerError {
    var frame: ErrorFrame {
        switch self {
        case .handshakeRequired: return ErrorFrame(.handshakeRequired, "the first frame must be HELLO")
        case .compressionNotAgreed:
            return ErrorFrame(.malformedFrame, "compressed frame, but zlib was not agreed in the handshake")
        case .unknownFrameType(let type):
            return ErrorFrame(.unknownFrameType, "unknown frame type 0x\(String(type.rawValue, radix: 16))")
        case .capabilityNotAgreed(.files):
            return ErrorFrame(.unknownFrameType, "file sharing is not on for this connection (announce capability files in HELLO)")
        case .capabilityNotAgreed(.messageChanges):
            return ErrorFrame(.unknownFrameType, "CHANGE needs the messageChanges capability in HELLO")
        case .capabilityNotAgreed(.assistant(let type)):
            return ErrorFrame(.unknownFrameType, "unknown frame type 0x\(String(type.rawValue, radix: 16)) (the assistant capability was not agreed)")
        case .helloRepeated: return ErrorFrame(.badRequest, "HELLO was already received on this connection")
        case let .unsupportedVersion(clientMin, clientMax):
            return ErrorFrame(.unsupportedVersion,
                              "this server speaks protocol versions \(ProtocolVersion.minimum)...\(ProtocolVersion.current); the client asked for \(clientMin)...\(clientMax)")
        case .decoding(let e):
            // A closing error names no field (as before the enum).
            return e.errorCode.closesConnection ? ErrorFrame(e.errorCode, e.description)
                : ErrorFrame(e.errorCode, e.description, field: e.fieldName)
        case .shuttingDown: return ErrorFrame(.shuttingDown, "the server is shutting down")
        case .idleTimeout(let millis): return ErrorFrame(.idleTimeout, "no bytes received for \(millis) ms")
        case .missedDeadline(let why): return ErrorFrame(.idleTimeout, why)
        case .syncOverflow(let what): return ErrorFrame(.outputOverflow, "too many \(what) waiting behind an unfinished sync")

        case .notAuthenticated: return ErrorFrame(.notAuthenticated, "log in first (REGISTER, LOGIN or RESUME)")
        // Clients show this text to people, so it speaks of logging out, not of frame names.
        case .alreadyLoggedIn: return ErrorFrame(.alreadyAuthenticated, "already logged in on this connection: log out first")
        case .accountDisabled(.admin): return ErrorFrame(.accountDisabled, "this account is disabled; ask the server's admin")
        case .accountDisabled(.adminDisabling): return ErrorFrame(.accountDisabled, "this account was disabled by the server's admin")
        case .accountDisabled(.adminDeleting): return ErrorFrame(.accountDisabled, "this account was deleted by the server's admin")
        case .wrongPassword: return ErrorFrame(.invalidCredentials, "wrong username or password")
        case .wrongCurrentPassword: return ErrorFrame(.invalidCredentials, "the current password is wrong", field: "old_password")
        case .sessionEnded: return ErrorFrame(.invalidToken, "this session has ended; log in again")
        case .sessionRevoked:
            var error = ErrorFrame(.invalidToken, "this session was revoked")
            error.closes = true
            return error
        case let .throttled(what, wait):
            switch what {
            case .registrations:
                return ErrorFrame(.throttled, "too many new accounts from this address; try again in \((wait + 59_999) / 60_000) min", retryAfter: wait)
            case .logins: return ErrorFrame(.throttled, "too many failed logins; try again in \((wait + 999) / 1000) s", retryAfter: wait)
            case .passwordAttempts:
                return ErrorFrame(.throttled, "too many failed attempts; try again in \((wait + 999) / 1000) s", retryAfter: wait)
            }
        case let .serverBusy(what, wait):
            switch what {
            case .passwords: return ErrorFrame(.serverBusy, "the server is busy checking passwords; try again in a second", retryAfter: wait)
            case .assistant: return ErrorFrame(.serverBusy, "the assistant is busy; try again in a second", retryAfter: wait)
            case .languageModel: return ErrorFrame(.serverBusy, "the language model is busy; try again in a few seconds", retryAfter: wait)
            }
        case .usernameTaken: return ErrorFrame(.usernameTaken, "that username is taken", field: "username")
        case .emailTaken: return ErrorFrame(.emailTaken, "that email is already registered", field: "email")
        case .invalidUsername(let problem):
            let rule = Validation.usernameRule
            switch problem {
            case .length(let n): return ErrorFrame(.invalidUsername, "\(rule) (got \(n) characters)", field: "username")
            case .uppercase(let suggestion):
                return ErrorFrame(.invalidUsername, "usernames are lowercase: try '\(suggestion)' (\(rule))", field: "username")
            case .character(let s): return ErrorFrame(.invalidUsername, "\(rule) ('\(s)' is not allowed)", field: "username")
            case .leadingPunctuation: return ErrorFrame(.invalidUsername, rule, field: "username")
            }
        case .invalidEmail: return ErrorFrame(.invalidEmail, "email must look like name@example.org", field: "email")
        case .weakPassword(let field):
            return ErrorFrame(.weakPassword, "passwords need at least \(Validation.minPassword) characters", field: field)

        case .tooLong(let what): return what.frame
        case .invalidArgument(let what): return what.frame
        case .notFound(let what): return what.frame
        case .notAMember(let id):
            return ErrorFrame(.notAMember, "you are not a member of conversation \(id)", field: "conversation_id")
        case .notAContact(let why): return why.frame
        case .rateLimited(.sending(let wait)):
            return ErrorFrame(.rateLimited, "sending too fast; try again in \((wait + 999) / 1000) s", retryAfter: wait)
        case .rateLimited(.changing): return ErrorFrame(.rateLimited, "changing too fast; try again in a moment", retryAfter: 1_000)

        case let .noSuchMessage(seq, conversation, field):
            return ErrorFrame(.noSuchMessage, "there is no message \(seq) in conversation \(conversation)", field: field)
        case let .messageDeleted(seq, field): return ErrorFrame(.messageDeleted, "message \(seq) was deleted", field: field)
        case .invalidReaction:
            return ErrorFrame(.invalidReaction, "a reaction is one emoji (skin tones and joined emoji count as one)", field: "emoji")
        case let .notSender(sender, action, seq):
            return ErrorFrame(.notSender, "only \(sender), who sent it, can \(action) message \(seq)")
        case let .editWindowClosed(seq, window):
            return ErrorFrame(.editWindowClosed, "message \(seq) can no longer be edited: the edit window is \(ChatServer.describe(window)) after sending",
                              limit: window)
        case .clientIDReused(let use): return use.frame

        case let .fileTooLarge(size, max):
            return ErrorFrame(.fileTooLarge, "files are at most \(Attachment.humanSize(max)) (this one has \(Attachment.humanSize(size)))",
                              limit: max, field: "size")
        case let .quotaExceeded(quota, left):
            return ErrorFrame(.quotaExceeded, "your files would pass your storage quota of \(Attachment.humanSize(quota)) (\(Attachment.humanSize(left)) left)",
                              limit: quota, field: "size")
        case .tooManyUploads(let max):
            return ErrorFrame(.tooManyUploads, "at most \(max) uploads may be unfinished at once; finish one first", limit: UInt64(max))
        case let .imageTooLarge(pixels, max):
            return ErrorFrame(.imageTooLarge, "images are at most \(max / 1_000_000) million pixels (this one has \(pixels / 1_000_000) million); nothing was stored",
                              limit: max)
        case .hashMismatch:
            return ErrorFrame(.hashMismatch, "the bytes received do not have the announced SHA-256; nothing was kept, upload the file again",
                              field: "sha256")
        case .fileNotStored: return ErrorFrame(.internalError, "the server could not store the file; try again later")
        case .uploadIncomplete(.send):
            return ErrorFrame(.uploadIncomplete, "that file is not (completely) uploaded by you; finish the upload, then send", field: "attachment")
        case .uploadIncomplete(.avatar):
            return ErrorFrame(.uploadIncomplete, "that file is not (completely) uploaded by you; upload the picture, then set it", field: "file_id")
        case .notAnImage(let mediaType):
            return ErrorFrame(.notAnImage, "an avatar must be a JPEG, PNG or WebP image; this file is \(mediaType)", field: "file_id")
        case .unreadableImage:
            return ErrorFrame(.notAnImage, "the server could not read that image to make an avatar of it", field: "file_id")

        case .assistantUnavailable:
            return ErrorFrame(.assistantUnavailable, "this server has no language model configured, so it cannot suggest a rewrite")
        case .providerOffHere:
            return ErrorFrame(.providerOffHere, "this conversation keeps its text away from the language model; /assistant provider on allows it")
        case .assistantBudgetExhausted(let perDay):
            return ErrorFrame(.assistantBudgetExhausted, "your language-model requests for today are used up", limit: UInt64(perDay))

        case .storageFull: return ErrorFrame(.storageFull, "the server's storage is full; nothing was stored, try again later")
        case .internalStorage: return ErrorFrame(.internalError, "internal storage error")
        case .databaseUnavailable:
            return ErrorFrame(.databaseUnavailable, "the server's database is unavailable; nothing was stored, try again later",
                              retryAfter: 1_000)
        case .internal: return ErrorFrame(.internalError, "internal error")
        }
    }
}

extension ServerError.TooLong {
    var frame: ErrorFrame {
        switch self {
        case let .password(max, field):
            return ErrorFrame(.tooLong, "passwords are at most \(max) characters", limit: UInt64(max), field: field)
        case let .name(what, max, length, field):
            return ErrorFrame(.tooLong, "\(what) are at most \(max) characters (this one has \(length))", limit: UInt64(max), field: field)
        case .clientLabel(let max):
            return ErrorFrame(.tooLong, "the client label is at most \(max) characters", limit: UInt64(max), field: "client")
        case .device(let max): return ErrorFrame(.tooLong, "device names are at most \(max) characters", limit: UInt64(max), field: "device")
        case .searchQuery(let max):
            return ErrorFrame(.tooLong, "search queries are at most \(max) characters", limit: UInt64(max), field: "query")
        case .userSearch(let max): return ErrorFrame(.tooLong, "a search is at most \(max) characters", limit: UInt64(max), field: "prefix")
        case .fileName(let max): return ErrorFrame(.tooLong, "file names are at most \(max) characters", limit: UInt64(max), field: "name")
        case .mediaType: return ErrorFrame(.tooLong, "media types are at most 255 bytes", limit: 255, field: "media_type")
        case .chunk(let max): return ErrorFrame(.tooLong, "chunks are at most \(max) bytes", limit: UInt64(max), field: "data")
        case let .message(max, length):
            return ErrorFrame(.tooLong, "messages are at most \(max) characters (this one has \(length))", limit: UInt64(max), field: "text")
        case let .draft(max, length):
            return ErrorFrame(.tooLong, "drafts are at most \(max) characters (this one has \(length))", limit: UInt64(max), field: "text")
        }
    }
}

extension ServerError.InvalidArgument {
    var frame: ErrorFrame {
        switch self {
        case let .forbiddenCharacter(what, hex, field):
            return ErrorFrame(.invalidArgument, "\(what) cannot contain control or bidirectional characters (U+\(hex))", field: field)
        case let .noVisibleCharacter(what, field):
            return ErrorFrame(.invalidArgument, "\(what) need at least one visible character", field: field)
        case .deviceCharacter(let hex):
            return ErrorFrame(.invalidArgument, "device names cannot contain control or bidirectional characters (U+\(hex))", field: "device")
        case .tooManyUsernames(let max):
            return ErrorFrame(.invalidArgument, "at most \(max) usernames per request", limit: UInt64(max), field: "usernames")
        case .directWithSelf: return ErrorFrame(.invalidArgument, "a direct conversation needs someone else", field: "username")
        case .groupTooSmall: return ErrorFrame(.invalidArgument, "a group needs at least two other members", field: "usernames")
        case .notAGroup(let id):
            return ErrorFrame(.invalidArgument, "conversation \(id) is a direct conversation, not a group", field: "conversation_id")
        case let .groupTooLarge(max, members):
            return ErrorFrame(.invalidArgument, "groups have at most \(max) members (this would make \(members))",
                              limit: UInt64(max), field: "usernames")
        case .blockSelf: return ErrorFrame(.invalidArgument, "you cannot block yourself", field: "username")
        case .contactSelf: return ErrorFrame(.invalidArgument, "you cannot add yourself as a contact", field: "username")
        case .notATimeZone:
            return ErrorFrame(.invalidArgument, "not a time zone: an IANA name such as Asia/Tokyo, or an offset from -12:00 to +14:00 such as +09:00",
                              field: "time_zone")
        case .emptySearch: return ErrorFrame(.invalidArgument, "give some words to search for", field: "query")
        case .emptyUserSearch: return ErrorFrame(.invalidArgument, "give at least one character to search for", field: "prefix")
        case .syncRunning: return ErrorFrame(.invalidArgument, "a sync is already running on this connection")
        case .fileName: return ErrorFrame(.invalidArgument, "a file needs a name", field: "name")
        case .chunkPastEnd(let size):
            return ErrorFrame(.invalidArgument, "the chunk runs past the announced size of \(size) bytes", field: "data")
        case .offsetPastEnd(let size): return ErrorFrame(.invalidArgument, "offset past the end of the file (\(size) bytes)", field: "offset")
        case .changeAction(let action):
            return ErrorFrame(.invalidArgument, "unknown change action \(action) (1 react, 2 unreact, 3 edit, 4 delete)", field: "action")
        case .emptyMessage: return ErrorFrame(.invalidArgument, "a message needs some text", field: "text")
        case .emptyDraft: return ErrorFrame(.invalidArgument, "a draft needs some text", field: "text")
        case .itemKind: return ErrorFrame(.invalidArgument, "kind is 0, 1 or 2", field: "kind")
        case .notAnActionItem(let id):
            return ErrorFrame(.invalidArgument, "item \(id) is a decision; only action items are done", field: "item_id")
        }
    }
}

extension ServerError.Missing {
    var frame: ErrorFrame {
        switch self {
        case .record: return ErrorFrame(.notFound, "not found")
        case .session(let id): return ErrorFrame(.notFound, "no session \(id)", field: "session_id")
        case .contactRequest(let name): return ErrorFrame(.notFound, "no contact request from '\(name)'", field: "username")
        case .user(let name): return ErrorFrame(.notFound, "no user named '\(name)'", field: "username")
        case .conversation(let id): return ErrorFrame(.notFound, "no conversation \(id)", field: "conversation_id")
        case let .message(seq, conversation):
            return ErrorFrame(.notFound, "no message \(seq) in conversation \(conversation)", field: "seq")
        case .actionItem(let id): return ErrorFrame(.notFound, "no action item \(id) in your conversations", field: "item_id")
        case .upload: return ErrorFrame(.notFound, "no such upload", field: "file_id")
        case .expiredUpload:
            return ErrorFrame(.notFound, "no such upload (expired, refused, or never announced): announce the file again", field: "file_id")
        case .file: return ErrorFrame(.notFound, "no such file", field: "file_id")
        case .thumbnail: return ErrorFrame(.notFound, "this file has no thumbnail", field: "thumbnail")
        }
    }
}

extension ServerError.NotAContact {
    var frame: ErrorFrame {
        switch self {
        case .youBlocked: return ErrorFrame(.notAContact, "you blocked this user: /unblock them to send")
        // The blocked side gets the words of any undeliverable message: it is never told.
        case .undeliverable: return ErrorFrame(.notAContact, "this message could not be delivered")
        case .cannotJoinGroup(let name): return ErrorFrame(.notAContact, "'\(name)' cannot be added to this group", field: "usernames")
        case .notInContacts(let name): return ErrorFrame(.notAContact, "\(name) is not in your contacts", field: "username")
        case .profileHidden(let name):
            return ErrorFrame(.notAContact, "\(name)'s profile is visible to their contacts and conversation partners only", field: "username")
        }
    }
}

extension ServerError.ClientIDUse {
    var frame: ErrorFrame {
        let text: String
        switch self {
        case .sendAfterChange:
            text = "this client id was already used for a change (reaction, edit or delete); nothing was stored, send it with a new id"
        case .sendAfterMessage: text = "this client id was already used for another message; nothing was stored, send it with a new id"
        case .changeAfterChange: text = "this client id was already used for another change; nothing was stored, send it with a new id"
        case .changeAfterMessage:
            text = "this client id was already used for one of your messages; nothing was stored, change it with a new id"
        }
        return ErrorFrame(.clientIDReused, text, field: "client_id")
    }
}

extension ServerError {
    /// Any error out of a handler, as the client is told it. A store's own failure becomes
    /// what the client can act on; anything else is an internal error (logged by the caller).
    init(_ error: Error) {
        switch error {
        case let e as ServerError: self = e
        case let e as ProtocolError: self = .decoding(e)
        case let e as StoreError: self.init(e)
        default: self = .internal
        }
    }

    init(_ error: StoreError) {
        switch error {
        case .diskFull: self = .storageFull
        case .notFound: self = .notFound(.record)
        case .usernameTaken: self = .usernameTaken
        case .emailTaken: self = .emailTaken
        case .unavailable: self = .databaseUnavailable
        case .conflict, .missingReference, .failed: self = .internalStorage
        }
    }
}

extension ProtocolError {
    /// The request field a decoding error is about, for ERROR's `field`.
    var fieldName: String {
        switch self {
        case let .missingField(_, name), let .wrongFieldType(_, name, _), let .invalidUTF8(_, name),
             let .outOfRange(_, name, _), let .nulInString(_, name): return name
        default: return ""
        }
    }
}
