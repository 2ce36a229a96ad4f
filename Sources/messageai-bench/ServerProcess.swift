import Dispatch
import Glibc

/// A `messageai-server` started by the bench: its own temp data dir, port 0, pinned to one core
/// with taskset when asked. Its stderr is drained on a background thread into `server.log` in
/// the data dir; `start` returns once the `listening on HOST:PORT` line has appeared.
final class ServerProcess {
    let pid: pid_t
    let port: UInt16
    let dataDir: String

    static func start(executable: String, arguments extra: [String], cpu: String?, timeout: Double) throws -> ServerProcess {
        var template = Array("/tmp/messageai-bench-XXXXXX".utf8CString)
        guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            throw BenchError("mkdtemp failed")
        }
        var argv = [executable, "--host", "127.0.0.1", "--port", "0", "--data-dir", dir] + extra
        if let cpu, !cpu.isEmpty, access("/usr/bin/taskset", X_OK) == 0 {
            argv = ["/usr/bin/taskset", "-c", cpu] + argv  // taskset execs: the pid stays the server's
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw BenchError("pipe failed") }
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // dup2 onto fd 2 clears it there
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        close(pipeFDs[1])
        guard rc == 0 else { close(pipeFDs[0]); throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        let log = StderrDrain(fd: pipeFDs[0], logPath: dir + "/server.log")
        guard let port = log.waitForListening(timeout: timeout) else {
            kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0)
            let stderrTail = log.tail()
            removeTree(dir)
            throw BenchError("server did not print `listening on HOST:PORT` within \(timeout) s; its stderr:\n\(stderrTail)")
        }
        runningServerPID = pid
        return ServerProcess(pid: pid, port: port, dataDir: dir)
    }

    private init(pid: pid_t, port: UInt16, dataDir: String) {
        self.pid = pid; self.port = port; self.dataDir = dataDir
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; removes the data dir.
    func stop(grace: Double = 10) {
        runningServerPID = 0
        kill(pid, SIGTERM)
        let deadline = Deadline(seconds: grace)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if deadline.expired { kill(pid, SIGKILL); waitpid(pid, &status, 0); break }
            usleep(10_000)
        }
        removeTree(dataDir)
    }
}

/// The server this process started and has not stopped yet: a SIGINT or SIGTERM to the bench
/// (Ctrl-C, `timeout`) stops it too instead of leaving it running.
var runningServerPID: pid_t = 0

func stopServerOnSignals() {
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        signal(sig) { s in
            if runningServerPID > 0 { kill(runningServerPID, SIGTERM) }
            _exit(128 + s)
        }
    }
}

/// Reads the server's stderr until EOF so it never blocks on a full pipe.
private final class StderrDrain: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private let found = DispatchSemaphore(value: 0)
    private var lines: [String] = []
    private var port: UInt16?

    init(fd: Int32, logPath: String) {
        let logFD = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        Thread.detach { [self] in
            var pending: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                if logFD >= 0 { _ = buf.withUnsafeBytes { write(logFD, $0.baseAddress, n) } }
                pending += buf[0..<n]
                while let nl = pending.firstIndex(of: 10) {
                    handle(String(decoding: pending[..<nl], as: UTF8.self))
                    pending.removeSubrange(...nl)
                }
            }
            close(fd); if logFD >= 0 { close(logFD) }
            found.signal()  // EOF: the server died; wake the waiter
        }
    }

    private func handle(_ line: String) {
        lock.wait(); defer { lock.signal() }
        lines.append(line)
        if lines.count > 40 { lines.removeFirst() }
        if port == nil, let r = line.firstRange(of: "listening on "),
           let p = line[r.upperBound...].split(separator: ":").last.flatMap({ UInt16($0.prefix { $0.isNumber }) }) {
            port = p
            found.signal()
        }
    }

    func waitForListening(timeout: Double) -> UInt16? {
        _ = found.wait(timeout: .now() + timeout)
        lock.wait(); defer { lock.signal() }
        return port
    }

    func tail() -> String { lock.wait(); defer { lock.signal() }; return lines.joined(separator: "\n") }
}

/// A plain thread for blocking reads (Dispatch's pool would lend one of its few workers).
enum Thread {
    static func detach(_ body: @escaping () -> Void) {
        final class Box { let body: () -> Void; init(_ b: @escaping () -> Void) { body = b } }
        var tid = pthread_t()
        let arg = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(&tid, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, arg)
        pthread_detach(tid)
    }
}

/// rm -rf of the bench's own temp dir (paths it created under /tmp only).
func removeTree(_ path: String) {
    guard path.hasPrefix("/tmp/messageai-bench-") else { return }
    var pid: pid_t = 0
    let argv: [String] = ["/bin/rm", "-rf", path]
    var args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for a in args { free(a) } }
    if posix_spawn(&pid, "/bin/rm", nil, nil, &args, environ) == 0 { var st: Int32 = 0; waitpid(pid, &st, 0) }
}
