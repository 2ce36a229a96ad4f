import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Attention for messages outside the current conversation: the terminal bell (only when
/// stdout is a terminal, so piped output stays clean) and an optional desktop notification
/// program, run with the text as its one argument, never through a shell.
final class Notifier {
    /// Both follow /set (notify, bell).
    var command: String?
    var bell: Bool

    init(command: String?, bell: Bool) {
        self.command = command
        self.bell = bell
    }

    func notify(_ text: String) {
        if bell && isatty(1) == 1 {
            _ = "\u{7}".withCString { Glibc.write(1, $0, 1) }
        }
        if let command, !command.isEmpty { spawn(command, text) }
    }

    /// posix_spawnp with an argv array: message text can't inject shell syntax.
    private func spawn(_ program: String, _ text: String) {
        let args = [program, text]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, program, nil, nil, &argv, environ)
        guard rc == 0 else { return }
        // Reap it off the main queue so a slow notifier never blocks the client.
        let child = pid
        DispatchQueue.global().async {
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
    }
}
