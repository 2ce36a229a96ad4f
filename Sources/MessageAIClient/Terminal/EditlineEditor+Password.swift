import Foundation
@preconcurrency import CEditline
#if canImport(Glibc)
import Glibc
#endif

/// Password entry: libedit is paused and echo turned off, and the read source collects the
/// bytes as they come, so the main queue (network, incoming messages) never blocks on it.
extension EditlineEditor {
    public func readPassword(_ prompt: String, _ done: @escaping (String?) -> Void) {
        guard active, secret == nil else { done(nil); return }
        var old = termios()
        guard tcgetattr(0, &old) == 0 else { done(nil); return }
        clearInputRows()
        rl_callback_handler_remove()
        active = false
        var quiet = old
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON)
        tcsetattr(0, TCSANOW, &quiet)
        secret = ([], old, done)
        Output.plainWrite(prompt, .out)
    }

    /// Bytes of the password: Enter ends it, Backspace removes a character, Ctrl-U clears,
    /// Ctrl-C (as a byte or a signal) cancels.
    func readSecret() {
        var chunk = [UInt8](repeating: 0, count: 512)
        let n = read(0, &chunk, chunk.count)
        guard n > 0 else { finishSecret(nil); return }
        for b in chunk[0..<n] {
            switch b {
            case 0x0D, 0x0A: finishSecret(String(decoding: secret?.bytes ?? [], as: UTF8.self)); return
            case 0x03: finishSecret(nil); return
            case 0x15: secret?.bytes.removeAll()
            case 0x7F, 0x08:
                // One character: drop UTF-8 continuation bytes, then the lead byte.
                while let last = secret?.bytes.last, last & 0xC0 == 0x80 { secret?.bytes.removeLast() }
                if secret?.bytes.isEmpty == false { secret?.bytes.removeLast() }
            default:
                if secret?.bytes.count ?? 0 < 4096 { secret?.bytes.append(b) }
            }
        }
    }

    func finishSecret(_ value: String?) {
        guard var s = secret else { return }
        secret = nil
        tcsetattr(0, TCSANOW, &s.saved)
        Output.plainWrite(value == nil ? "^C\n" : "\n", .out)
        s.bytes.removeAll()
        install()
        let later = held
        held = []
        for (text, stream) in later { printAbove(text, stream) }
        s.done(value)
    }
}
