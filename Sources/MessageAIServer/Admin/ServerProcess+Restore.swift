import Foundation
import MessageAISQLite
#if canImport(Glibc)
import Glibc
#endif

extension ServerProcess {
    /// `messageai-server restore SRC --data-dir D`: puts a backup made by `backup` into D.
    /// Refuses a data directory a server is using (its lock is held), and one that already holds
    /// a database unless `overwrite`. The database is checked (`PRAGMA quick_check`) before it
    /// takes its place. Returns the exit status.
    public static func restore(from source: String, dataDirectory: String, overwrite: Bool) -> Int32 {
        umask(0o077)
        func fail(_ message: String) -> Int32 { StandardError.write("messageai-server: restore: \(message)\n"); return 1 }
        let backupDatabase = source + "/" + BackupFiles.databaseName
        guard BackupFiles.exists(source + "/" + BackupFiles.markerName), BackupFiles.exists(backupDatabase) else {
            return fail("\(source) is not a finished backup (no \(BackupFiles.markerName) or \(BackupFiles.databaseName))")
        }
        do {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // Held until this process exits: no server can start on D while the restore runs.
            guard try lockDataDirectory(dataDirectory) != nil else {
                return fail("a server is running on \(dataDirectory): stop it first (a live data directory is never overwritten)")
            }
            let database = dataDirectory + "/" + databaseFileName
            if BackupFiles.exists(database) || BackupFiles.exists(dataDirectory + "/files/blobs") {
                guard overwrite else {
                    return fail("\(dataDirectory) already holds a server's data; restore into an empty directory, "
                                + "or pass --overwrite to replace it")
                }
                for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) }
                try? FileManager.default.removeItem(atPath: dataDirectory + "/files")
                for name in BackupFiles.tlsNames { unlink(dataDirectory + "/" + name) }
            }
            let incoming = database + ".restoring"
            unlink(incoming)
            try BackupFiles.copy(backupDatabase, incoming)
            let check = try Database(path: incoming)
            let answer = try check.queryOne("PRAGMA quick_check") { $0.string(0) } ?? ""
            check.close()
            guard answer == "ok" else { unlink(incoming); return fail("the backup's database is damaged: \(answer)") }
            guard rename(incoming, database) == 0 else { return fail("cannot move the database into place: \(String(cString: strerror(errno)))") }
            print("database: \(database) (\(ChatServer.size(BackupFiles.size(database))))")

            if BackupFiles.exists(source + "/files/blobs") {
                for dir in ["/files", "/files/partial", "/files/blobs"] { try BackupFiles.makeDirectory(dataDirectory + dir) }
                let names = BackupFiles.files(in: source + "/files/blobs")
                for name in names { try BackupFiles.copy(source + "/files/blobs/" + name, dataDirectory + "/files/blobs/" + name) }
                BackupFiles.syncDirectory(dataDirectory + "/files/blobs")
                print("files: \(names.count) stored file(s) in \(dataDirectory)/files")
            }
            if BackupFiles.tlsNames.allSatisfy({ BackupFiles.exists(source + "/" + $0) }) {
                for name in BackupFiles.tlsNames { try BackupFiles.copy(source + "/" + name, dataDirectory + "/" + name) }
                print("TLS: the generated certificate and key (same fingerprint as before)")
            }
            if BackupFiles.exists(source + "/tls-files") {
                print("TLS: the files given with --tls-cert/--tls-key are in \(source)/tls-files; put them back where the server reads them")
            }
            BackupFiles.syncDirectory(dataDirectory)
            print("restored \(source) into \(dataDirectory); start the server with --data-dir \(dataDirectory)")
            return 0
        } catch {
            return fail("\(error)")
        }
    }
}
