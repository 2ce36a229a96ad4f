import Foundation

/// What a paste becomes before it is sent: line ends as "\n", no trailing empty lines.
enum PasteText {
    static func normalized(_ raw: String) -> String {
        var text = raw.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A one-line paste as it joins the edit line: tabs as spaces, other control
    /// characters (C0, DEL, C1) dropped. Invalid UTF-8 was already U+FFFD.
    static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s == "\t" { scalars.append(" ") } else if s.value >= 0x20 && !(0x7F...0x9F).contains(s.value) { scalars.append(s) }
        }
        return String(scalars)
    }

    static func lineCount(_ text: String) -> Int { text.split(separator: "\n", omittingEmptySubsequences: false).count }
}
