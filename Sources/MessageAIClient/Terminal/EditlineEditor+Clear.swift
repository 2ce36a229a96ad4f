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
}
