import Foundation

/// Where input lines come from and how output shares the terminal with them. The REPL uses
/// libedit (`EditlineEditor`); piped input uses `PlainLineReader`.
public protocol LineEditor: AnyObject {
    /// Starts reading; `onLine` for each line, `onEOF` once at the end. Main queue.
    func start(onLine: @escaping (String) -> Void, onEOF: @escaping () -> Void)
    /// Prints complete lines without breaking the line being typed.
    func printAbove(_ text: String, _ stream: Output.Stream)
    func setPrompt(_ prompt: String)
    /// Reads a password without echo, without blocking the main queue; `done` gets nil when
    /// not possible or cancelled.
    func readPassword(_ prompt: String, _ done: @escaping (String?) -> Void)
    /// Restores the terminal.
    func stop()
    /// Puts `text` on the input line for the user to edit (/edit alone); piped input has none.
    func prefill(_ text: String)
}

extension LineEditor {
    public func prefill(_ text: String) {}
}

/// Piped stdin: lines are read on a background thread (blocking reads) and handed to the
/// main queue in order, each only once the one before is taken (`whenReady`): a producer
/// faster than the server waits in its pipe instead of filling this process's memory.
public final class PlainLineReader: LineEditor {
    /// Called on the main queue after each line with what lets the next one be read; the
    /// runner calls it once it takes more input. Default: at once.
    public var whenReady: (@escaping () -> Void) -> Void = { $0() }
    private let taken = DispatchSemaphore(value: 0)

    public init() {}

    public func start(onLine: @escaping (String) -> Void, onEOF: @escaping () -> Void) {
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) {
                DispatchQueue.main.async { [self] in
                    onLine(line)
                    whenReady { [taken] in taken.signal() }
                }
                taken.wait()
            }
            DispatchQueue.main.async { onEOF() }
        }
        thread.start()
    }

    public func printAbove(_ text: String, _ stream: Output.Stream) { Output.plainWrite(text, stream) }
    public func setPrompt(_ prompt: String) {}
    public func readPassword(_ prompt: String, _ done: @escaping (String?) -> Void) { done(nil) }
    public func stop() {}
}
