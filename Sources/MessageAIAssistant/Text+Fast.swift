import Foundation

/// Pure-Swift stand-ins for the Foundation string calls on the engine's hot paths. On Linux those
/// bridge to NSString/CoreFoundation (a UTF-16 copy per call) and took a third of the engine's
/// time; each stand-in here gives the very same String, which `TextFastTests` checks.
extension String {
    /// `replacingOccurrences(of:with:)`, skipped when the needle's bytes are not in the text.
    /// Safe for the needles the rules use (ASCII words, curly quotes): no other character is
    /// canonically equivalent to them, so Foundation would find nothing to replace either.
    /// In ASCII text a plain needle (see `contains`) is replaced on the bytes, left to right
    /// without overlaps, as Foundation does.
    func replacingPresent(_ needle: String, with replacement: String) -> String {
        guard hasBytes(needle) else { return self }
        guard isASCIIOnly, needle.isPlainNeedle else { return replacingOccurrences(of: needle, with: replacement) }
        let b = Array(utf8), n = Array(needle.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == n[0], i + n.count <= b.count, b[i..<(i + n.count)].elementsEqual(n) {
                out += replacement.utf8
                i += n.count
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `trimmingCharacters(in: .whitespaces)`: drops tabs and space separators (`isSpaceOrTab`) at
    /// both ends, scalar by scalar as Foundation does, and keeps new lines.
    func trimmingSpaces() -> String { trimmingScalars(\.isSpaceOrTab) }

    /// `trimmingCharacters(in: CharacterSet(charactersIn: chars))`, scalar by scalar as Foundation
    /// does, without building the set and bridging to NSString on every call (a decision check
    /// asked it of every sentence: a tenth of a summary's instructions).
    func trimming(_ chars: String) -> String {
        let set = Array(chars.unicodeScalars)
        return trimmingScalars { set.contains($0) }
    }

    private func trimmingScalars(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, drop(scalars[start]) { start = scalars.index(after: start) }
        while end > start, drop(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        if start == scalars.startIndex && end == scalars.endIndex { return self }
        return String(scalars[start..<end])
    }

    /// Foundation's `contains(_:)` (on Linux a non-literal NSString search: a UTF-16 copy of both
    /// texts per call), answered from the bytes whenever that gives the same answer. Declared on
    /// String itself, it is the overload every `text.contains("...")` in the engine resolves to.
    /// Bytes decide when the needle is plain ASCII: nothing else is canonically equivalent to it,
    /// so no byte match means no match; and in ASCII text every byte is a whole character, so a
    /// byte match is a match. Other needles, and byte matches in other text, ask Foundation.
    func contains(_ other: String) -> Bool {
        guard other.isPlainNeedle else { return range(of: other) != nil }
        return hasBytes(other) && (isASCIIOnly || range(of: other) != nil)
    }

    /// Non-empty ASCII without CR/LF (one character together) and without the three ASCII
    /// characters another scalar decomposes to (";" from U+037E, "`" from U+1FEF, "K" from U+212A).
    private var isPlainNeedle: Bool {
        !isEmpty && utf8.allSatisfy { $0 < 0x80 && $0 != 0x0A && $0 != 0x0D && $0 != 0x3B && $0 != 0x60 && $0 != 0x4B }
    }

    /// True when every byte is ASCII: then a Character is one byte and the letter and digit
    /// tests reduce to byte ranges.
    var isASCIIOnly: Bool { utf8.allSatisfy { $0 < 0x80 } }
}

extension Unicode.Scalar {
    /// Membership of `CharacterSet.punctuationCharacters`; ASCII from a table built from that set.
    var isPunctuationMark: Bool {
        value < 128 ? Self.asciiPunctuation[Int(value)] : CharacterSet.punctuationCharacters.contains(self)
    }
    private static let asciiPunctuation: [Bool] = (0..<128).map { CharacterSet.punctuationCharacters.contains(Unicode.Scalar(UInt8($0))) }

    /// Membership of `CharacterSet.whitespaces` on Linux: U+0009, the Zs space separators and,
    /// as CoreFoundation has it, ZERO WIDTH SPACE (U+200B); `TextFastTests` checks every scalar.
    var isSpaceOrTab: Bool {
        switch value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}

/// `Set<Character>.contains` without hashing the Character: a single ASCII byte is looked up in a
/// table made from the set, anything else in the set itself. Same answers, no Hasher per call.
struct CharacterTable {
    let set: Set<Character>
    private let ascii: [Bool]

    init(_ set: Set<Character>) {
        self.set = set
        ascii = (0..<128).map { set.contains(Character(Unicode.Scalar(UInt8($0)))) }
    }

    func contains(_ c: Character) -> Bool {
        // One UTF-8 byte: an ASCII scalar on its own ("\r\n" is two and takes the set's path).
        if c.utf8.count == 1, let b = c.utf8.first { return ascii[Int(b)] }
        return set.contains(c)
    }
}
