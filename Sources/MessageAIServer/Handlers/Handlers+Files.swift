import Crypto
import Foundation
import MessageAIProtocol

/// FILE_ANNOUNCE, FILE_CHUNK, FILE_STATUS and FILE_GET (PROTOCOL.md, "Files"). Chunks are
/// written on the hub (one append to the page cache, ~0.1 ms for 256 KiB); checking a whole
/// upload runs on `filesQueue` and answers when done, without holding the connection's other
/// requests behind it.
extension ChatServer {
    static let fileRoutes: [(FrameType, Route)] = [
        Route.awaiting(FileAnnounce.self) { s, c, m in try await s.announceFile(c, m) },
        Route.awaiting(FileChunk.self) { s, c, m in try await s.receiveChunk(c, m) },
        Route.awaiting(FileStatus.self) { s, c, m in try await s.fileStatus(c, m) },
        Route.awaiting(FileGet.self) { s, c, m in try await s.getFile(c, m) },
    ]

    /// The longest file name accepted, in Unicode scalars (receivers shorten it further).
    static let maxFileName = 1_000

    func announceFileLimits(in welcome: inout Welcome) {
        welcome.maxFileSize = configuration.maxFileSize
        welcome.fileQuota = configuration.fileQuota
        welcome.maxUploadsInFlight = UInt64(configuration.maxUploadsInFlight)
        welcome.fileChunkSize = UInt64(configuration.fileChunkSize)
        welcome.maxImagePixels = configuration.maxImagePixels
    }

    /// The file store and vault, for a connection that agreed on `files`.
    func fileAccess(_ peer: Peer) throws -> (any FileStore, FileVault) {
        guard peer.files, let vault = fileVault, let files = store.files else {
            throw ServerError.capabilityNotAgreed(.files)
        }
        return (files, vault)
    }

    private func uploadAnswer(_ file: FileRecord, offset: UInt64, complete: Bool) -> FileUpload {
        FileUpload(fileID: file.id, chunkSize: UInt64(configuration.fileChunkSize), offset: offset, complete: complete)
    }

    func announceFile(_ ctx: RequestContext, _ a: FileAnnounce) async throws {
        let (files, vault) = try fileAccess(ctx.peer)
        let user = ctx.user
        let nameLength = a.name.unicodeScalars.count
        guard nameLength > 0, !a.name.contains("\0") else { throw ServerError.invalidArgument(.fileName) }
        guard nameLength <= Self.maxFileName else {
            throw ServerError.tooLong(.fileName(max: Self.maxFileName))
        }
        guard a.mediaType.utf8.count <= 255 else { throw ServerError.tooLong(.mediaType) }
        guard a.size <= configuration.maxFileSize else {
            throw ServerError.fileTooLarge(size: a.size, max: configuration.maxFileSize)
        }
        // The same upload again: the offset query after a reconnect.
        if let existing = try await files.file(ownerID: user.id, uploadSHA256: a.sha256, name: a.name), existing.uploadSize == a.size {
            try await answerStatus(ctx.peer, existing, ctx.requestID, files, vault)
            return
        }
        let usage = try await files.fileUsage(ownerID: user.id)
        guard usage.bytes + a.size <= configuration.fileQuota else {
            let left = configuration.fileQuota - min(usage.bytes, configuration.fileQuota)
            throw ServerError.quotaExceeded(quota: configuration.fileQuota, left: left)
        }
        var file = FileRecord(id: Self.newFileID(), ownerID: user.id, name: a.name, mediaType: a.mediaType,
                              uploadSize: a.size, uploadSHA256: a.sha256, createdAt: Clock.nowMillis())
        if let held = try await files.completeFile(uploadSHA256: a.sha256, uploadSize: a.size) {
            // The server has this content: no byte is sent again.
            file.complete = true; file.size = held.size; file.sha256 = held.sha256; file.mediaType = held.mediaType
            file.width = held.width; file.height = held.height; file.thumbnail = held.thumbnail
            try await createCharged(file, files)
            ctx.reply(uploadAnswer(file, offset: a.size, complete: true))
            return
        }
        guard usage.partials < configuration.maxUploadsInFlight else {
            throw ServerError.tooManyUploads(max: configuration.maxUploadsInFlight)
        }
        try vault.createPartial(file.id)
        do { try await createCharged(file, files) } catch { vault.removePartial(file.id); throw error }
        if a.size == 0 { finishUpload(ctx.peer, file, ctx.requestID, files, vault); return }
        ctx.reply(uploadAnswer(file, offset: 0, complete: false))
    }

