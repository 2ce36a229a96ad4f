import Foundation
@preconcurrency import CEditline
#if canImport(Glibc)
import Glibc
#endif

/// The libedit callback API drives C function pointers that cannot capture context; their
/// state lives here, touched only on the main queue.
nonisolated(unsafe) private var activeEditor: EditlineEditor?
nonisolated(unsafe) private var completionMatches: [String] = []
nonisolated(unsafe) private var completionIndex = 0
/// The line before the word being completed (what the completion depends on).
nonisolated(unsafe) private var completionContext = ""

private func editlineLineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    guard let editor = activeEditor else { return }
    guard let line else {
        editor.endOfInput()
        return
    }
    let text = String(cString: line)
    free(line)
    editor.accepted(text)
}

private func editlineCompletionEntry(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    if state == 0 {
        let prefix = text.map { String(cString: $0) } ?? ""
        completionMatches = (activeEditor?.completions(completionContext) ?? []).filter { $0.hasPrefix(prefix) }
        completionIndex = 0
    }
    guard completionIndex < completionMatches.count else { return nil }
    defer { completionIndex += 1 }
    return strdup(completionMatches[completionIndex])
}

private func editlineAttemptedCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    rl_attempted_completion_over = 1
    completionContext = ""
    // libedit gives `start` in wide characters (code points), not bytes.
    let line = LineText.current()
    completionContext = String(String.UnicodeScalarView((line.before + line.after).unicodeScalars.prefix(Int(max(start, 0)))))
    return rl_completion_matches(text, editlineCompletionEntry)
}

/// The interactive line editor: libedit's callback interface fed from a DispatchSource on
/// stdin, so the main queue stays free for network events. Output from elsewhere is printed
/// above the prompt: clear the prompt rows, print, then let libedit redraw the prompt and the
/// half-typed line with the cursor where it was.
public final class EditlineEditor: LineEditor {
    private let historyPath: String
    /// Candidates for the word being completed, given the line before it.
    let completions: (String) -> [String]
    /// The prompt the app asked for; `shownPrompt` is what libedit shows (a question while a
    /// long paste waits for confirmation).
    var prompt = "> "
    private(set) var shownPrompt = "> "
    private var promptCString: UnsafeMutablePointer<CChar>?
    private var source: DispatchSourceRead?
    private var onLine: (String) -> Void = { _ in }
    private var onEOF: () -> Void = {}
    /// Called after each keystroke with the line as typed (for the typing indicator).
    public var onEdit: (String) -> Void = { _ in }
    /// A paste of several lines, to be sent as one message.
    public var onPaste: (String) -> Void = { _ in }
    /// Ctrl-C twice on an empty line.
    public var onQuit: () -> Void = {}
    /// The pre-send check: true when a typed message should wait (the draft goes back on the
    /// line); then `onHeld` shows why, above the prompt.
    public var holdDraft: ((String) -> Bool)?
    public var onHeld: (String) -> Void = { _ in }
    /// The draft put back on the line: Enter on it unchanged sends it as is.
    var heldDraft: String?
    var active = false
    /// A password being typed (echo off, libedit paused): the bytes so far and who waits.
    var secret: (bytes: [UInt8], saved: termios, done: (String?) -> Void)?
    /// Output that arrived during password entry, printed after it.
    var held: [(String, Output.Stream)] = []
    /// A paste longer than `pasteConfirmLines` lines, shown and waiting for y/N.
    var pendingPaste: String?
    /// Ctrl-C on an empty line once: the next Ctrl-C quits (any other key forgets it).
    var interruptedOnce = false
    /// The width the input rows were laid out with (a resize changes it afterwards).
    var layoutColumns = TerminalText.width()

    public init(historyPath: String, completions: @escaping (String) -> [String]) {
        self.historyPath = historyPath
        self.completions = completions
    }

    public func start(onLine: @escaping (String) -> Void, onEOF: @escaping () -> Void) {
        self.onLine = onLine
        self.onEOF = onEOF
        activeEditor = self
        // Before anything initialises libedit: it takes rl_getc_function only at set-up.
        KeyReader.install()
        KeyReader.onPaste = { [weak self] in self?.pasted($0) }
        KeyReader.onInterrupt = { [weak self] in self?.interrupt() }
        KeyReader.onKey = { [weak self] in self?.interruptedOnce = false }
        KeyReader.onRefused = { [weak self] in
            self?.printAbove("(the line is already longer than any message can be: that key was not applied)\n", .out)
        }
        stifle_history(1000)
        _ = read_history(historyPath)
        rl_attempted_completion_function = editlineAttemptedCompletion
        install()
        KeyReader.bindNothing()
        // Before any key: libedit's line buffer must not move under it (LineBuffer.swift).
        LineBuffer.prepare()
        Output.plainWrite(EditlineEditor.bracketedPasteOn, .out)
        let s = DispatchSource.makeReadSource(fileDescriptor: 0, queue: .main)
        s.setEventHandler { [weak self] in
            guard let self else { return }
            if self.secret != nil { self.readSecret() } else { self.readKeys() }
        }
        s.resume()
        source = s
    }

    static let bracketedPasteOn = "\u{1B}[?2004h"
    static let bracketedPasteOff = "\u{1B}[?2004l"

