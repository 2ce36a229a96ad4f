import Foundation

/// Finds the JSON object in what a model wrote, however it wrapped it: a bare object, a
/// ```json fenced block, prose before and after, or several candidate braces. Small models do
/// all of these even when asked for JSON only.
public enum AnswerParser {
    /// The chat-completions envelope's `choices[0].message.content`, or nil.
    public static func content(ofCompletion body: Data) -> String? {
        guard let obj = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let choices = obj["choices"] as? [[String: Any]], let first = choices.first else { return nil }
        if let message = first["message"] as? [String: Any], let text = message["content"] as? String { return text }
        return first["text"] as? String // the older completions shape, sent by some servers
    }

    /// The first JSON object in `text`, fenced blocks tried first.
    public static func object(in text: String) -> [String: Any]? {
        for candidate in fencedBlocks(text) + [text] {
            if let obj = firstObject(in: candidate) { return obj }
        }
        return nil
    }

    static func fencedBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "```") {
            let afterFence = rest[open.upperBound...]
            // Skip the language tag (```json) up to the end of its line.
            let bodyStart = afterFence.firstIndex(where: \.isNewline).map { afterFence.index(after: $0) } ?? afterFence.startIndex
            guard let close = afterFence[bodyStart...].range(of: "```") else {
                blocks.append(String(afterFence[bodyStart...])) // unclosed fence: the rest
                break
            }
            blocks.append(String(afterFence[bodyStart..<close.lowerBound]))
            rest = afterFence[close.upperBound...]
        }
        return blocks
    }

    /// Tries each `{` in turn, matching braces outside strings, until one parses.
    static func firstObject(in text: String) -> [String: Any]? {
        let bytes = Array(text.utf8)
        var start = 0
        while let open = bytes[start...].firstIndex(of: UInt8(ascii: "{")) {
            if let end = matchingBrace(bytes, from: open),
               let obj = try? JSONSerialization.jsonObject(with: Data(bytes[open...end])) as? [String: Any] {
                return obj
            }
            start = open + 1
        }
        return nil
    }

    static func matchingBrace(_ bytes: [UInt8], from open: Int) -> Int? {
        var depth = 0, inString = false, escaped = false
        for i in open..<bytes.count {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return i }
            default: break
            }
        }
        return nil
    }
}

/// Lenient readers for values a model may give in the wrong type ("true" for true, 3.0 for 3,
/// one object where a list was asked, "null" for null).
enum Lenient {
    static func string(_ v: Any?) -> String? {
        switch v {
        case let s as String:
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            // A text without a letter or digit says nothing: a small model (Gemma 3 270M in
            // the real-model run) copies the prompt's `"..."` placeholders into every field.
            guard t.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) else { return nil }
            return ["null", "none", "n/a", "nil"].contains(t.lowercased()) ? nil : t
        case let n as NSNumber where !isBool(n): return n.stringValue
        default: return nil
        }
    }

    static func bool(_ v: Any?) -> Bool {
        switch v {
        case let n as NSNumber: return n.boolValue
        case let s as String: return ["true", "yes", "1", "y"].contains(s.trimmingCharacters(in: .whitespaces).lowercased())
        case let d as [String: Any]: return bool(d["flag"] ?? d["value"])
        default: return false
        }
    }

    static func int(_ v: Any?) -> Int? {
        switch v {
        case let n as NSNumber where !isBool(n): return n.doubleValue.rounded() == n.doubleValue ? n.intValue : nil
        case let s as String: return Int(s.trimmingCharacters(in: CharacterSet(charactersIn: " []#")))
        default: return nil
        }
    }

    static func list(_ v: Any?) -> [Any] {
        switch v {
        case let a as [Any]: return a.filter { !($0 is NSNull) }
        case nil, is NSNull: return []
        case let s as String: return string(s).map { [$0] } ?? []
        default: return [v!]
        }
    }

    /// A list of texts given as strings or as objects holding the text under a likely key.
    static func texts(_ v: Any?) -> [(text: String, message: Int?)] {
        list(v).compactMap { item in
            if let s = string(item) { return (s, nil) }
            guard let d = item as? [String: Any] else { return nil }
            let keys = ["text", "decision", "question", "what", "point", "summary"]
            guard let s = keys.lazy.compactMap({ string(d[$0]) }).first else { return nil }
            return (s, int(d["message"] ?? d["index"] ?? d["msg"]))
        }
    }

    /// JSON's true/false arrive as NSNumber on both platforms; their type code is "c".
    private static func isBool(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }
}
