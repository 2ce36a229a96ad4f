/// What went wrong while reading frames or fields. Each case maps to one wire `ErrorCode`.
public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The length field declared more than the receiver accepts. Closes the connection.
    case frameTooLarge(declared: Int, max: Int)
    /// The framing itself is broken (reserved bits, short length). Closes the connection.
    case malformedFrame(String)
    /// A compressed payload that is not valid zlib, or inflates past the limit. Closes.
    case decompressionFailed(String)
    /// A field list that does not parse (truncated field, overlong varint). Connection stays open.
    case malformedPayload(String)
    /// A required field is absent.
    case missingField(tag: UInt8, name: String)
    /// A field whose value does not fit its type (a varint with trailing bytes, a bad id size).
    case wrongFieldType(tag: UInt8, name: String, expected: String)
    /// A string field that is not valid UTF-8.
    case invalidUTF8(tag: UInt8, name: String)
    /// A string field holding U+0000, in a request to the server (PROTOCOL.md, "Strings").
    /// Connection stays open.
    case nulInString(tag: UInt8, name: String)
    /// An integer field above the protocol's range (`FieldReader.maxInteger`). Connection stays open.
    case outOfRange(tag: UInt8, name: String, max: UInt64)

    public var errorCode: ErrorCode {
        switch self {
        case .frameTooLarge: return .frameTooLarge
        case .malformedFrame: return .malformedFrame
        case .decompressionFailed: return .decompressionFailed
        case .malformedPayload, .missingField, .wrongFieldType: return .badRequest
        case .invalidUTF8: return .invalidUTF8
        case .outOfRange, .nulInString: return .invalidArgument
        }
    }

    public var description: String {
        switch self {
        case let .frameTooLarge(declared, max): return "frame length \(declared) exceeds the maximum of \(max) bytes"
        case let .malformedFrame(why): return "malformed frame: \(why)"
        case let .decompressionFailed(why): return "decompression failed: \(why)"
        case let .malformedPayload(why): return "malformed payload: \(why)"
        case let .missingField(tag, name): return "missing required field \(name) (tag \(tag))"
        case let .wrongFieldType(tag, name, expected): return "field \(name) (tag \(tag)) must be \(expected)"
        case let .invalidUTF8(tag, name): return "field \(name) (tag \(tag)) is not valid UTF-8"
        case let .nulInString(tag, name): return "field \(name) (tag \(tag)) contains U+0000 (NUL), which no text may hold"
        case let .outOfRange(tag, name, max): return "field \(name) (tag \(tag)) must be at most \(max)"
        }
    }
}
