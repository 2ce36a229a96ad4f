import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ServerProcess {
    static let lockFileName = "messageai.lock"

    /// One server per data directory. The database used to be opened with SQLite's exclusive
    /// locking, which also kept a second server out; the WAL checkpointer needs a second
    /// connection (issue 13), so the exclusion is now this `flock`, held until the process
    /// exits (the kernel drops it on kill -9 too). Returns nil when another process holds it.
    static func lockDataDirectory(_ directory: String) throws -> Int32? {
        let fd = open(directory + "/" + lockFileName, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory + "/" + lockFileName])
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd // deliberately never closed: the lock lives as long as the process
    }
}