    /// Creates the row and charges the quota in one conditional update of the store's (the
    /// usage read above may be stale: another node may have charged meanwhile).
    private func createCharged(_ file: FileRecord, _ files: any FileStore) async throws {
        let quota = configuration.fileQuota
        switch try await files.createFile(file, quota: quota, maximumPartials: configuration.maxUploadsInFlight) {
        case .created: return
        case .quotaExceeded(let used): throw ServerError.quotaExceeded(quota: quota, left: quota - min(used, quota))
        case .tooManyUploads: throw ServerError.tooManyUploads(max: configuration.maxUploadsInFlight)
        }
    }

    func fileStatus(_ ctx: RequestContext, _ s: FileStatus) async throws {
        let (files, vault) = try fileAccess(ctx.peer)
        guard let file = try await files.file(id: s.fileID), file.ownerID == ctx.user.id else {
            throw ServerError.notFound(.upload)
        }
        try await answerStatus(ctx.peer, file, ctx.requestID, files, vault)
    }

    /// Where an upload stands; one that has all its bytes but is not complete (the server
    /// stopped while checking it) is checked now.
    private func answerStatus(_ peer: Peer, _ file: FileRecord, _ id: UInt32, _ files: any FileStore, _ vault: FileVault) async throws {
        if file.complete { peer.reply(id, uploadAnswer(file, offset: file.uploadSize, complete: true)); return }
        let offset = vault.partialSize(file.id)
        if offset >= file.uploadSize && !finishingUploads.contains(file.id) {
            finishUpload(peer, file, id, files, vault)
            return
        }
        peer.reply(id, uploadAnswer(file, offset: min(offset, file.uploadSize), complete: false))
    }

    func receiveChunk(_ ctx: RequestContext, _ c: FileChunk) async throws {
        let (files, vault) = try fileAccess(ctx.peer)
        guard let file = try await files.file(id: c.fileID), file.ownerID == ctx.user.id else {
            throw ServerError.notFound(.expiredUpload)
        }
        if file.complete { ctx.reply(uploadAnswer(file, offset: file.uploadSize, complete: true)); return }
        let offset = vault.partialSize(file.id)
        // Any other offset is not written: the answer says where to go on from.
        guard c.offset == offset, !finishingUploads.contains(file.id) else {
            ctx.reply(uploadAnswer(file, offset: offset, complete: false))
            return
        }
        guard c.data.count <= configuration.fileChunkSize else {
            throw ServerError.tooLong(.chunk(max: configuration.fileChunkSize))
        }
        guard offset + UInt64(c.data.count) <= file.uploadSize else {
            throw ServerError.invalidArgument(.chunkPastEnd(size: file.uploadSize))
        }
        // Under the partial's lock: a node that wrote this chunk meanwhile (the client's old
        // connection, through another node) moved the length, and this one writes nothing.
        guard try vault.append(file.id, c.data, at: offset) else {
            ctx.reply(uploadAnswer(file, offset: min(vault.partialSize(file.id), file.uploadSize), complete: false))
            return
        }
        metrics.fileBytesIn.increment(by: Int64(c.data.count))
        let received = offset + UInt64(c.data.count)
        // A decompression bomb is refused as soon as its header is in, not after 100 MiB.
        if offset == 0, let image = ImageProcessor.header(path: vault.partialPath(file.id)),
           UInt64(image.width) * UInt64(image.height) > configuration.maxImagePixels {
            await discardUpload(file, files, vault)
            throw imageTooLarge(pixels: UInt64(image.width) * UInt64(image.height))
        }
        if received == file.uploadSize {
            finishUpload(ctx.peer, file, ctx.requestID, files, vault)
        } else {
            ctx.reply(uploadAnswer(file, offset: received, complete: false))
        }
    }

    private func imageTooLarge(pixels: UInt64) -> ServerError {
        .imageTooLarge(pixels: pixels, max: configuration.maxImagePixels)
    }

