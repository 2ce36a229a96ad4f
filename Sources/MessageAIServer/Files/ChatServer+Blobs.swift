import MessageAIProtocol

/// Reclaiming disk space: a blob goes once no complete file row serves its content. The hub
/// decides (one indexed query per content, in a task: `onHub`), `filesQueue` deletes (an unlink of 100 MiB takes
/// milliseconds), and `FileVault.inFlight` keeps a blob an upload is about to be recorded
/// with (see BlobsInFlight for the race).
extension ChatServer {
    /// Hub: deletes, off the hub, the blobs of these contents that no complete row serves.
    func collectBlobs(_ hashes: [[UInt8]]) {
        guard let vault = fileVault, let files = store.files else { return }
        if backupsRunning > 0 { deferredReclaim += hashes; return }
        onHub { [self] in
            // A failed query keeps the blob: a leak is fixed by the next sweep, a wrong delete never.
            var unserved: [[UInt8]] = []
            for sha in hashes where !sha.isEmpty {
                if (try? await files.isServed(sha256: sha)) == false { unserved.append(sha) }
            }
            guard !unserved.isEmpty else { return }
            // A backup that began while the store was asked copies these blobs: keep them for it.
            if backupsRunning > 0 { deferredReclaim += unserved; return }
            let doomed = unserved
            filesQueue.async {
                for sha in doomed { vault.deleteBlob(sha) }
            }
        }
    }

    /// Hub: a blob made on `filesQueue` was recorded in a row (or given up); from now on the
    /// rows decide whether it stays.
    func blobRecorded(_ sha256: [UInt8]) {
        guard let vault = fileVault else { return }
        filesQueue.async { vault.inFlight.remove(sha256) }
    }

    /// Every blob no row serves: left by a crash between deleting a row and its blob.
    func sweepBlobs() {
        guard let vault = fileVault else { return }
        filesQueue.async { [self] in
            let all = vault.blobHashes()
            queue.async { [self] in collectBlobs(all) }
        }
    }
}
