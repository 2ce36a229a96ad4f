import Foundation
@preconcurrency import CEditline
#if canImport(Glibc)
import Glibc
#endif

/// libedit's `rl_getc_function`: reads the terminal for libedit and hands it keys. It exists
/// because libedit alone gets three things wrong for people typing real text:
/// - it takes every value as one wide character, so UTF-8 is decoded here into code points;
/// - bracketed paste (`ESC[200~` ... `ESC[201~`) would be typed key by key, newlines and all,
///   running pasted `/commands`: the paste is collected and handed over whole;
/// - Backspace and the arrows move one code point, splitting 👍🏽 or 👨‍👩‍👧: they are repeated
///   here as often as the grapheme before (or after) the cursor has code points.
/// State is global because libedit calls a C function pointer; main queue only.
enum KeyReader {
    nonisolated(unsafe) private static var bytes: [UInt8] = []
    nonisolated(unsafe) private static var position = 0
    /// Keys decided but not yet handed to libedit (the rest of a grapheme, a short paste).
    nonisolated(unsafe) private static var keys: [Int32] = []
    /// read() gave 0: a Ctrl-D that the terminal took as end-of-file because it came in the
    /// instant libedit had the terminal in cooked mode (right after Enter).
    nonisolated(unsafe) private static var endOfFile = false
    /// A multi-line paste, delivered on the next turn of the main queue (not inside libedit).
    nonisolated(unsafe) static var onPaste: (String) -> Void = { _ in }
    /// Ctrl-C read as a byte (when the terminal does not turn it into SIGINT).
    nonisolated(unsafe) static var onInterrupt: () -> Void = {}
    /// Any other key: a pending "Ctrl-C again to quit" is forgotten.
    nonisolated(unsafe) static var onKey: () -> Void = {}
    /// A key refused because the line could outgrow libedit's buffer (LineBuffer.swift).
    nonisolated(unsafe) static var onRefused: () -> Void = {}
    /// A one-line paste for the editor to insert in one piece once libedit has returned
    /// (`.insert`), or, too long for libedit's buffer, to hand whole to the sender (`.send`).
    nonisolated(unsafe) static var pendingPaste: PendingPaste?
    enum PendingPaste { case insert(String), send(String) }

    /// Returned when the key was consumed here: Ctrl-^, bound to a function that does nothing
    /// (libedit must get some key; NUL makes it read again, blocking the main queue).
    static let nothing: Int32 = 0x1E
    private static let pasteStart: [UInt8] = Array("[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Before libedit is initialised: it takes rl_getc_function only then.
    /// libedit's own signal handlers are off too: they put the terminal in cooked mode and
    /// send the signal again to the process group, where the app's dispatch source (which
    /// handles Ctrl-C and resizes itself) may never see it.
    static func install() {
        rl_getc_function = keyReaderGetc
        rl_catch_signals = 0
        rl_catch_sigwinch = 0
    }

    /// After libedit is initialised: the key `nothing` stands for.
    static func bindNothing() {
        _ = rl_add_defun("messageai-nothing", keyReaderNothing, nothing)
    }

    /// fd 0 has something to read right now (bytes, or the end of input), without waiting.
    static func readableNow() -> Bool {
        var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Keys or bytes are waiting that the read source will not announce (already read from fd 0).
    static var hasPending: Bool { !keys.isEmpty || position < bytes.count || endOfFile }

    static func takePendingPaste() -> PendingPaste? {
        defer { pendingPaste = nil }
        return pendingPaste
    }

    /// Hands libedit `key` next (Ctrl-U to clear the line, say) before anything typed.
    static func inject(_ key: Int32) { keys.insert(key, at: 0) }

    /// Ctrl-U, then the do-nothing key. libedit's readline layer copies the line's length and
    /// cursor into `rl_end`/`rl_point` only when a function bound with `rl_add_defun` runs (our
    /// `nothing`), never after a built-in edit: after Ctrl-U alone the cleared line still read
    /// as typed until the next key, and a Ctrl-C arriving as a signal (no key) found it "not
    /// empty" and cleared it again, forever, instead of saying how to quit (issue 24).
    static func injectClearLine() { keys.insert(contentsOf: [0x15, nothing], at: 0) }

    // MARK: Bytes from fd 0

    /// Reads what fd 0 has, waiting up to `timeoutMs` (-1: forever) for the first byte.
    private static func fill(timeoutMs: Int32) -> Bool {
        var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, timeoutMs)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { return false }
            break
        }
        if position >= bytes.count { bytes.removeAll(keepingCapacity: true); position = 0 }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(0, &chunk, chunk.count)
        if n == 0 { endOfFile = true }
        guard n > 0 else { return false }
        bytes += chunk[0..<n]
        return true
    }

