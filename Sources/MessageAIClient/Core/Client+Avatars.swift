import Foundation
import MessageAIProtocol

/// Profile pictures and group avatars: the picture is uploaded like any file, then AVATAR_SET
/// names it; the server answers with the profile or group carrying the new avatar's file id.
/// Avatars are fetched into the download cache (`files/ID`) like attachments, so a profile
/// shown offline still has its picture.
extension Client {
    /// Uploads `path` (nil: removes the picture) and sets it as the user's picture, or the
    /// group's when `conversationID` is not 0. `done` gets the answer frame.
    func setAvatar(path: String?, conversationID: UInt64, _ done: @escaping (Result<Frame, ClientError>) -> Void) {
        whenReady(needsSession: true) { [weak self] error in
            guard let self else { return }
            if let error { done(.failure(error)); return }
            guard link.welcome?.capabilities.contains(.avatars) == true else {
                done(.failure(ClientError("unsupported", "this server does not take profile pictures"))); return
            }
            guard let path else { call(AvatarSet(fileID: [], conversationID: conversationID), done); return }
            let digest: (sha256: [UInt8], size: UInt64)
            do { digest = try Client.digest(path: path) } catch {
                done(.failure(ClientError("not_found", "cannot read \(path)"))); return
            }
            let name = (path as NSString).lastPathComponent
            let source = Upload.Source(path: path, name: name, size: digest.size, mediaType: FileNames.mediaType(of: path), sha256: digest.sha256)
            Upload(source, client: self, onFileID: { _ in }, onProgress: { [weak self] offset in
                self?.showProgress("upload", name, offset, digest.size)
            }, done: { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let e): done(.failure(e))
                case .success(let id): call(AvatarSet(fileID: id, conversationID: conversationID), done)
                }
            }).start()
        }
    }

    /// The cached avatar's path, fetching it first when needed; nil for none or when it cannot
    /// be had (offline and not cached, or no longer visible).
    func avatarPath(_ fileID: [UInt8], _ done: @escaping (String?) -> Void) {
        guard !fileID.isEmpty else { done(nil); return }
        let a = StoredAttachment(conversationID: 0, seq: 0, sender: "", attachment: Attachment(fileID: fileID, name: "avatar.jpg"))
        fetch(a) { result in
            if case .success(let path) = result { done(path) } else { done(nil) }
        }
    }

    /// A profile as the server shows it (PROFILE_GET, CONTACTS, a push): notes whose picture
    /// is which, so it shows offline later. True when that picture is news here.
    @discardableResult
    func rememberAvatar(_ p: Profile) -> Bool {
        avatarBook?.remember(p.user.username, p.avatarID) ?? false
    }

    /// PROFILE pushed (request id 0) when a contact, or this user on another device, set or
    /// removed a profile picture: the picture is fetched into the cache at once (so it shows
    /// offline too), then announced, drawn in a terminal that shows images.
    func handleProfilePush(_ p: Profile) {
        let news = rememberAvatar(p)
        learn(p)
        onChange()
        guard news else { return }
        let mine = p.user.userID == session?.userID
        avatarPath(p.avatarID) { [weak self] path in
            guard let self else { return }
            output.emit(PeopleEvent.avatarChanged(p, path: path, mine: mine))
            if let path { drawAvatar(path) }
        }
    }

    /// The picture at `path` (the cache), small, above the prompt; nothing when the terminal
    /// shows no images (--json, piped, TERM=dumb, /set preview off).
    func drawAvatar(_ path: String) {
        guard previewMode != .none else { return }
        let cells = ImagePreview.avatarCells()
        if let art = ImagePreview.render(file: path, maxColumns: cells.columns, maxRows: cells.rows, mode: previewMode) {
            output.drawImage(art)
        }
    }

    /// The cached picture of `username` as last heard of, without asking the server: for a
    /// conversation header, online or not. nil when none is known or it is not in the cache.
    func cachedAvatar(of username: String) -> String? {
        guard let hex = avatarBook?.id(of: username), let path = cachePath(hex),
              FileManager.default.fileExists(atPath: path) else { return nil }
        return path
    }
}
