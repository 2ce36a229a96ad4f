/// What an admin command sends back over the admin socket, one line at a time:
///
///     out: TEXT          a line for the admin's stdout
///     err: TEXT          a line for stderr
///     progress: N TOTAL  work done so far (backup), for a progress bar on a terminal
///     exit: STATUS       the last line: the command's exit status
///
/// A line protocol rather than frames: the socket is local, and the admin tool only prints it.
public enum AdminLine: Equatable, Sendable {
    case out(String)
    case err(String)
    case progress(done: UInt64, total: UInt64)
    case exit(Int32)

    var encoded: String {
        switch self {
        case .out(let s): return s.split(separator: "\n", omittingEmptySubsequences: false).map { "out: \($0)\n" }.joined()
        case .err(let s): return s.split(separator: "\n", omittingEmptySubsequences: false).map { "err: \($0)\n" }.joined()
        case let .progress(done, total): return "progress: \(done) \(total)\n"
        case .exit(let status): return "exit: \(status)\n"
        }
    }

    public init?(line: Substring) {
        if line.hasPrefix("out: ") { self = .out(String(line.dropFirst(5))) }
        else if line.hasPrefix("err: ") { self = .err(String(line.dropFirst(5))) }
        else if line.hasPrefix("progress: ") {
            let parts = line.dropFirst(10).split(separator: " ")
            guard parts.count == 2, let d = UInt64(parts[0]), let t = UInt64(parts[1]) else { return nil }
            self = .progress(done: d, total: t)
        } else if line.hasPrefix("exit: "), let s = Int32(line.dropFirst(6)) { self = .exit(s) }
        else { return nil }
    }
}

/// Exit statuses of admin commands (sysexits.h where one fits).
public enum AdminStatus {
    public static let ok: Int32 = 0
    public static let failed: Int32 = 1
    /// Bad words: an unknown command or a missing argument (EX_USAGE).
    public static let usage: Int32 = 64
    /// No such user or session (EX_NOUSER).
    public static let notFound: Int32 = 67
    /// The server is not running, or the socket cannot be reached (EX_UNAVAILABLE).
    public static let unavailable: Int32 = 69
    /// Not the server's own user (EX_NOPERM).
    public static let notPermitted: Int32 = 77
}
