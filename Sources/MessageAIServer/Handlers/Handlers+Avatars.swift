import Foundation
import MessageAIProtocol

/// AVATAR_SET (PROTOCOL.md, "Avatars"): a profile picture or a group's avatar, made by the
/// server from the user's upload as a 128 px square JPEG, its own file row owned by whoever
/// set it (and counted in their quota). The upload it was made from is released once used,
/// unless a message carries it too. Any member may set a group's avatar, as with its name.
extension ChatServer {
    static let avatarRoutes: [(FrameType, Route)] = [
        Route.on(AvatarSet.self) { s, c, m in try s.setAvatar(c, m) },
    ]

    func setAvatar(_ ctx: RequestContext, _ a: AvatarSet) throws {
        let (files, vault) = try fileAccess(ctx.peer)
        let user = ctx.user
        if a.conversationID != 0 {
            _ = try groupNow(a.conversationID, member: user.id)
        }
        guard !a.fileID.isEmpty else {
            try recordAvatar(nil, for: a, ctx, files)
            return
        }
        guard let source = try files.file(id: a.fileID), source.ownerID == user.id, source.complete else {
            throw ServerError.uploadIncomplete(for: .avatar)
        }
        guard source.width > 0, source.height > 0 else {
            throw ServerError.notAnImage(mediaType: source.mediaType)
        }
        let path = vault.blobPath(source.sha256)
        let tag = FileVault.hex(Self.newFileID())
        filesQueue.async { [self] in
            let made: Result<(sha: [UInt8], size: Int), Error> = Result {
                let jpeg = try ImageProcessor.avatar(path)
                return (try vault.storeBlob(jpeg, tag: tag), jpeg.count)
            }
            queue.async { [self] in
                output.turn {
                    switch made {
                    case .success(let blob):
                        defer { blobRecorded(blob.sha) }
                        var file = FileRecord(id: Self.newFileID(), ownerID: user.id, name: "avatar.jpg", mediaType: "image/jpeg",
                                              uploadSize: UInt64(blob.size), uploadSHA256: blob.sha, createdAt: Clock.nowMillis())
                        file.complete = true; file.size = UInt64(blob.size); file.sha256 = blob.sha
                        file.width = UInt64(ImageProcessor.avatarSize); file.height = file.width
                        do {
                            try files.createFile(file)
                            try recordAvatar(file, for: a, ctx, files)
                            // The upload served its purpose; it stays only if a message carries it.
                            if try files.releaseFile(id: source.id) { collectBlobs([source.sha256]) }
                        } catch {
                            _ = try? files.releaseFile(id: file.id)
                            collectBlobs([blob.sha])
                            report(error, for: Frame(type: .avatarSet, requestID: ctx.requestID, payload: []), to: ctx.peer)
                        }
                    case .failure(let error):
                        logger.error("making an avatar failed: \(error)")
                        ctx.peer.fail(ctx.requestID, .unreadableImage)
                    }
                }
            }
        }
    }

    /// Points the profile or group at the new avatar (nil: none), drops the old one, answers.
    private func recordAvatar(_ file: FileRecord?, for a: AvatarSet, _ ctx: RequestContext, _ files: SQLiteStore) throws {
        let user = ctx.user
        let old: [UInt8]
        if a.conversationID == 0 {
            old = try files.setAvatar(userID: user.id, fileID: file?.id ?? [])
        } else {
            old = try files.setGroupAvatar(conversationID: a.conversationID, fileID: file?.id ?? [])
        }
        if !old.isEmpty, let previous = try files.file(id: old), try files.releaseFile(id: old) { collectBlobs([previous.sha256]) }
        if a.conversationID == 0 {
            let own = try ownProfile(user)
            ctx.reply(own)
            pushAvatar(of: user, own, except: ctx.peer)
        } else {
            ctx.reply(try viewNow(a.conversationID, for: user.id))
            pushConversationNow(a.conversationID, to: try sqlite.memberIDs(conversationID: a.conversationID), except: ctx.peer)
        }
    }

    /// A new (or removed) profile picture reaches those who show it without asking: PROFILE
    /// pushed (request id 0) to the user's other connections and to the accepted contacts that
    /// neither side blocks (PRESENCE's audience), each as PROFILE_GET would answer them, on
    /// connections that announced `avatars` only (an older client would not expect a PROFILE
    /// push). Others who may see the picture (a pending request, a shared conversation) get
    /// it at their next PROFILE_GET. Never throws: the request was already answered.
    private func pushAvatar(of user: UserRecord, _ own: Profile, except setter: Peer) {
        let ownFrame = own.frame(requestID: 0)
        delivery.send(ownFrame, to: [user.id], except: setter, only: \.avatars)
        do {
            let contacts = try sqlite.presenceAudience(userID: user.id).filter { $0 != user.id }
            try delivery.send(to: contacts, except: nil, only: \.avatars) { contact in
                profile(of: user, try sqlite.contactLink(contact, user.id)).frame(requestID: 0)
            }
        } catch {
            logger.error("avatar push of user \(user.id) failed: \(error)")
        }
    }

    /// The user's own profile, as PROFILE_GET of oneself and AVATAR_SET answer it.
    func ownProfile(_ user: UserRecord) throws -> Profile {
        let away = try sqlite.awayMessage(userID: user.id)
        return Profile(user: user.info, online: isOnline(user.id), lastSeen: 0, away: away != nil, awayMessage: away ?? "",
                       avatarID: avatarID(of: user.id), timeZone: user.timeZone)
    }

    /// A profile picture is shown to whoever may see the profile (contacts either way, people
    /// sharing a conversation), except across a block in either direction.
    func avatarVisible(of owner: UInt64, to reader: UInt64) throws -> Bool {
        if owner == reader { return true }
        let link = try sqlite.contactLink(reader, owner)
        guard !link.blocked else { return false }
        return try link.iWant || link.theyWant || sqlite.sharesConversation(reader, owner)
    }

    /// The user's avatar file id, empty for none (or no file store).
    func avatarID(of userID: UInt64) -> [UInt8] {
        guard fileVault != nil, let files = sqliteFiles else { return [] }
        return (try? files.avatarID(userID: userID)) ?? []
    }

    /// FILE_GET's second chance: a profile picture the reader may see.
    func canReadAvatar(_ fileID: [UInt8], reader: UInt64, _ files: SQLiteStore) throws -> Bool {
        guard let owner = try files.avatarOwner(fileID: fileID) else { return false }
        return try avatarVisible(of: owner, to: reader)
    }
}
