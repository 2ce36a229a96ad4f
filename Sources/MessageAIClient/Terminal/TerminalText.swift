import Foundation
@preconcurrency import CEditline
#if canImport(Glibc)
import Glibc
#endif

/// The terminal's character set and how wide text is on screen.
enum TerminalText {
    /// libedit drops every byte above 0x7F unless LC_CTYPE is UTF-8. The environment's locale
    /// first; when that is not UTF-8 (LANG unset, as in a fresh container, or a locale that
    /// is not generated) C.UTF-8, which glibc always has. Only LC_CTYPE: numbers and dates
    /// are formatted by Foundation, not by the C library.
    /// Returns the codeset in use (for tests and diagnostics).
    @discardableResult
    static func useUTF8() -> String {
        setlocale(LC_CTYPE, "")
        if !isUTF8() { setlocale(LC_CTYPE, "C.UTF-8") }
        if !isUTF8() { setlocale(LC_CTYPE, "C.utf8") }
        return String(cString: nl_langinfo(nl_item(CODESET)))
    }

    private static func isUTF8() -> Bool {
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).lowercased()
        return codeset == "utf-8" || codeset == "utf8"
    }

    /// Terminal columns `text` takes, counted per code point the way libedit and the
    /// terminal do (wcwidth): East Asian wide and emoji 2, combining marks and joiners 0.
    static func columns(_ text: String) -> Int {
        var total = 0
        for u in text.unicodeScalars {
            let w = messageai_wcwidth(u.value)
            if w > 0 { total += Int(w) } else if w < 0 && u.value >= 0x20 {
                // Unassigned in this libc's tables: wide if Unicode says emoji presentation.
                total += u.properties.isEmojiPresentation ? 2 : 1
            }
        }
        return total
    }

    /// The terminal's width in columns (80 when it cannot be asked).
    static func width() -> Int {
        var ws = winsize()
        return ioctl(1, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 ? Int(ws.ws_col) : 80
    }
}
