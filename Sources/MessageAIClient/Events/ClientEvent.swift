import Foundation

/// Something the client tells its user or the script driving it. The core emits values of
/// types conforming to this and never formats output itself; `Output` hands each one to a
/// renderer: `TerminalRenderer` (lines, colour, other people's text sanitised) or
/// `JSONLinesRenderer` (--json, one object per line).
///
/// A new event is a type of its own, usually one enum per area in `Events/<Area>Events.swift`,
/// giving its JSON `type`, its JSON keys and its terminal line; nothing shared has to change.
public protocol ClientEvent {
    /// The JSON line's "type". Scripts match on it: never rename one.
    var type: String { get }
    /// The JSON line's other keys (values: strings, numbers, booleans, arrays, objects).
    var jsonFields: [String: Any] { get }
    /// What a terminal shows (one or more lines, without the final newline), in segments that
    /// the renderer sanitises and colours one by one; nil shows nothing (JSON-only events).
    var terminalLine: [Segment]? { get }
}

/// A piece of a terminal line and how it is coloured. Renderers turn the tint into an SGR
/// code from `Palette` when colour is on, so text never chooses its own escape sequences.
public struct Segment: Equatable, Sendable {
    public enum Tint: Equatable, Sendable {
        /// One's own messages.
        case own
        /// A message that mentions the user.
        case mention
        /// A username, in the colour its name hashes to.
        case user(String)
        /// A quiet aside from the assistant (the call hint): dim.
        case note
    }

    public var text: String
    public var tint: Tint?

    public init(_ text: String, _ tint: Tint? = nil) {
        self.text = text
        self.tint = tint
    }

    /// A line of plain text.
    public static func line(_ text: String) -> [Segment] { [Segment(text)] }
}

/// A command's answer whose fields are assembled by the command (the generic form that
/// commands used before typed events; prefer a typed event for new output).
public struct Reply: ClientEvent {
    public let type: String
    public let jsonFields: [String: Any]
    /// The terminal text, or nil for nothing.
    public let text: String?

    public init(_ type: String, _ fields: [String: Any] = [:], text: String?) {
        self.type = type
        self.jsonFields = fields
        self.text = text
    }

    public var terminalLine: [Segment]? { text.map(Segment.line) }
}

/// A line for people (help, hints, catch-up summaries, group changes); scripts get it as a
/// "notice". `line` is what the terminal shows when it differs from `text`.
public struct Notice: ClientEvent {
    public let text: String
    public let conversationID: UInt64?
    public let line: String?

    public init(_ text: String, conversation: UInt64? = nil, line: String? = nil) {
        self.text = text
        self.conversationID = conversation
        self.line = line ?? text
    }

    /// A notice whose terminal line is `* TEXT` (something that happened, not an answer).
    public static func happened(_ text: String, conversation: UInt64? = nil) -> Notice {
        Notice(text, conversation: conversation, line: "* " + text)
    }

    public var type: String { "notice" }
    public var jsonFields: [String: Any] {
        var f: [String: Any] = ["text": text]
        if let conversationID { f["conversation_id"] = conversationID }
        return f
    }
    public var terminalLine: [Segment]? { line.map(Segment.line) }
}

/// An error as a JSON line ("command" is "" when no command caused it). In the terminal
/// errors go to stderr through `Output.error`, so this event itself shows nothing there.
public struct ErrorEvent: ClientEvent {
    public let command: String
    public let error: ClientError

    public init(command: String, _ error: ClientError) {
        self.command = command
        self.error = error
    }

    public var type: String { "error" }
    public var jsonFields: [String: Any] { ["command": command, "code": error.code, "message": error.message] }
    public var terminalLine: [Segment]? { nil }

    /// The stderr line.
    var stderrLine: String {
        "error: " + (command.isEmpty ? "" : "\(command): ") + error.message
    }
}
