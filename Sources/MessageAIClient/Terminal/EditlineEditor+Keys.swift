import Foundation
@preconcurrency import CEditline

/// Paste, Ctrl-C and resize: what the key reader and the signal sources hand the editor.
extension EditlineEditor {
    /// A paste of more lines than this is shown and sent only after a "y".
    public static let pasteConfirmLines = 5

    static func pasteQuestion(_ text: String) -> String {
        "send these \(PasteText.lineCount(text)) lines as one message? [y/N] "
    }

    /// A multi-line paste: one message, never commands; a long one waits for confirmation.
    func pasted(_ text: String) {
        guard active else { return }
        interruptedOnce = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > EditlineEditor.pasteConfirmLines else { onPaste(text); return }
        pendingPaste = text
        var preview = lines.prefix(3).map { "  │ " + Output.printable(String($0)) }
        preview.append("  │ … \(lines.count - 3) more line(s)")
        printAbove("pasted \(lines.count) lines:\n" + preview.joined(separator: "\n") + "\n", .out)
        showPrompt(EditlineEditor.pasteQuestion(text))
    }

    func answerPaste(_ paste: String, _ answer: String) {
        pendingPaste = nil
        install()
        let yes = ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        if yes { onPaste(paste) } else { printAbove("paste not sent\n", .out) }
    }

    /// Ctrl-C: clears a half-typed line (or a paste waiting for y/N); on an empty line the
    /// first says how to leave and the second leaves.
    public func interrupt() {
        if secret != nil { finishSecret(nil); return }
        guard active else { return }
        if let paste = pendingPaste {
            pendingPaste = nil
            printAbove("paste of \(PasteText.lineCount(paste)) lines not sent\n", .out)
            showPrompt(prompt)
            clearLine()
            return
        }
        if heldDraft != nil {
            // Cancel: libedit's copy of the put-back line may not be published yet, so clear it
            // without asking whether it is empty.
            heldDraft = nil
            printAbove("draft not sent\n", .out)
            KeyReader.injectClearLine()
            readKeys()
            return
        }
        if !LineText.isEmpty {
            interruptedOnce = false
            clearLine()
            return
        }
        if interruptedOnce { onQuit(); return }
        interruptedOnce = true
        printAbove("(Ctrl-C again or Ctrl-D to quit, or /quit)\n", .out)
    }

    /// Ctrl-U through libedit (em-kill-line removes the whole line wherever the cursor is),
    /// so its buffer, cursor and display stay its own.
    private func clearLine() {
        guard !LineText.isEmpty else { return }
        KeyReader.injectClearLine()
        readKeys()
    }

    /// A flagged draft goes back on the line as typed, after libedit has finished with the
    /// accepted line (the reasons print above it like any incoming line).
    func hold(line: String, text: String) {
        heldDraft = line
        DispatchQueue.main.async { [weak self] in
            guard let self, self.active else { return }
            LineText.stale = false
            LineBuffer.insert(line)
            // Printing above redraws the prompt with the draft.
            self.onHeld(text)
        }
    }

    /// SIGWINCH: libedit learns the new width, then the prompt is drawn again from its first row.
    public func resized() {
        guard active else { return }
        clearInputRows()
        rl_resize_terminal()
        rl_forced_update_display()
    }
}
