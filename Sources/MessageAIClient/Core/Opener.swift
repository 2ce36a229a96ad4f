import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The system's file opener for /open: `$OPENER` when set (one program name or path, not a
/// command line), else `xdg-open`. Run with posix_spawn and an argument array, never through a
/// shell (a file name from someone else cannot inject anything), with stdin, stdout and stderr
/// on /dev/null so a chatty opener does not scribble over the prompt.
enum Opener {
    /// The program to run, or nil when there is none on this machine (a headless box without
    /// xdg-utils): the absolute path found on PATH, or `$OPENER` itself when it holds a slash.
    static func program(environment: [String: String] = ProcessInfo.processInfo.environment) -> (name: String, path: String)? {
        let wanted = environment["OPENER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        if wanted.contains("/") { return access(wanted, X_OK) == 0 ? (wanted, wanted) : nil }
        for dir in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(wanted)"
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue, access(candidate, X_OK) == 0 {
                return (wanted, candidate)
            }
        }
        return nil
    }

    /// Starts `program path`; `exited` gets its exit status on the main queue (an opener such
    /// as xdg-open returns once the viewer is launched, or with an error when it finds none).
    static func run(_ program: String, _ path: String, exited: @escaping (Int32) -> Void) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let args = [program, path]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, program, &actions, nil, &argv, environ) == 0 else { return false }
        let child = pid
        DispatchQueue.global().async {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            DispatchQueue.main.async { exited(code) }
        }
        return true
    }
}
