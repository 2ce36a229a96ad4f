import Foundation
import MessageAIProtocol

/// AVATAR_SET (PROTOCOL.md, "Avatars"): a profile picture or a group's avatar, made by the
/// server from the user's upload as a 128 px square JPEG, its own file row owned by whoever
/// set it (and counted in their quota). The upload it was made from is released once used,
/// unless a message carries it too. Any member may set a group's avatar, as with its name.
extension ChatServer {
    static let avatarRoutes: [(FrameType, Route)] = [
        Route.awaiting(AvatarSet.self) { s, c, m in try await s.setAvatar(c, m) },
    ]

    /// The image is made on `filesQueue` and recorded in a task on the hub: the connection's
    /// other requests are not held meanwhile.
    func setAvatar(_ ctx: RequestContext, _ a: AvatarSet) async throws {
        let (files, vault) = try fileAccess(ctx.peer)
        let user = ctx.user
        if a.conversationID != 0 {
            _ = try await group(a.conversationID, member: user.id)
        }
        guard !a.fileID.isEmpty else {
            try await recordAvatar(nil, for: a, ctx, files)
            return
        }
        guard let source = try await files.file(id: a.fileID), source.ownerID == user.id, source.complete else {
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
                output.turn { onHub { [self] in await recordMadeAvatar(made, from: source, for: a, ctx, files) } }
            }
        }
    }

    /// Records the avatar made off the hub as its own file row, then as the profile's or group's.
    private func recordMadeAvatar(_ made: Result<(sha: [UInt8], size: Int), Error>, from source: FileRecord, for a: AvatarSet,
                                  _ ctx: RequestContext, _ files: any FileStore) async {
        switch made {
        case .success(let blob):
            var file = FileRecord(id: Self.newFileID(), ownerID: ctx.user.id, name: "avatar.jpg", mediaType: "image/jpeg",
                                  uploadSize: UInt64(blob.size), uploadSHA256: blob.sha, createdAt: Clock.nowMillis())
            file.complete = true; file.size = UInt64(blob.size); file.sha256 = blob.sha
            file.width = UInt64(ImageProcessor.avatarSize); file.height = file.width
            do {
                try await files.createFile(file)
                try await recordAvatar(file, for: a, ctx, files)
                // The upload served its purpose; it stays only if a message carries it.
                if try await files.releaseFile(id: source.id) { collectBlobs([source.sha256]) }
            } catch {
                _ = try? await files.releaseFile(id: file.id)
                collectBlobs([blob.sha])
                report(error, for: Frame(type: .avatarSet, requestID: ctx.requestID, payload: []), to: ctx.peer)
            }
            // Recorded (or given up) only now: the rows decide from here whether the blob stays.
            blobRecorded(blob.sha)
        case .failure(let error):
            logger.error("making an avatar failed: \(error)")
            ctx.peer.fail(ctx.requestID, .unreadableImage)
        }
    }

    /// Points the profile or group at the new avatar (nil: none), drops the old one, answers.
    private func recordAvatar(_ file: FileRecord?, for a: AvatarSet, _ ctx: RequestContext, _ files: any FileStore) async throws {
        let user = ctx.user
        let old: [UInt8]
        if a.conversationID == 0 {
            old = try await files.setAvatar(userID: user.id, fileID: file?.id ?? [])
        } else {
            old = try await files.setGroupAvatar(conversationID: a.conversationID, fileID: file?.id ?? [])
        }
        if !old.isEmpty, let previous = try await files.file(id: old), try await files.releaseFile(id: old) { collectBlobs([previous.sha256]) }
        if a.conversationID == 0 {
            let own = try await ownProfile(user)
            ctx.reply(own)
            await pushAvatar(of: user, own, except: ctx.peer)
        } else {
            ctx.reply(try await view(a.conversationID, for: user.id))
            await pushConversation(a.conversationID, to: try await store.memberIDs(conversationID: a.conversationID), except: ctx.peer)
        }
    }

    /// A new (or removed) profile picture reaches those who show it without asking: PROFILE
    /// pushed (request id 0) to the user's other connections and to the accepted contacts that
    /// neither side blocks (PRESENCE's audience), each as PROFILE_GET would answer them, on
    /// connections that announced `avatars` only (an older client would not expect a PROFILE
    /// push). Others who may see the picture (a pending request, a shared conversation) get
    /// it at their next PROFILE_GET. Never throws: the request was already answered.
    func pushAvatar(of user: UserRecord, _ own: Profile, except setter: Peer?) async {
        let ownFrame = own.frame(requestID: 0)
        delivery.send(ownFrame, to: [user.id], except: setter, only: \.avatars)
        do {
            let contacts = try await store.presenceAudience(userID: user.id).filter { $0 != user.id }
            // Each profile as that contact sees it, read for the contacts online.
            var frames: [UInt64: Frame] = [:]
            for contact in contacts where delivery.isOnline(contact) {
                frames[contact] = try await profile(of: user, store.contactLink(contact, user.id)).frame(requestID: 0)
            }
            delivery.send(to: contacts, except: nil, only: \.avatars) { frames[$0] }
        } catch {
            logger.error("avatar push of user \(user.id) failed: \(error)")
        }
    }

    /// The user's own profile, as PROFILE_GET of oneself and AVATAR_SET answer it.
    func ownProfile(_ user: UserRecord) async throws -> Profile {
        let away = try await store.awayMessage(userID: user.id)
        return Profile(user: user.info, online: isOnline(user.id), lastSeen: 0, away: away != nil, awayMessage: away ?? "",
                       avatarID: await avatarID(of: user.id), timeZone: user.timeZone)
    }

    /// A profile picture is shown to whoever may see the profile (contacts either way, people
    /// sharing a conversation), except across a block in either direction.
    func avatarVisible(of owner: UInt64, to reader: UInt64) async throws -> Bool {
        if owner == reader { return true }
        let link = try await store.contactLink(reader, owner)
        guard !link.blocked else { return false }
        if link.iWant || link.theyWant { return true }
        return try await store.sharesConversation(reader, owner)
    }

    /// The user's avatar file id, empty for none (or no file store).
    func avatarID(of userID: UInt64) async -> [UInt8] {
        guard fileVault != nil, let files = store.files else { return [] }
        return (try? await files.avatarID(userID: userID)) ?? []
    }

    /// FILE_GET's second chance: a profile picture the reader may see.
    func canReadAvatar(_ fileID: [UInt8], reader: UInt64, _ files: any FileStore) async throws -> Bool {
        guard let owner = try await files.avatarOwner(fileID: fileID) else { return false }
        return try await avatarVisible(of: owner, to: reader)
    }
}
