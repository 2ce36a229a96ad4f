import Foundation
@preconcurrency import CEditline
#if canImport(Glibc)
import Glibc
#endif

/// What joins the line from outside libedit's key loop (a paste, a put-back draft), and the
/// terminal mode that lets a paste arrive as pasted.
extension EditlineEditor {
    /// Text joins the line at the cursor in one insertion, drawn once; text that would
    /// outgrow libedit's buffer (LineBuffer.swift) is far over any message limit and goes to
    /// the sender whole, which says so.
    func insertOnLine(_ text: String) {
        guard active else { return }
        guard LineBuffer.fits(adding: text.utf8.count) else { onPaste(text); return }
        clearInputRows()
        LineText.stale = false
        LineBuffer.insert(text)
        rl_forced_update_display()
    }

    /// libedit's edit mode has the terminal turn NL into CR (INLCR): a pasted CRLF then
    /// reached the paste reader as CR CR, two line ends (an empty line in the message). Off
    /// while editing, with CR-to-NL (ICRNL), so a paste arrives as pasted; Enter (CR) and
    /// Ctrl-J (NL) both still end a line. libedit puts the terminal back when it stops.
    func keepLineEnds() {
        var t = termios()
        let translations = tcflag_t(INLCR) | tcflag_t(ICRNL)
        guard tcgetattr(0, &t) == 0, t.c_iflag & translations != 0 else { return }
        t.c_iflag &= ~translations
        _ = tcsetattr(0, TCSANOW, &t)
    }
}
