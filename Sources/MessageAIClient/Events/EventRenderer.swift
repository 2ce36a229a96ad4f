import Foundation

/// Turns an event into the text written to stdout: complete lines, or nil for nothing.
public protocol EventRenderer {
    func render(_ event: ClientEvent) -> String?
}

/// --json: one object per line, keys sorted, "type" added to the event's keys.
public struct JSONLinesRenderer: EventRenderer {
    public init() {}

    public func render(_ event: ClientEvent) -> String? {
        var object = event.jsonFields
        object["type"] = event.type
        return JSONLinesRenderer.encode(object) + "\n"
    }

    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let s = String(data: data, encoding: .utf8) else {
            return #"{"type":"error","code":"internal","message":"unencodable event"}"#
        }
        return s
    }
}

/// Lines for people. Every segment may carry other people's text (names, messages), so each is
/// sanitised here, line by line; with colour on, a tinted segment is wrapped in its SGR code and
/// the colour is closed before every newline so a multi-line message does not bleed.
/// With a `width` (the REPL's terminal) lines are wrapped between words to it.
public struct TerminalRenderer: EventRenderer {
    public var colour: Bool
    public var width: Int?

    public init(colour: Bool, width: Int? = nil) {
        self.colour = colour
        self.width = width
    }

    public func render(_ event: ClientEvent) -> String? {
        guard var segments = event.terminalLine?.map(sanitised) else { return nil }
        if let width { segments = WordWrap.segments(segments, width: width) }
        return segments.map(render).joined() + "\n"
    }

    private func sanitised(_ segment: Segment) -> Segment {
        Segment(segment.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { Output.printable(String($0)) }.joined(separator: "\n"), segment.tint)
    }

    func render(_ segment: Segment) -> String {
        let safe = sanitised(segment).text
        guard colour, let tint = segment.tint, !safe.isEmpty else { return safe }
        let sgr = Palette.code(tint)
        return "\u{1B}[\(sgr)m" + safe.replacingOccurrences(of: "\n", with: "\u{1B}[0m\n\u{1B}[\(sgr)m") + "\u{1B}[0m"
    }
}
