/// A frame payload with a fixed frame type. Encoding and decoding go through `FieldCodable`.
public protocol WireMessage: FieldCodable, Equatable {
    static var frameType: FrameType { get }
    /// Whether compressing this message can pay off (default true). File bytes are mostly
    /// compressed already (images, archives), and deflating them cost an upload most of its time.
    static var compressible: Bool { get }
}

extension WireMessage {
    public static var compressible: Bool { true }

    /// This message as a frame, compressed when `compress` is set and it pays off, at zlib
    /// `level` (1 fastest ... 9 smallest).
    public func frame(requestID: UInt32, compress: Bool = false, level: Int32 = Compression.defaultLevel) -> Frame {
        var w = FieldWriter()
        encode(to: &w)
        if compress, Self.compressible, w.bytes.count >= Compression.worthwhileSize {
            return Frame(type: Self.frameType, flags: .compressed, requestID: requestID,
                         payload: Compression.deflate(w.bytes, level: level))
        }
        return Frame(type: Self.frameType, requestID: requestID, payload: w.bytes)
    }

    /// The field-list bytes of this message (the uncompressed payload).
    public var payloadBytes: [UInt8] {
        var w = FieldWriter()
        encode(to: &w)
        return w.bytes
    }
}

extension Frame {
    /// The payload as a field list, inflated first when the frame is compressed.
    public func fieldBytes(maxInflated: Int = Compression.defaultMaxInflated) throws(ProtocolError) -> [UInt8] {
        flags.contains(.compressed) ? try Compression.inflate(payload, limit: maxInflated) : payload
    }

    /// Decodes the payload as `T`. The frame's type is not checked: callers dispatch on it first.
    /// `refusingNUL`: a string holding U+0000 is an error (the server's requests).
    public func decode<T: WireMessage>(_ type: T.Type = T.self, maxInflated: Int = Compression.defaultMaxInflated,
                                       refusingNUL: Bool = false) throws(ProtocolError) -> T {
        try T(from: FieldReader(fieldBytes(maxInflated: maxInflated), refusingNUL: refusingNUL))
    }
}