    /// One key from the terminal, then whatever the key reader already holds (a grapheme's
    /// other code points, a short paste): the read source only fires for unread bytes.
    func readKeys() {
        guard active else { return }
        // The read source can fire for bytes another read already took (the paste check reads
        // ahead; a burst is drained below): libedit would then wait for a key on the main
        // queue, and the network, the output and Ctrl-D itself would wait with it.
        guard KeyReader.hasPending || KeyReader.readableNow() else { return }
        let was = LineText.current()
        step()
        while active && KeyReader.hasPending { step() }
        guard active else { return }
        let now = LineText.current()
        redrawIfWrappedEdit(was: was, now: now)
        onEdit(now.before + now.after)
    }

    /// libedit publishes the line (rl_line_buffer, rl_end) after each key, but after Enter
    /// it still shows the accepted line until the next key: until then it reads as empty.
    private func step() {
        LineText.accepted = false
        rl_callback_read_char()
        LineText.stale = LineText.accepted
        if !LineText.stale { LineBuffer.seen(Int(rl_end)) }
        // A one-line paste joins the line here, outside libedit's own call, before the keys
        // typed after it.
        switch KeyReader.takePendingPaste() {
        case .insert(let text)?: insertOnLine(text)
        case .send(let text)?: onPaste(text)
        case nil: break
        }
    }

    func install() {
        shownPrompt = pendingPaste == nil ? prompt : EditlineEditor.pasteQuestion(pendingPaste!)
        free(promptCString)
        promptCString = strdup(shownPrompt)
        rl_callback_handler_install(promptCString, editlineLineHandler)
        keepLineEnds()
        active = true
    }

    /// Longer lines (pastes; nothing over the message limit can be sent) stay out of the
    /// history: the whole file is rewritten after every line, and libedit escapes each
    /// non-ASCII byte in it (about 4 bytes each), so a few pasted 100,000-character lines made
    /// every Enter slow; recalled with Up, such a line would only fill the edit buffer.
    static let historyLineLimit = 10_000

    fileprivate func accepted(_ line: String) {
        LineText.accepted = true
        interruptedOnce = false
        if let paste = pendingPaste {
            answerPaste(paste, line)
            return
        }
        if !line.trimmingCharacters(in: .whitespaces).isEmpty, line.unicodeScalars.count <= EditlineEditor.historyLineLimit,
           let entry = HistoryFilter.entry(for: line) {
            _ = add_history(entry)
            LineBuffer.seen(entry.utf8.count)
            _ = write_history(historyPath)
            chmod(historyPath, 0o600)
        }
        var message: String?
        if case .message(let text) = InputLine.parse(line) {
            eraseEcho(of: line)
            message = text
        }
        // libedit drops to cooked mode after each accepted line: install again every time, and
        // at once, before anything slow (the draft check): keys typed meanwhile were echoed by
        // the terminal itself ("^[[D" for an arrow) and waited for a line end.
        install()
        if let text = message, heldDraft != line, let check = holdDraft, check(text) {
            hold(line: line, text: text)
            return
        }
        heldDraft = nil
        onLine(line)
    }

    fileprivate func endOfInput() {
        stop()
        Output.plainWrite("\n", .out)
        onEOF()
    }

    public func printAbove(_ text: String, _ stream: Output.Stream) {
        if secret != nil { held.append((text, stream)); return }
        guard active else { Output.plainWrite(text, stream); return }
        clearInputRows()
        Output.plainWrite(text, stream)
        rl_forced_update_display()
    }

    public func prefill(_ text: String) {
        guard active, secret == nil, pendingPaste == nil else { return }
        insertOnLine(text)
    }

    public func setPrompt(_ newPrompt: String) {
        prompt = newPrompt
        showPrompt(pendingPaste == nil ? prompt : EditlineEditor.pasteQuestion(pendingPaste!))
    }

    func showPrompt(_ text: String) {
        guard text != shownPrompt else { return }
        guard active else { shownPrompt = text; return }
        clearInputRows()
        shownPrompt = text
        free(promptCString)
        promptCString = strdup(shownPrompt)
        _ = rl_set_prompt(promptCString)
        rl_forced_update_display()
    }

    /// A message is printed as a message line (time, sender); the typed line above it would
    /// show it twice, so its rows are cleared (commands stay visible as typed).
    private func eraseEcho(of line: String) {
        let rows = (TerminalText.columns(shownPrompt) + TerminalText.columns(line)) / max(layoutColumns, 1) + 1
        Output.plainWrite("\u{1B}[\(rows)A\r\u{1B}[J", .out)
    }

    /// Moves to the first row of the prompt (the input may wrap) and clears to the end. Rows
    /// are counted in display columns (é is one, 東 two), with the width the rows were laid
    /// out with.
    func clearInputRows() {
        let before = TerminalText.columns(shownPrompt) + TerminalText.columns(LineText.current().before)
        let rowsAbove = before / max(layoutColumns, 1)
        Output.plainWrite((rowsAbove > 0 ? "\u{1B}[\(rowsAbove)A" : "") + "\r\u{1B}[J", .out)
        layoutColumns = TerminalText.width()
    }

    public func stop() {
        if var s = secret { tcsetattr(0, TCSANOW, &s.saved); secret = nil }
        guard active else { return }
        active = false
        rl_callback_handler_remove()
        Output.plainWrite(EditlineEditor.bracketedPasteOff, .out)
        source?.cancel()
        source = nil
    }
}
