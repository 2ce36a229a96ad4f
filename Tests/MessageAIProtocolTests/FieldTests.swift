import XCTest
@testable import MessageAIProtocol

final class FieldTests: XCTestCase {
    /// A newer peer's extra field (tag 9, unknown to this version) is skipped, not an error.
    func testUnknownTagsAreSkipped() throws {
        var w = FieldWriter()
        w.uint(1, 7)
        w.string(9, "from the future")
        w.bytes(2, Vectors.clientID)
        w.uint(200, 123456)
        w.string(3, "hello")
        let send = try Send(from: FieldReader(w.bytes))
        XCTAssertEqual(send, Send(conversationID: 7, clientID: Vectors.clientID, text: "hello"))
    }

    /// Message.kind: absent (0) and 1 are both text, so a reader that applies the general
    /// "optional fields default to 0" rule reads every vector right.
    func testMessageKindZeroOrAbsentIsText() throws {
        var base = FieldWriter()
        base.uint(1, 7); base.uint(2, 1); base.bytes(3, Vectors.clientID); base.uint(4, 1)
        base.string(5, "alice"); base.uint(6, 1); base.string(7, "hi")
        XCTAssertEqual(try ChatMessage(from: FieldReader(base.bytes)).kind, 1)
        for (written, read) in [(0, 1), (1, 1), (2, 2)] as [(UInt64, UInt64)] {
            var w = base
            w.uint(8, written)
            XCTAssertEqual(try ChatMessage(from: FieldReader(w.bytes)).kind, read, "kind \(written)")
        }
        var written = FieldWriter()
        Vectors.hi.encode(to: &written)
        var expected = FieldWriter()
        expected.uint(1, 7); expected.uint(2, 42); expected.bytes(3, Vectors.clientID); expected.uint(4, 1)
        expected.string(5, "alice"); expected.uint(6, Vectors.time); expected.string(7, "hi bob")
        XCTAssertEqual(written.bytes, expected.bytes, "writers leave kind out for text")
    }

    func testMissingRequiredFieldNamesIt() {
        var w = FieldWriter()
        w.uint(1, 7)
        XCTAssertThrowsError(try Send(from: FieldReader(w.bytes))) {
            XCTAssertEqual($0 as? ProtocolError, .missingField(tag: 2, name: "client_id"))
        }
    }

    func testInvalidUTF8IsItsOwnError() {
        var w = FieldWriter()
        w.uint(1, 7); w.bytes(2, Vectors.clientID); w.bytes(3, [0x68, 0xC3, 0x28])
        XCTAssertThrowsError(try Send(from: FieldReader(w.bytes))) {
            XCTAssertEqual(($0 as? ProtocolError)?.errorCode, .invalidUTF8)
        }
    }

    func testWrongTypesAreBadRequests() {
        var w = FieldWriter()
        w.string(1, "seven")  // a string where a varint belongs: trailing bytes
        w.bytes(2, [1, 2, 3])  // 3 bytes where 16 belong
        w.string(3, "x")
        XCTAssertThrowsError(try Send(from: FieldReader(w.bytes))) {
            XCTAssertEqual(($0 as? ProtocolError)?.errorCode, .badRequest)
        }
        var b = FieldWriter(); b.uint(2, 2)
        XCTAssertThrowsError(try ErrorFrame(from: FieldReader({ var x = FieldWriter(); x.uint(1, 1); x.uint(6, 2); return x.bytes }())))
        _ = b
    }

    func testTruncatedAndZeroTagPayloadsAreRejected() {
        XCTAssertThrowsError(try FieldReader([1, 5, 0, 0]))            // declares 5, has 2
        XCTAssertThrowsError(try FieldReader([0, 1, 0]))               // tag 0
        XCTAssertThrowsError(try FieldReader([1, 0x80]))               // length varint never ends
        XCTAssertNoThrow(try FieldReader([]))
    }

    func testVarintEdges() {
        for v: UInt64 in [0, 1, 127, 128, 300, 16_383, 16_384, UInt64(UInt32.max), UInt64.max] {
            var out: [UInt8] = []
            Varint.append(v, to: &out)
            XCTAssertEqual(out.count, Varint.size(of: v))
            let r = Varint.read(out[...])
            XCTAssertEqual(r?.0, v); XCTAssertEqual(r?.1, out.count)
        }
        XCTAssertEqual(Varint.read([0xAC, 0x02][...])?.0, 300)
        XCTAssertNil(Varint.read([UInt8](repeating: 0xFF, count: 10)[...]), "overflows 64 bits")
        XCTAssertNil(Varint.read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02][...]))
        XCTAssertNil(Varint.read([0x80, 0x80][...]), "truncated")
    }

    func testRepeatedTagsKeepTheirOrder() throws {
        let g = GroupCreate(name: "g", usernames: ["carol", "bob", "dave"])
        XCTAssertEqual(try GroupCreate(from: FieldReader(g.payloadBytes)).usernames, ["carol", "bob", "dave"])
    }

    func testErrorCodesKnowWhetherTheyClose() {
        XCTAssertTrue(ErrorCode.frameTooLarge.closesConnection)
        XCTAssertFalse(ErrorCode.rateLimited.closesConnection)
        XCTAssertFalse(ErrorCode.unknownFrameType.closesConnection)
        XCTAssertEqual(Set(ErrorCode.allCases.map(\.name)).count, ErrorCode.allCases.count)
    }

    /// PROTOCOL.md, "Integers": every integer field is at most 2^63-1; a larger one is
    /// invalid_argument naming the field, and the connection stays open. A bit set is not a number.
    func testIntegersAboveTheSignedRangeAreRefusedByName() throws {
        for value: UInt64 in [1 << 63, .max - 1, .max] {
            var w = FieldWriter()
            w.uint(1, 8); w.uint(3, value)
            XCTAssertThrowsError(try AssistSummary(from: FieldReader(w.bytes))) { error in
                XCTAssertEqual(error as? ProtocolError, .outOfRange(tag: 3, name: "to_seq", max: FieldReader.maxInteger))
                XCTAssertEqual((error as? ProtocolError)?.errorCode, .invalidArgument)
                XCTAssertFalse(ErrorCode.invalidArgument.closesConnection)
            }
        }
        var w = FieldWriter()
        w.uint(1, 8); w.uint(3, 1 << 63 - 1)
        XCTAssertEqual(try AssistSummary(from: FieldReader(w.bytes)).toSeq, 1 << 63 - 1)
        var hello = FieldWriter()
        hello.uint(1, 2); hello.uint(2, 2); hello.uint(3, 1 << 63 | 1)
        XCTAssertEqual(try Hello(from: FieldReader(hello.bytes)).capabilities, Capabilities(rawValue: 1 << 63 | 1))
    }
}
