/// The payload encoding: a list of fields, each
///
/// ```
/// +-----------+--------------------+------------------+
/// | tag (u8)  | length (uvarint)   | value (length B) |
/// +-----------+--------------------+------------------+
/// ```
/// Every field carries its length, so a reader skips tags it does not know: that is what lets
/// a newer peer add fields that an older one ignores. Values are typed by the frame's schema:
/// `uint` is an unsigned LEB128 varint filling the whole value, `bool` a uint 0 or 1, `string`
/// UTF-8, `bytes` raw, `record` a nested field list. A repeated tag is a list, in order.
public struct FieldWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func uint(_ tag: UInt8, _ value: UInt64) {
        bytes.append(tag)
        bytes.append(UInt8(Varint.size(of: value)))
        Varint.append(value, to: &bytes)
    }

    /// Writes the field only when it is not zero: absent means 0 for optional numbers.
    public mutating func optionalUInt(_ tag: UInt8, _ value: UInt64) {
        if value != 0 { uint(tag, value) }
    }

    public mutating func bool(_ tag: UInt8, _ value: Bool) { uint(tag, value ? 1 : 0) }

    /// Writes the field only when true: absent means false.
    public mutating func optionalBool(_ tag: UInt8, _ value: Bool) { if value { uint(tag, 1) } }

    public mutating func string(_ tag: UInt8, _ value: String) {
        var s = value
        s.withUTF8 { raw(tag, $0) }
    }

    /// Writes the field only when the string is not empty.
    public mutating func optionalString(_ tag: UInt8, _ value: String) {
        if !value.isEmpty { string(tag, value) }
    }

    public mutating func bytes(_ tag: UInt8, _ value: [UInt8]) {
        value.withUnsafeBufferPointer { raw(tag, $0) }
    }

    public mutating func record<R: FieldCodable>(_ tag: UInt8, _ value: R) {
        var inner = FieldWriter()
        value.encode(to: &inner)
        bytes(tag, inner.bytes)
    }

    public mutating func records<R: FieldCodable>(_ tag: UInt8, _ values: [R]) {
        for v in values { record(tag, v) }
    }

    private mutating func raw(_ tag: UInt8, _ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(tag)
        Varint.append(UInt64(value.count), to: &bytes)
        bytes.append(contentsOf: value)
    }
}

/// Reads a field list. The whole list is split into fields up front, so a truncated or
/// overlong field fails before any value is looked at.
public struct FieldReader: Sendable {
    private var fields: [(tag: UInt8, value: ArraySlice<UInt8>)] = []
    /// Whether a string holding U+0000 is refused (`nulInString`): the server reads requests
    /// so, because PostgreSQL's `text` cannot hold NUL and both stores must keep the same
    /// strings (PROTOCOL.md, "Strings"). A client reads what a server sends without it, so a
    /// NUL stored before the rule still reads.
    let refusesNUL: Bool

    public init(_ bytes: [UInt8], refusingNUL: Bool = false) throws(ProtocolError) {
        try self.init(slice: bytes[...], refusingNUL: refusingNUL)
    }

