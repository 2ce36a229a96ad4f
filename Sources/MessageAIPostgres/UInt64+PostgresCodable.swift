import PostgresNIO

// The shared store interface (MessageAIStore) speaks UInt64 ids, seqs and times; PostgreSQL
// has no unsigned integer, so they travel as BIGINT. Every value the store writes is below
// 2^63 (ids from identity columns, seqs, milliseconds), so the bit pattern is the number:
// encoding writes it as an int8, decoding reads any integer column (SMALLINT kinds, INTEGER
// counts, BIGINT ids) and refuses a negative one rather than wrap it into a huge value.
extension UInt64: @retroactive PostgresNonThrowingEncodable {
    public static var psqlType: PostgresDataType { .int8 }
    public static var psqlFormat: PostgresFormat { .binary }

    public func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer,
                                                         context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(Int64(bitPattern: self), as: Int64.self)
    }
}

extension UInt64: @retroactive PostgresDecodable {
    public init<JSONDecoder: PostgresJSONDecoder>(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                                  context: PostgresDecodingContext<JSONDecoder>) throws {
        let signed = try Int64(from: &buffer, type: type, format: format, context: context)
        guard signed >= 0 else { throw PostgresDecodingError.Code.failure }
        self = UInt64(signed)
    }
}

extension UInt64: @retroactive PostgresArrayEncodable {
    public static var psqlArrayType: PostgresDataType { .int8Array }
}

extension UInt64: @retroactive PostgresArrayDecodable {}
