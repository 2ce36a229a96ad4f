@preconcurrency import CEditline
import Foundation

extension EditlineEditor {
    /// /clear: the screen and its scrollback are cleared, the prompt and the half-typed line
    /// drawn again at the top.
    public func clearScreen() {
        Output.plainWrite("\u{1B}[H\u{1B}[2J\u{1B}[3J", .out)
        guard active else { return }
        layoutColumns = TerminalText.width()
        rl_forced_update_display()
    }

    /// libedit's incremental redraw of an input that wraps over several rows leaves fragments
    /// on the rows below when text is inserted or deleted before their end (issue 24: a
    /// 959-character line, Home, `START `: rows 3 and 4 garbled until Ctrl-L). Such an edit is
    /// drawn again whole, as Ctrl-L would, from the prompt's first row.
    func redrawIfWrappedEdit(was: (before: String, after: String), now: (before: String, after: String)) {
        guard !now.after.isEmpty, was.before + was.after != now.before + now.after else { return }
        let columns = TerminalText.columns(shownPrompt) + TerminalText.columns(now.before) + TerminalText.columns(now.after)
        guard columns >= layoutColumns else { return }
        clearInputRows()
        rl_forced_update_display()
    }
}