    private func discardUpload(_ file: FileRecord, _ files: any FileStore, _ vault: FileVault) async {
        try? await files.deleteFile(id: file.id)
        vault.removePartial(file.id)
    }

    /// Checks the whole upload on `filesQueue`, then records it and answers in a task on the hub
    /// (the connection's other requests are not held meanwhile).
    private func finishUpload(_ peer: Peer, _ file: FileRecord, _ id: UInt32, _ files: any FileStore, _ vault: FileVault) {
        finishingUploads.insert(file.id)
        let maxPixels = configuration.maxImagePixels
        filesQueue.async { [self] in
            let result = vault.finish(file, maxImagePixels: maxPixels)
            queue.async { [self] in
                output.turn { onHub { [self] in await recordUpload(result, peer, file, id, files, vault) } }
            }
        }
    }

    private func recordUpload(_ result: FileVault.Finished, _ peer: Peer, _ file: FileRecord, _ id: UInt32, _ files: any FileStore,
                              _ vault: FileVault) async {
        switch result {
        case .stored(let content):
            do {
                try await files.completeFile(id: file.id, content)
                vault.removePartial(file.id)
                peer.reply(id, uploadAnswer(file, offset: file.uploadSize, complete: true))
            } catch {
                report(error, for: Frame(type: .fileChunk, requestID: id, payload: []), to: peer)
            }
            // Recorded (or given up) only now: the rows decide from here whether the blob stays.
            blobRecorded(content.sha256)
        case .hashMismatch:
            await discardUpload(file, files, vault)
            peer.fail(id, .hashMismatch)
        case .imageTooLarge(let pixels):
            await discardUpload(file, files, vault)
            peer.fail(id, imageTooLarge(pixels: pixels))
        case .failed(let why):
            // The partial stays: the next FILE_STATUS tries again.
            logger.error("finishing an upload failed: \(why)")
            peer.fail(id, .fileNotStored)
        }
        finishingUploads.remove(file.id)
    }

    func getFile(_ ctx: RequestContext, _ g: FileGet) async throws {
        let (files, vault) = try fileAccess(ctx.peer)
        // Unknown, partial and forbidden look the same: an id reveals nothing.
        guard let file = try await files.file(id: g.fileID), file.complete else { throw ServerError.notFound(.file) }
        if try await !files.canRead(fileID: file.id, userID: ctx.user.id), try await !canReadAvatar(file.id, reader: ctx.user.id, files) {
            throw ServerError.notFound(.file)
        }
        let chunk = configuration.fileChunkSize
        let length = g.length == 0 || g.length > UInt64(chunk) ? chunk : Int(g.length)
        if g.thumbnail {
            guard !file.thumbnail.isEmpty else { throw ServerError.notFound(.thumbnail) }
            let all = file.thumbnail
            let start = Int(min(g.offset, UInt64(all.count)))
            let piece = Array(all[start..<min(all.count, start + length)])
            metrics.fileBytesOut.increment(by: Int64(piece.count))
            ctx.reply(FileData(fileID: file.id, offset: UInt64(start), data: piece, size: UInt64(all.count),
                                    sha256: ChatServer.sha256(all)))
            return
        }
        guard g.offset <= file.size else { throw ServerError.invalidArgument(.offsetPastEnd(size: file.size)) }
        let data = try vault.read(file.sha256, offset: g.offset, length: Int(min(UInt64(length), file.size - g.offset)))
        metrics.fileBytesOut.increment(by: Int64(data.count))
        ctx.reply(FileData(fileID: file.id, offset: g.offset, data: data, size: file.size, sha256: file.sha256))
    }

    /// Removes partial uploads untouched for the expiry (at start and every hour).
    func expirePartialUploads() async {
        guard let vault = fileVault, let files = store.files, let partials = try? await files.partialFiles() else { return }
        let active = finishingUploads
        for id in vault.expire(partials.filter { !active.contains($0.id) }, olderThan: configuration.partialExpirySeconds) {
            try? await files.deleteFile(id: id)
        }
    }

    /// Runs the expiry and the blob sweep now and then every hour (hub queue).
    func scheduleUploadExpiry() {
        onHub { [self] in
            await expirePartialUploads()
            sweepBlobs()
        }
        queue.asyncAfter(deadline: .now() + 3600) { [weak self] in self?.scheduleUploadExpiry() }
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    static func newFileID() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
    }
}
