import MessageAILoad
import MessageAIProtocol

/// Structure-aware mutations of a payload: the field list is split into fields, and each field
/// (or a tag the sample left out, since optional zeros are not written) takes boundary values of
/// its kind while the rest of the frame stays well-formed. A field's kind is read from the
/// sample itself: a value that is one whole varint is an integer, one that parses as a field
/// list is a record (mutated one level down), anything else is a string or bytes.
enum FrameMutator {
    /// 0, 1, around 2^31, 2^32, 2^63 and 2^64 (the protocol's limit is 2^63-1).
    static let integers: [UInt64] = [0, 1, 1 << 31 - 1, 1 << 31, 1 << 32 - 1, 1 << 32,
                                     1 << 63 - 2, 1 << 63 - 1, 1 << 63, .max - 1, .max]
    /// Around the spec's limits (names 64, away 200, text 10,000 scalars) and powers of two.
    static let stringLengths = [0, 1, 15, 16, 17, 63, 64, 65, 200, 201, 256, 4096, 10_000, 10_001, 65_536]
    /// Mixed scripts, a ZWJ sequence's parts and a combining mark: one scalar each.
    static let scalars: [Unicode.Scalar] = ["a", "é", "東", "ש", "👩", "\u{200D}", "💻", "\u{0301}"]

    typealias Field = (tag: UInt8, value: [UInt8])

    static func parse(_ bytes: [UInt8]) -> [Field]? {
        var out: [Field] = []
        var i = 0
        while i < bytes.count {
            let tag = bytes[i]
            guard tag != 0 else { return nil }
            i += 1
            guard let (length, used) = Varint.read(bytes[i...]), length <= UInt64(bytes.count - i - used) else { return nil }
            i += used
            out.append((tag, Array(bytes[i..<i + Int(length)])))
            i += Int(length)
        }
        return out
    }

    static func encode(_ fields: [Field]) -> [UInt8] {
        var out: [UInt8] = []
        for f in fields {
            out.append(f.tag)
            Varint.append(UInt64(f.value.count), to: &out)
            out += f.value
        }
        return out
    }

    static func varint(_ v: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        Varint.append(v, to: &out)
        return out
    }

    static func isInteger(_ value: [UInt8]) -> Bool {
        guard !value.isEmpty, let (_, used) = Varint.read(value[...]) else { return false }
        return used == value.count
    }

    static func isRecord(_ value: [UInt8]) -> Bool {
        guard value.count >= 2, !isInteger(value), let fields = parse(value), !fields.isEmpty else { return false }
        return fields.allSatisfy { $0.tag <= 40 }
    }

    static func text(_ count: Int, ascii: Bool) -> [UInt8] {
        if ascii { return [UInt8](repeating: UInt8(ascii: "a"), count: count) }
        var s = String.UnicodeScalarView()
        for i in 0..<count { s.append(scalars[i % scalars.count]) }
        return Array(String(s).utf8)
    }

    /// The values a field of this kind takes in the boundary sweep.
    static func replacements(for value: [UInt8]?) -> [[UInt8]] {
        guard let value, !isInteger(value) else { return integers.map(varint) }
        return stringLengths.flatMap { [text($0, ascii: true), text($0, ascii: false)] }
    }

    /// Every single-field boundary variant of `payload`, nested records included.
    static func boundaryVariants(of payload: [UInt8]) -> [[UInt8]] {
        guard let fields = parse(payload) else { return [] }
        var out: [[UInt8]] = []
        for (i, f) in fields.enumerated() {
            if isRecord(f.value) {
                for inner in boundaryVariants(of: f.value) {
                    var copy = fields; copy[i].value = inner; out.append(encode(copy))
                }
                continue
            }
            for r in replacements(for: f.value) {
                var copy = fields; copy[i].value = r; out.append(encode(copy))
            }
        }
        let present = Set(fields.map(\.tag))
        let top = (fields.map(\.tag).max() ?? 0) + 2
        for tag in 1...top where !present.contains(tag) {
            for r in replacements(for: nil) { out.append(encode(fields + [(tag, r)])) }
        }
        return out
    }

    /// A random variant: one to three fields (present or left out) get boundary or random
    /// integers, strings of random length, or random bytes.
    static func randomVariant(of payload: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        guard var fields = parse(payload) else { return payload }
        let top = (fields.map(\.tag).max() ?? 0) + 2
        for _ in 0..<Int(rng.next() % 3) + 1 {
            let tag = UInt8(rng.next() % UInt64(top)) + 1
            let value: [UInt8]
            switch rng.next() % 5 {
            case 0: value = varint(integers[Int(rng.next() % UInt64(integers.count))])
            case 1: value = varint(rng.next() >> (rng.next() % 64))
            case 2: value = text(Int(rng.next() % 300), ascii: rng.next() % 2 == 0)
            case 3: value = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            default: value = text(stringLengths[Int(rng.next() % UInt64(stringLengths.count))], ascii: false)
            }
            if let i = fields.firstIndex(where: { $0.tag == tag }) { fields[i].value = value } else { fields.append((tag, value)) }
        }
        return encode(fields)
    }
}
