import Foundation
import MessageAIProtocol

/// Compares two messages of unknown concrete type.
func sameMessage(_ a: any WireMessage, _ b: any WireMessage) -> Bool {
    func open<A: WireMessage>(_ a: A) -> Bool { (b as? A) == a }
    return open(a)
}

enum Hex {
    static func decode(_ text: String) -> [UInt8]? {
        let digits = text.filter { $0.isHexDigit }
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = digits.startIndex
        while i < digits.endIndex {
            let j = digits.index(i, offsetBy: 2)
            guard let b = UInt8(digits[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        return out
    }

    /// 16 bytes a line, grouped as in the spec.
    static func encode(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            bytes[start..<min(start + 16, bytes.count)].map { String(format: "%02x", $0) }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}

enum RepoPaths {
    /// The package root, found from this file's path so tests run from any directory.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let vectors = root.appendingPathComponent("Protocol/vectors")
    static let spec = root.appendingPathComponent("Protocol/PROTOCOL.md")
}
