import Foundation
import MessageAIProtocol

/// AVATAR_SET (PROTOCOL.md, "Avatars"): a profile picture or a group's avatar, made by the
/// server from the user's upload as a 128 px square JPEG, its own file row owned by whoever
/// set it (and counted in their quota). The upload it was made from is released once used,
/// unless a message carries it too. Any member may set a group's avatar, as with its name.
extension ChatServer {
    static let avatarRoutes: [(FrameType, Route)] = [
        Route.on(AvatarSet.self) { s, p, m, id in try s.setAvatar(p, m, id) },
    ]

    func setAvatar(_ peer: Peer, _ a: AvatarSet, _ id: UInt32) throws {
        let (files, vault) = try fileAccess(peer)
        let user = peer.user!
        if a.conversationID != 0 {
            _ = try group(a.conversationID, member: user.id)
        }
        guard !a.fileID.isEmpty else {
            try recordAvatar(nil, for: a, peer, id, files)
            return
        }
        guard let source = try files.file(id: a.fileID), source.ownerID == user.id, source.complete else {
            throw ErrorFrame(.uploadIncomplete, "that file is not (completely) uploaded by you; upload the picture, then set it", field: "file_id")
        }
        guard source.width > 0, source.height > 0 else {
            throw ErrorFrame(.notAnImage, "an avatar must be a JPEG, PNG or WebP image; this file is \(source.mediaType)", field: "file_id")
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
                            try recordAvatar(file, for: a, peer, id, files)
                            // The upload served its purpose; it stays only if a message carries it.
                            if try files.releaseFile(id: source.id) { collectBlobs([source.sha256]) }
                        } catch {
                            try? files.releaseFile(id: file.id)
                            collectBlobs([blob.sha])
                            report(error, for: Frame(type: .avatarSet, requestID: id, payload: []), to: peer)
                        }
                    case .failure(let error):
                        logger.error("making an avatar failed: \(error)")
                        peer.fail(id, ErrorFrame(.notAnImage, "the server could not read that image to make an avatar of it", field: "file_id"))
                    }
                }
            }
        }
    }

    /// Points the profile or group at the new avatar (nil: none), drops the old one, answers.
    private func recordAvatar(_ file: FileRecord?, for a: AvatarSet, _ peer: Peer, _ id: UInt32, _ files: FileStore) throws {
        let user = peer.user!
        let old: [UInt8]
        if a.conversationID == 0 {
            old = try files.setAvatar(userID: user.id, fileID: file?.id ?? [])
        } else {
            old = try files.setGroupAvatar(conversationID: a.conversationID, fileID: file?.id ?? [])
        }
        if !old.isEmpty, let previous = try files.file(id: old), try files.releaseFile(id: old) { collectBlobs([previous.sha256]) }
        if a.conversationID == 0 {
            let own = try ownProfile(user)
            peer.reply(id, own)
            pushAvatar(of: user, own, except: peer)
        } else {
            peer.reply(id, try view(a.conversationID, for: user.id))
            pushConversation(a.conversationID, to: try store.memberIDs(conversationID: a.conversationID), except: peer)
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
        for p in connections(of: [user.id]) where p !== setter && p.avatars { p.connection.send(ownFrame) }
        do {
            for contact in try store.presenceAudience(userID: user.id) where contact != user.id {
                let peers = connections(of: [contact]).filter(\.avatars)
                guard !peers.isEmpty else { continue }
                let frame = profile(of: user, try store.contactLink(contact, user.id)).frame(requestID: 0)
                for p in peers { p.connection.send(frame) }
            }
        } catch {
            logger.error("avatar push of user \(user.id) failed: \(error)")
        }
    }

    /// The user's own profile, as PROFILE_GET of oneself and AVATAR_SET answer it.
    func ownProfile(_ user: UserRecord) throws -> Profile {
        let away = try store.awayMessage(userID: user.id)
        return Profile(user: user.info, online: isOnline(user.id), lastSeen: 0, away: away != nil, awayMessage: away ?? "",
                       avatarID: avatarID(of: user.id))
    }

    /// A profile picture is shown to whoever may see the profile (contacts either way, people
    /// sharing a conversation), except across a block in either direction.
    func avatarVisible(of owner: UInt64, to reader: UInt64) throws -> Bool {
        if owner == reader { return true }
        let link = try store.contactLink(reader, owner)
        guard !link.blocked else { return false }
        return try link.iWant || link.theyWant || store.sharesConversation(reader, owner)
    }

    /// The user's avatar file id, empty for none (or no file store).
    func avatarID(of userID: UInt64) -> [UInt8] {
        guard fileVault != nil, let files = store as? FileStore else { return [] }
        return (try? files.avatarID(userID: userID)) ?? []
    }

    /// FILE_GET's second chance: a profile picture the reader may see.
    func canReadAvatar(_ fileID: [UInt8], reader: UInt64, _ files: FileStore) throws -> Bool {
        guard let owner = try files.avatarOwner(fileID: fileID) else { return false }
        return try avatarVisible(of: owner, to: reader)
    }
}
