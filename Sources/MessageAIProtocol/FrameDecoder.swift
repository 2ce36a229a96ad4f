/// Turns a byte stream, cut into chunks of any size, into frames.
///
/// A two-state machine: waiting for the 4-byte length plus the 8-byte header, then waiting
/// for `length - 8` payload bytes. A declared length above `maxLength` is refused as soon as
/// the length field is complete, before anything is allocated for the payload. After an error
/// the decoder stays failed: the stream has lost its framing and the connection must close.
public struct FrameDecoder: Sendable {
    /// The largest `length` accepted. A reader may change it between frames (a server lets
    /// only small frames in before login); it applies to every frame not yet returned.
    public var maxLength: Int {
        didSet { precondition(maxLength >= Frame.headerLength) }
    }
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: ProtocolError?

    public init(maxLength: Int = Frame.defaultMaxLength) {
        precondition(maxLength >= Frame.headerLength)
        self.maxLength = maxLength
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    public mutating func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        compact()
        buffer.append(contentsOf: bytes)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, `nil` when more bytes are needed, or the error that broke the
    /// stream (thrown again on every later call).
    public mutating func next() throws(ProtocolError) -> Frame? {
        if let failure { throw failure }
        let available = buffer.count - readIndex
        guard available >= Frame.lengthFieldSize else { return nil }
        let length = Int(readUInt32(at: readIndex))
        if length > maxLength {
            return try fail(.frameTooLarge(declared: length, max: maxLength))
        }
        if length < Frame.headerLength {
            return try fail(.malformedFrame("length \(length) is shorter than the 8-byte header"))
        }
        guard available >= Frame.lengthFieldSize + length else { return nil }
        let h = readIndex + Frame.lengthFieldSize
        let type = UInt16(buffer[h]) << 8 | UInt16(buffer[h + 1])
        let flags = FrameFlags(rawValue: buffer[h + 2])
        if !FrameFlags.known.isSuperset(of: flags) {
            return try fail(.malformedFrame("reserved flag bits set: 0x\(String(flags.rawValue, radix: 16))"))
        }
        if buffer[h + 3] != 0 {
            return try fail(.malformedFrame("reserved header byte is \(buffer[h + 3]), must be 0"))
        }
        let requestID = readUInt32(at: h + 4)
        let payloadStart = h + Frame.headerLength
        let payloadEnd = readIndex + Frame.lengthFieldSize + length
        let payload = Array(buffer[payloadStart..<payloadEnd])
        readIndex = payloadEnd
        return Frame(type: FrameType(rawValue: type), flags: flags, requestID: requestID, payload: payload)
    }

    private mutating func fail(_ error: ProtocolError) throws(ProtocolError) -> Frame? {
        failure = error
        buffer = []
        readIndex = 0
        throw error
    }

    private func readUInt32(at i: Int) -> UInt32 {
        UInt32(buffer[i]) << 24 | UInt32(buffer[i + 1]) << 16 | UInt32(buffer[i + 2]) << 8 | UInt32(buffer[i + 3])
    }

    /// Drops consumed bytes so the buffer never holds more than one partial frame plus a read.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeSubrange(0..<readIndex)
        }
        readIndex = 0
    }
}
