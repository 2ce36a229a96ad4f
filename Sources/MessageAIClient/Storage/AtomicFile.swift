import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Crash-safe file replacement: the old content or the new one survives a crash or `kill -9`,
/// never a mix. Write a temp file next to the target, fsync it, rename over the target, then
/// fsync the directory so the rename itself is durable.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let step: String
        let errno: Int32
        var description: String { "cannot write \(path): \(step) failed: \(String(cString: strerror(errno)))" }
    }

    static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws {
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WriteError(path: tmp, step: "open", errno: errno) }
        var ok = true
        var failedStep = ""
        data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    ok = false; failedStep = "write"; return
                }
                off += n
            }
        }
        let savedErrno = errno
        if ok && fsync(fd) != 0 { ok = false; failedStep = "fsync" }
        // The umask may have narrowed the mode; credentials need exactly `mode`.
        fchmod(fd, mode)
        close(fd)
        guard ok else {
            unlink(tmp)
            throw WriteError(path: path, step: failedStep, errno: savedErrno)
        }
        guard rename(tmp, path) == 0 else {
            let e = errno
            unlink(tmp)
            throw WriteError(path: path, step: "rename", errno: e)
        }
        syncDirectory(of: path)
    }

    /// Best-effort: a filesystem that refuses fsync on a directory still has the rename.
    static func syncDirectory(of path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }

    /// Creates `path` and its parents with mode 0700 (the data dir holds credentials).
    static func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}
