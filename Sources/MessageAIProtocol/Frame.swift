/// One protocol frame as it travels on the wire.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +---------------------------------------------------------------+
/// |              length (u32, bytes after this field)             |
/// +-------------------------------+---------------+---------------+
/// |        frame type (u16)       |  flags (u8)   | reserved (u8) |
/// +-------------------------------+---------------+---------------+
/// |                        request id (u32)                       |
/// +---------------------------------------------------------------+
/// |                 payload (length - 8 bytes) ...                |
/// ```
/// All integers are big-endian. The payload is a list of fields (see `FieldWriter`), or a zlib
/// stream of one when `flags` has `compressed` set.
public struct Frame: Equatable, Sendable {
    public var type: FrameType
    public var flags: FrameFlags
    /// Ties a response to its request. Requests use 1...UInt32.max; 0 marks a server push,
    /// or a client frame that asks for no reply.
    public var requestID: UInt32
    public var payload: [UInt8]

    public static let headerLength = 8
    public static let lengthFieldSize = 4
    /// The default and largest `length` value a peer accepts unless WELCOME says otherwise.
    public static let defaultMaxLength = 1 << 20

    public init(type: FrameType, flags: FrameFlags = [], requestID: UInt32, payload: [UInt8] = []) {
        self.type = type
        self.flags = flags
        self.requestID = requestID
        self.payload = payload
    }

    /// The frame's bytes, length prefix included.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Appends the frame to `out`; lets a writer batch many frames into one buffer.
    public func encode(into out: inout [UInt8]) {
        out.reserveCapacity(out.count + Frame.lengthFieldSize + Frame.headerLength + payload.count)
        out.appendBigEndian(UInt32(Frame.headerLength + payload.count))
        out.appendBigEndian(type.rawValue)
        out.append(flags.rawValue)
        out.append(0)
        out.appendBigEndian(requestID)
        out.append(contentsOf: payload)
    }
}

/// Frame flags. Bits not defined here are reserved: a receiver rejects a frame that sets one.
public struct FrameFlags: OptionSet, Equatable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The payload is a zlib stream (RFC 1950) of the field list. Only after both peers
    /// announced the `zlib` capability in the handshake.
    public static let compressed = FrameFlags(rawValue: 0x01)
    public static let known: FrameFlags = [.compressed]
}

extension Array where Element == UInt8 {
    @inlinable
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var v = value.bigEndian
        Swift.withUnsafeBytes(of: &v) { append(contentsOf: $0) }
    }
}