    private static func next(timeoutMs: Int32) -> UInt8? {
        if position >= bytes.count && !fill(timeoutMs: timeoutMs) { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// Whether the unread bytes start with `expected`, waiting briefly for them to arrive.
    private static func peek(_ expected: [UInt8]) -> Bool {
        while bytes.count - position < expected.count {
            if !fill(timeoutMs: 50) { break }
        }
        guard bytes.count - position >= expected.count else { return false }
        return Array(bytes[position..<position + expected.count]) == expected
    }

    // MARK: Keys

    fileprivate static func getc() -> Int32 {
        if !keys.isEmpty { return keys.removeFirst() }
        // An end of input that a look-ahead read already met (a Ctrl-D typed while the terminal
        // was in cooked mode reads as 0 bytes) is handed on now: waiting for more bytes would
        // block the main queue on a key that was already typed.
        if endOfFile && position >= bytes.count { endOfFile = false; return 0x04 }
        guard let b = next(timeoutMs: -1) else {
            // Handed on as the Ctrl-D it was, so libedit ends input on an empty line.
            if endOfFile { endOfFile = false; return 0x04 }
            return -1
        }
        switch b {
        case 0x03:
            DispatchQueue.main.async { onInterrupt() }
            return nothing
        case 0x1B:
            onKey()
            return escape()
        case 0x7F, 0x08:
            onKey()
            return repeated(Int32(b), times: LineText.scalarsBeforeCursor())
        default:
            onKey()
            return admitted(decode(b))
        }
    }

    /// Control keys that delete, move or end the line: they cannot make it longer.
    private static let neutral: Set<Int32> = [0x01, 0x02, 0x04, 0x05, 0x06, 0x0A, 0x0B, 0x0C, 0x0D, 0x15, 0x17]

    /// `key`, or `nothing` when it could grow the line past what libedit's buffer holds
    /// (LineBuffer.swift): typed text by its UTF-8 length, any other control key (a yank, a
    /// history line) by the most it could add.
    private static func admitted(_ key: Int32) -> Int32 {
        let growth: Int
        if key >= 0x20, let scalar = Unicode.Scalar(UInt32(key)) { growth = String(scalar).utf8.count }
        else if neutral.contains(key) { growth = 0 }
        else { growth = LineBuffer.largestGrowth }
        guard LineBuffer.fits(adding: growth) else {
            DispatchQueue.main.async { onRefused() }
            return nothing
        }
        return key
    }

    /// `key` now and `times - 1` more after it.
    private static func repeated(_ key: Int32, times: Int) -> Int32 {
        if times > 1 { keys.insert(contentsOf: Array(repeating: key, count: times - 1), at: 0) }
        return key
    }

    private static func escape() -> Int32 {
        if peek(pasteStart) {
            position += pasteStart.count
            return paste()
        }
        // Left, right (normal and application cursor mode) and Delete, by grapheme.
        for (seq, before) in [("[D", true), ("OD", true), ("[C", false), ("OC", false), ("[3~", false)] {
            let tail = Array(seq.utf8)
            guard peek(tail) else { continue }
            position += tail.count
            let n = before ? LineText.scalarsBeforeCursor() : LineText.scalarsAfterCursor()
            let one = ([0x1B] + tail).map(Int32.init)
            let all = Array([[Int32]](repeating: one, count: max(n, 1)).joined())
            keys.insert(contentsOf: all.dropFirst(), at: 0)
            return 0x1B
        }
        // ESC and a digit start a numeric argument: libedit would insert the next key that
        // many times (up to 1,000,000) in one go, past any buffer check. Not offered.
        if position < bytes.count, (0x30...0x39).contains(bytes[position]) {
            position += 1
            return nothing
        }
        // Other sequences (Up, Down: history; ESC . and ESC _: a copied word) can add a line.
        guard LineBuffer.fits(adding: LineBuffer.largestGrowth) else {
            if peek(Array("[".utf8)) || peek(Array("O".utf8)) {
                position += 1
                while position < bytes.count, !(0x40...0x7E).contains(bytes[position]) { position += 1 }
            }
            if position < bytes.count { position += 1 }
            DispatchQueue.main.async { onRefused() }
            return nothing
        }
        return 0x1B
    }

    /// UTF-8 to one code point (invalid input becomes U+FFFD).
    private static func decode(_ lead: UInt8) -> Int32 {
        let count = lead < 0x80 ? 0 : lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : -1
        guard count >= 0 else { return 0xFFFD }
        var seq = [lead]
        for _ in 0..<count {
            guard let c = next(timeoutMs: 100), c & 0xC0 == 0x80 else { return 0xFFFD }
            seq.append(c)
        }
        guard let scalar = String(decoding: seq, as: UTF8.self).unicodeScalars.first else { return 0xFFFD }
        return Int32(scalar.value)
    }

    /// 5 s, not 1: a paste that pauses longer (a stalled SSH link, a busy terminal; the editor
    /// fuzz's resize in mid-paste) had its rest typed key by key, its lines run as Enter.
    static let pasteSilenceMs: Int32 = 5_000
    /// The message limit in Unicode scalars (the server's, from WELCOME, once known).
    nonisolated(unsafe) static var lineLimit: () -> Int = { 10_000 }

    /// Collects a bracketed paste up to its end marker, or `pasteSilenceMs` without a byte
    /// (a terminal that lost the marker must not hold the line forever). One line is
    /// inserted into the edit line in one piece (tabs as spaces, other control characters
    /// dropped, no completion): key by key, libedit redrew the line for each character, and
    /// a long line is what corrupted its heap (LineBuffer.swift). Several lines go to
    /// `onPaste` as one text; a line longer than a message can be, to the sender.
    private static func paste() -> Int32 {
        var collected: [UInt8] = []
        while let b = next(timeoutMs: pasteSilenceMs) {
            collected.append(b)
            if collected.count >= pasteEnd.count && Array(collected.suffix(pasteEnd.count)) == pasteEnd {
                collected.removeLast(pasteEnd.count)
                break
            }
        }
        let text = PasteText.normalized(String(decoding: collected, as: UTF8.self))
        if text.contains("\n") {
            DispatchQueue.main.async { onPaste(text) }
            return nothing
        }
        let typed = PasteText.oneLine(text)
        guard !typed.isEmpty else { return nothing }
        // A line longer than any message can be goes to the sender, which refuses it with its
        // length at once: on the line it could never be sent, and libedit, after one such line
        // of 99,174 characters, no longer took Enter on the next (editor fuzz, seed 24).
        let sendable = typed.unicodeScalars.count <= lineLimit()
        pendingPaste = sendable && LineBuffer.fits(adding: typed.utf8.count) ? .insert(typed) : .send(typed)
        return nothing
    }
}

private func keyReaderNothing(_ count: Int32, _ key: Int32) -> Int32 { 0 }

private func keyReaderGetc(_ file: UnsafeMutablePointer<FILE>?) -> Int32 {
    KeyReader.getc()
}