    init(slice bytes: ArraySlice<UInt8>, refusingNUL: Bool) throws(ProtocolError) {
        refusesNUL = refusingNUL
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let tag = bytes[i]
            if tag == 0 { throw .malformedPayload("field tag 0 at offset \(i - bytes.startIndex)") }
            i += 1
            guard let (length, used) = Varint.read(bytes[i...]) else {
                throw .malformedPayload("bad length of field \(tag)")
            }
            i += used
            guard length <= UInt64(bytes.endIndex - i) else {
                throw .malformedPayload("field \(tag) declares \(length) bytes, \(bytes.endIndex - i) remain")
            }
            let end = i + Int(length)
            fields.append((tag, bytes[i..<end]))
            i = end
        }
    }

    public func has(_ tag: UInt8) -> Bool { fields.contains { $0.tag == tag } }

    private func first(_ tag: UInt8) -> ArraySlice<UInt8>? { fields.first { $0.tag == tag }?.value }
    private func all(_ tag: UInt8) -> [ArraySlice<UInt8>] { fields.filter { $0.tag == tag }.map(\.value) }

    private func required(_ tag: UInt8, _ name: String) throws(ProtocolError) -> ArraySlice<UInt8> {
        guard let v = first(tag) else { throw .missingField(tag: tag, name: name) }
        return v
    }

    /// The largest value an integer field may hold (PROTOCOL.md, "Integers"). Both stores keep
    /// ids, sequence numbers, times and sizes in signed 64-bit columns, and the handlers do
    /// arithmetic on them (`to_seq + 1`, `offset + length`): refusing the top half of the varint
    /// range here, once for every field of every frame, is what keeps a value such as 2^64-1
    /// from reaching an overflow trap or wrapping to a negative number in SQL.
    public static let maxInteger = UInt64(Int64.max)

    private static func decodeUInt(_ v: ArraySlice<UInt8>, _ tag: UInt8, _ name: String) throws(ProtocolError) -> UInt64 {
        let n = try decodeBits(v, tag, name)
        guard n <= maxInteger else { throw .outOfRange(tag: tag, name: name, max: maxInteger) }
        return n
    }

    private static func decodeBits(_ v: ArraySlice<UInt8>, _ tag: UInt8, _ name: String) throws(ProtocolError) -> UInt64 {
        guard let (n, used) = Varint.read(v), used == v.count else {
            throw .wrongFieldType(tag: tag, name: name, expected: "a varint")
        }
        return n
    }

    private func decodeString(_ v: ArraySlice<UInt8>, _ tag: UInt8, _ name: String) throws(ProtocolError) -> String {
        guard let s = String(validating: v, as: UTF8.self) else { throw .invalidUTF8(tag: tag, name: name) }
        // In valid UTF-8 a zero byte is U+0000 and nothing else.
        if refusesNUL && v.contains(0) { throw .nulInString(tag: tag, name: name) }
        return s
    }

    public func uint(_ tag: UInt8, _ name: String) throws(ProtocolError) -> UInt64 {
        try Self.decodeUInt(required(tag, name), tag, name)
    }

    public func optionalUInt(_ tag: UInt8, _ name: String) throws(ProtocolError) -> UInt64 {
        guard let v = first(tag) else { return 0 }
        return try Self.decodeUInt(v, tag, name)
    }

    /// A bit set (capabilities): all 64 bits are flags, never a number, so the integer range
    /// does not apply; unknown bits are ignored by the reader of the set.
    public func optionalBits(_ tag: UInt8, _ name: String) throws(ProtocolError) -> UInt64 {
        guard let v = first(tag) else { return 0 }
        return try Self.decodeBits(v, tag, name)
    }

    public func uints(_ tag: UInt8, _ name: String) throws(ProtocolError) -> [UInt64] {
        var out: [UInt64] = []
        for v in all(tag) { out.append(try Self.decodeUInt(v, tag, name)) }
        return out
    }

    public func bool(_ tag: UInt8, _ name: String) throws(ProtocolError) -> Bool {
        switch try optionalUInt(tag, name) {
        case 0: return false
        case 1: return true
        default: throw .wrongFieldType(tag: tag, name: name, expected: "0 or 1")
        }
    }

    public func string(_ tag: UInt8, _ name: String) throws(ProtocolError) -> String {
        try decodeString(required(tag, name), tag, name)
    }

    public func optionalString(_ tag: UInt8, _ name: String) throws(ProtocolError) -> String {
        guard let v = first(tag) else { return "" }
        return try decodeString(v, tag, name)
    }

    public func strings(_ tag: UInt8, _ name: String) throws(ProtocolError) -> [String] {
        var out: [String] = []
        for v in all(tag) { out.append(try decodeString(v, tag, name)) }
        return out
    }

    public func bytes(_ tag: UInt8, _ name: String) throws(ProtocolError) -> [UInt8] {
        Array(try required(tag, name))
    }

    public func optionalBytes(_ tag: UInt8, _ name: String) -> [UInt8] {
        first(tag).map { Array($0) } ?? []
    }

    /// A fixed-size byte field, such as a 16-byte message id.
    public func bytes(_ tag: UInt8, _ name: String, count: Int) throws(ProtocolError) -> [UInt8] {
        let v = try required(tag, name)
        guard v.count == count else { throw .wrongFieldType(tag: tag, name: name, expected: "\(count) bytes") }
        return Array(v)
    }

    public func record<R: FieldCodable>(_ tag: UInt8, _ name: String, as: R.Type = R.self) throws(ProtocolError) -> R {
        try R(from: FieldReader(slice: required(tag, name), refusingNUL: refusesNUL))
    }

    public func optionalRecord<R: FieldCodable>(_ tag: UInt8, _ name: String, as: R.Type = R.self) throws(ProtocolError) -> R? {
        guard let v = first(tag) else { return nil }
        return try R(from: FieldReader(slice: v, refusingNUL: refusesNUL))
    }

    public func records<R: FieldCodable>(_ tag: UInt8, _ name: String, as: R.Type = R.self) throws(ProtocolError) -> [R] {
        var out: [R] = []
        for v in all(tag) { out.append(try R(from: FieldReader(slice: v, refusingNUL: refusesNUL))) }
        return out
    }
}

/// A value that is written as a field list: every frame payload and every nested record.
public protocol FieldCodable: Sendable {
    init(from fields: FieldReader) throws(ProtocolError)
    func encode(to fields: inout FieldWriter)
}

/// Unsigned LEB128: seven bits a byte, low group first, high bit set on all but the last byte.
/// Writers use the shortest form; readers accept at most 10 bytes and reject overflow.
public enum Varint {
    public static func size(of value: UInt64) -> Int {
        var v = value, n = 1
        while v >= 0x80 { v >>= 7; n += 1 }
        return n
    }

    public static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// The value and the bytes it used, or nil when truncated, longer than 10 bytes or overflowing.
    public static func read(_ bytes: ArraySlice<UInt8>) -> (UInt64, Int)? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if shift == 63 && b > 1 { return nil }
            result |= UInt64(b & 0x7F) << shift
            i += 1
            if b & 0x80 == 0 { return (result, i - bytes.startIndex) }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }
}
