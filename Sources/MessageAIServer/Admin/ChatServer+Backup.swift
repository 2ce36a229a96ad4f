import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `messageai-server backup DEST`: a consistent copy while the server runs and clients send.
///
/// Order matters. File reclaim pauses first (a blob the database copy refers to must not be
/// deleted before it is copied); then the database is copied as of one moment (`VACUUM INTO`
/// on a connection of its own: every message acknowledged before that moment is in it); then
/// the blobs, which are immutable and named by their SHA-256 (those stored after the moment
/// are copied too, harmlessly); then the TLS files; then the marker. Reclaim resumes at the end
/// with what it put aside. Partial uploads are not copied: clients resume them from the start.
extension ChatServer {
    /// What `admin backup` answers on a database that has no single-file copy (PostgreSQL).
    static let backupUnavailable = "backup: not available on this database; use the database's own tools, e.g. pg_dump"

    func backup(to destination: String, _ admin: any AdminStore, send: @escaping @Sendable (AdminLine) -> Void) throws {
        // A capability the store offers or not (SQLite's online copy), asked for, never cast.
        guard let copier = admin.backup else { throw AdminFailure(message: Self.backupUnavailable, status: AdminStatus.failed) }
        guard destination.hasPrefix("/") else {
            throw AdminFailure(message: "the backup directory must be an absolute path", status: AdminStatus.usage)
        }
        if BackupFiles.exists(destination),
           !((try? FileManager.default.contentsOfDirectory(atPath: destination))?.isEmpty ?? false) {
            throw AdminFailure(message: "\(destination) exists and is not an empty directory: back up into a new one", status: AdminStatus.failed)
        }
        backupsRunning += 1
        let files = fileVault.map { $0.blobDirectory }
        let dataDirectory = configuration.dataDirectory ?? ""
        let tls = configuration.tls
        // Off the hub: a task of its own, on the global executor, where the copy (a store call
        // that takes as long as the database is large) runs while the hub goes on.
        Task.detached { [self] in
            let status: Int32
            do {
                try await Self.writeBackup(destination, copier: copier, blobs: files, dataDirectory: dataDirectory, tls: tls, send: send)
                status = AdminStatus.ok
            } catch {
                send(.err("backup failed: \(error)"))
                status = AdminStatus.failed
            }
            queue.async { [self] in
                backupsRunning -= 1
                if backupsRunning == 0 && !deferredReclaim.isEmpty {
                    let put = deferredReclaim
                    deferredReclaim = []
                    collectBlobs(put)
                }
                logger.notice("backup to \(destination) \(status == AdminStatus.ok ? "done" : "failed")")
                send(.exit(status))
            }
        }
    }

    private static func writeBackup(_ dest: String, copier: any BackupStore, blobs: String?, dataDirectory: String, tls: TLSFiles?,
                                    send: @escaping @Sendable (AdminLine) -> Void) async throws {
        try BackupFiles.makeDirectory(dest)
        let database = dest + "/" + BackupFiles.databaseName
        let started = Date()
        try await copier.snapshot(into: database)
        let databaseBytes = BackupFiles.size(database)
        send(.out("database: \(database) (\(size(databaseBytes)), as of \(time(UInt64(started.timeIntervalSince1970 * 1000))))"))

        var blobCount = 0
        var blobBytes: UInt64 = 0
        if let blobs {
            try BackupFiles.makeDirectory(dest + "/files")
            try BackupFiles.makeDirectory(dest + "/files/partial")
            try BackupFiles.makeDirectory(dest + "/files/blobs")
            let names = BackupFiles.files(in: blobs)
            let total = names.reduce(UInt64(0)) { $0 + BackupFiles.size(blobs + "/" + $1) }
            var done: UInt64 = 0
            var lastShown = Date.distantPast
            for name in names {
                let copied = try BackupFiles.copy(blobs + "/" + name, dest + "/files/blobs/" + name) { n in
                    if Date().timeIntervalSince(lastShown) > 0.2 {
                        lastShown = Date()
                        send(.progress(done: done + n, total: total))
                    }
                }
                guard copied else { continue }
                done += BackupFiles.size(dest + "/files/blobs/" + name)
                blobCount += 1
            }
            blobBytes = done
            send(.progress(done: total, total: total))
            BackupFiles.syncDirectory(dest + "/files/blobs")
            send(.out("files: \(dest)/files (\(blobCount) stored file(s), \(size(blobBytes)))"))
        }

        // The certificate and key served: the generated pair under its own names (a restore
        // puts it back, so users keep trusting the same fingerprint); files given with
        // --tls-cert/--tls-key are copied under tls-files/ for the admin to put back.
        if let tls {
            let generated = tls.certificatePath == dataDirectory + "/" + ServerProcess.generatedCertificateName
            let target = generated ? dest : dest + "/tls-files"
            if !generated { try BackupFiles.makeDirectory(target) }
            let names = generated ? BackupFiles.tlsNames
                : [URL(fileURLWithPath: tls.certificatePath).lastPathComponent, URL(fileURLWithPath: tls.keyPath).lastPathComponent]
            try BackupFiles.copy(tls.certificatePath, target + "/" + names[0])
            try BackupFiles.copy(tls.keyPath, target + "/" + names[1])
            send(.out("TLS: certificate and key in \(target)"))
        }
        let marker = "messageai-server backup\ncreated \(time(UInt64(started.timeIntervalSince1970 * 1000)))\n"
            + "database \(databaseBytes) bytes\nfiles \(blobCount) (\(blobBytes) bytes)\n"
        let fd = open(dest + "/" + BackupFiles.markerName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BackupFiles.Failure("cannot write the marker in \(dest)") }
        _ = marker.withCString { write(fd, $0, strlen($0)) }
        fsync(fd)
        close(fd)
        BackupFiles.syncDirectory(dest)
        send(.out("backup complete: \(dest) (restore with: messageai-server restore \(dest) --data-dir DIR)"))
    }
}
