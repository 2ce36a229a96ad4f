import Crypto
import Foundation
import MessageAIProtocol

/// Files: /send-file goes through the outbox like text (durable first, sent once); its upload
/// resumes from the server's offset after a reconnect or a restart of either side.
extension Client {
    var accountDirectory: String? { session.map { AccountPaths(dataDir: config.dataDir, username: $0.username).directory } }

    /// Queues `path` with an optional caption for the current conversation: a private copy is
    /// made and hashed first, so the entry stands for exactly these bytes.
    public func queueFile(_ path: String, caption: String) -> Result<OutboxEntry, ClientError> {
        guard let outbox, session != nil, let dir = accountDirectory else { return .failure(.notLoggedIn) }
        guard let cid = currentConversation else {
            return .failure(ClientError("no_conversation", "no conversation is open: use /dm USER, /open NAME or /group create"))
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
            return .failure(ClientError("not_found", "no such file: \(path)"))
        }
        let clientID = Outbox.newClientID()
        let copy = dir + "/outbox-files/" + clientID
        let digest: (sha256: [UInt8], size: UInt64)
        do {
            try AtomicFile.makeDirectory(dir + "/outbox-files")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            digest = try Client.digest(path: copy)
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            return .failure(ClientError("storage", "cannot read \(path): \(error.localizedDescription)"))
        }
        if let max = link.welcome?.maxFileSize, max > 0, digest.size > max {
            try? FileManager.default.removeItem(atPath: copy)
            return .failure(ClientError("file_too_large", "the file has \(Attachment.humanSize(digest.size)); the server takes at most \(Attachment.humanSize(max))"))
        }
        let name = (path as NSString).lastPathComponent
        let file = OutboxFile(copy: copy, name: name, size: digest.size, mediaType: FileNames.mediaType(of: path),
                              sha256: Hex.encode(digest.sha256), fileID: nil)
        let entry = OutboxEntry(clientID: clientID, conversationID: cid, text: caption, created: Output.nowMs(), file: file)
        do { try outbox.append(entry) } catch {
            try? FileManager.default.removeItem(atPath: copy)
            return .failure(ClientError("storage", "cannot write the outbox: \(error)"))
        }
        output.emit(FileEvent.queued(entry, file))
        drainOutbox()
        return .success(entry)
    }

    /// Uploads an outbox entry's file from wherever the server stands; `done` gets the file id.
    func uploadFile(_ entry: OutboxEntry, _ done: @escaping (Result<[UInt8], ClientError>) -> Void) {
        guard var file = entry.file, let sha = Hex.decode(file.sha256) else { done(.failure(ClientError("storage", "bad outbox entry"))); return }
        var lastShown = -1
        let source = Upload.Source(path: file.copy, name: file.name, size: file.size, mediaType: file.mediaType, sha256: sha)
        Upload(source, client: self, onFileID: { [weak self] id in
            // Kept with the entry, so a restart resumes this upload instead of a new one.
            file.fileID = Hex.encode(id)
            var updated = entry
            updated.file = file
            try? self?.outbox?.update(updated)
        }, onProgress: { [weak self] offset in
            guard let self else { return }
            let percent = file.size == 0 ? 100 : Int(offset * 100 / file.size)
            guard percent != lastShown else { return }
            lastShown = percent
            output.emit(FileEvent.progress(direction: "upload", name: file.name, bytes: offset, size: file.size, clientID: entry.clientID))
            showProgress("upload", file.name, offset, file.size)
        }, done: done).start()
    }

    /// The status line shows transfers in a terminal; scripts get "progress" events instead.
    func showProgress(_ direction: String, _ name: String, _ bytes: UInt64, _ size: UInt64) {
        transfer = bytes >= size ? nil : "\(direction == "upload" ? "↑" : "↓") \(Output.printable(name).prefix(30)) \(size == 0 ? 100 : bytes * 100 / size)%"
        onChange()
    }

    static func digest(path: String) throws -> (sha256: [UInt8], size: UInt64) {
        guard let h = FileHandle(forReadingAtPath: path) else { throw ClientError("storage", "cannot open \(path)") }
        defer { try? h.close() }
        var hasher = SHA256()
        var size: UInt64 = 0
        while let data = try h.read(upToCount: 1 << 20), !data.isEmpty {
            hasher.update(data: data)
            size += UInt64(data.count)
        }
        return (Array(hasher.finalize()), size)
    }

    static func read(_ path: String, offset: UInt64, length: Int) -> [UInt8]? {
        guard let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        guard (try? h.seek(toOffset: offset)) != nil, let data = try? h.read(upToCount: length) else { return length == 0 ? [] : nil }
        return [UInt8](data)
    }
}
