import Foundation

/// Breaks text into lines of at most a given number of display columns, at spaces; a word
/// longer than a line is cut (it has no better place to break).
enum WordWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        let width = max(width, 10)
        var lines: [String] = []
        var current = ""
        var used = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var w = word
            var cols = TerminalText.columns(w)
            if used > 0 && used + 1 + cols <= width {
                current += " " + w
                used += 1 + cols
                continue
            }
            if used > 0 { lines.append(current) }
            while cols > width {
                var head = ""
                var headCols = 0
                for ch in w {
                    let c = TerminalText.columns(String(ch))
                    if headCols + c > width { break }
                    head.append(ch); headCols += c
                }
                lines.append(head)
                w.removeFirst(head.count)
                cols = TerminalText.columns(w)
            }
            current = w
            used = cols
        }
        if used > 0 || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `label` then `text` wrapped beside it, continuation lines indented to the text's column;
    /// when the terminal is too narrow for that, the text goes under the label, indented by 4.
    static func hanging(_ label: String, labelWidth: Int, _ text: String, width: Int) -> [String] {
        let indent = labelWidth + 2
        if width - indent >= 30 {
            let body = lines(text, width: width - indent)
            let pad = String(repeating: " ", count: max(0, labelWidth - TerminalText.columns(label)))
            return [label + pad + "  " + body[0]] + body.dropFirst().map { String(repeating: " ", count: indent) + $0 }
        }
        return lines(label, width: width) + lines(text, width: width - 4).map { "    " + $0 }
    }

    /// Coloured lines wrapped at spaces to `width` columns, the colours kept: a space where a
    /// row is full becomes the line break; a word wider than a row is cut. Used for what the
    /// REPL prints (a message wider than the terminal broke in the middle of words).
    static func segments(_ segments: [Segment], width: Int) -> [Segment] {
        guard width >= 10 else { return segments }
        var chars: [(c: Character, segment: Int)] = []
        for (n, s) in segments.enumerated() { for c in s.text { chars.append((c, n)) } }
        var col = 0
        var lastSpace: Int? = nil
        var i = 0
        while i < chars.count {
            let c = chars[i].c
            if c == "\n" { col = 0; lastSpace = nil; i += 1; continue }
            let w = TerminalText.columns(String(c))
            if col + w > width {
                if c == " " {
                    chars[i].c = "\n"; col = 0; lastSpace = nil; i += 1
                } else if let space = lastSpace {
                    chars[space].c = "\n"
                    col = chars[(space + 1)..<i].reduce(0) { $0 + TerminalText.columns(String($1.c)) }
                    lastSpace = nil
                } else {
                    chars.insert(("\n", chars[i].segment), at: i)
                    col = 0; i += 1
                }
                continue
            }
            if c == " " { lastSpace = i }
            col += w
            i += 1
        }
        var out: [Segment] = []
        var current = -1
        for (c, n) in chars {
            if n == current { out[out.count - 1].text.append(c) } else { out.append(Segment(String(c), segments[n].tint)); current = n }
        }
        return out
    }
}
