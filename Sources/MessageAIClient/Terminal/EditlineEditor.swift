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
        completionMatches = (activeEditor?.completions() ?? []).filter { $0.hasPrefix(prefix) }
        completionIndex = 0
    }
    guard completionIndex < completionMatches.count else { return nil }
    defer { completionIndex += 1 }
    return strdup(completionMatches[completionIndex])
}

private func editlineAttemptedCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    rl_attempted_completion_over = 1
    return rl_completion_matches(text, editlineCompletionEntry)
}

/// The interactive line editor: libedit's callback interface fed from a DispatchSource on
/// stdin, so the main queue stays free for network events. Output from elsewhere is printed
/// above the prompt: clear the prompt rows, print, then let libedit redraw the prompt and the
/// half-typed line with the cursor where it was.
public final class EditlineEditor: LineEditor {
    private let historyPath: String
    let completions: () -> [String]
    private var prompt = "> "
    private var promptCString: UnsafeMutablePointer<CChar>?
    private var source: DispatchSourceRead?
    private var onLine: (String) -> Void = { _ in }
    private var onEOF: () -> Void = {}
    /// Called after each keystroke with the line as typed (for the typing indicator).
    public var onEdit: (String) -> Void = { _ in }
    private var active = false

    public init(historyPath: String, completions: @escaping () -> [String]) {
        self.historyPath = historyPath
        self.completions = completions
    }

    public func start(onLine: @escaping (String) -> Void, onEOF: @escaping () -> Void) {
        self.onLine = onLine
        self.onEOF = onEOF
        activeEditor = self
        stifle_history(1000)
        _ = read_history(historyPath)
        rl_attempted_completion_function = editlineAttemptedCompletion
        install()
        let s = DispatchSource.makeReadSource(fileDescriptor: 0, queue: .main)
        s.setEventHandler { [weak self] in
            rl_callback_read_char()
            if let self, self.active, let buf = rl_line_buffer { self.onEdit(String(cString: buf)) }
        }
        s.resume()
        source = s
    }

    private func install() {
        free(promptCString)
        promptCString = strdup(prompt)
        rl_callback_handler_install(promptCString, editlineLineHandler)
        active = true
    }

    fileprivate func accepted(_ line: String) {
        if !line.trimmingCharacters(in: .whitespaces).isEmpty, let entry = HistoryFilter.entry(for: line) {
            _ = add_history(entry)
            _ = write_history(historyPath)
            chmod(historyPath, 0o600)
        }
        // libedit drops to cooked mode after each accepted line: install again every time.
        install()
        onLine(line)
    }

    fileprivate func endOfInput() {
        stop()
        Output.plainWrite("\n", .out)
        onEOF()
    }

    public func printAbove(_ text: String, _ stream: Output.Stream) {
        guard active else { Output.plainWrite(text, stream); return }
        clearInputRows()
        Output.plainWrite(text, stream)
        rl_forced_update_display()
    }

    public func setPrompt(_ newPrompt: String) {
        guard newPrompt != prompt else { return }
        guard active else { prompt = newPrompt; return }
        clearInputRows()
        prompt = newPrompt
        free(promptCString)
        promptCString = strdup(prompt)
        _ = rl_set_prompt(promptCString)
        rl_forced_update_display()
    }

    /// Moves to the first row of the prompt (the input may wrap) and clears to the end.
    private func clearInputRows() {
        var ws = winsize()
        let cols = ioctl(1, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 ? Int(ws.ws_col) : 80
        let before = prompt.count + (rl_line_buffer.map { String(cString: $0).utf8.prefix(Int(rl_point)).count } ?? 0)
        let rowsAbove = before / cols
        Output.plainWrite((rowsAbove > 0 ? "\u{1B}[\(rowsAbove)A" : "") + "\r\u{1B}[J", .out)
    }

    /// Turns echo off on the terminal and reads one line; the editor is paused meanwhile.
    public func readPassword(_ prompt: String) -> String? {
        let wasActive = active
        if wasActive { rl_callback_handler_remove(); active = false }
        defer { if wasActive { install() } }
        var old = termios()
        guard tcgetattr(0, &old) == 0 else { return nil }
        var quiet = old
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ICANON)
        tcsetattr(0, TCSAFLUSH, &quiet)
        defer { tcsetattr(0, TCSAFLUSH, &old); Output.plainWrite("\n", .out) }
        Output.plainWrite(prompt, .out)
        var bytes: [UInt8] = []
        var c: UInt8 = 0
        while read(0, &c, 1) == 1 && c != 10 && c != 13 && bytes.count < 4096 { bytes.append(c) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public func stop() {
        guard active else { return }
        active = false
        rl_callback_handler_remove()
        source?.cancel()
        source = nil
    }
}
