import XCTest
@testable import MessageAIProtocol

final class DecoderTests: XCTestCase {
    func testNeedsMoreBytesUntilTheFrameIsComplete() throws {
        let bytes = Ping().frame(requestID: 3).encoded()
        var d = FrameDecoder()
        for b in bytes.dropLast() {
            d.feed(CollectionOfOne(b))
            XCTAssertNil(try d.next())
        }
        d.feed(CollectionOfOne(bytes.last!))
        XCTAssertEqual(try d.next()?.requestID, 3)
        XCTAssertEqual(d.bufferedByteCount, 0)
    }

    func testOversizedLengthIsRefusedFromTheLengthFieldAlone() {
        var d = FrameDecoder(maxLength: 1 << 20)
        d.feed([0xFF, 0xFF, 0xFF, 0xFF])  // 4 GiB declared, nothing else sent
        XCTAssertThrowsError(try d.next()) { e in
            XCTAssertEqual(e as? ProtocolError, .frameTooLarge(declared: 0xFFFF_FFFF, max: 1 << 20))
            XCTAssertEqual((e as? ProtocolError)?.errorCode.closesConnection, true)
        }
        XCTAssertEqual(d.bufferedByteCount, 0, "nothing kept for a refused frame")
    }

    func testLengthShorterThanHeaderIsMalformed() {
        var d = FrameDecoder()
        d.feed([0, 0, 0, 7, 0, 3, 0, 0, 0, 0, 0])
        XCTAssertThrowsError(try d.next()) { XCTAssertEqual(($0 as? ProtocolError)?.errorCode, .malformedFrame) }
    }

    func testReservedFlagBitsAndByteAreRejected() {
        for (flags, reserved) in [(UInt8(0x02), UInt8(0)), (0x80, 0), (0, 1)] {
            var d = FrameDecoder()
            d.feed([0, 0, 0, 8, 0, 3, flags, reserved, 0, 0, 0, 1])
            XCTAssertThrowsError(try d.next()) { XCTAssertEqual(($0 as? ProtocolError)?.errorCode, .malformedFrame) }
        }
    }

    func testDecoderStaysFailedAfterAnError() {
        var d = FrameDecoder(maxLength: 100)
        d.feed([0, 0, 1, 0])
        XCTAssertThrowsError(try d.next())
        d.feed(Ping().frame(requestID: 1).encoded())
        XCTAssertThrowsError(try d.next(), "framing is lost after an error; the connection must close")
    }

    func testUnknownFrameTypeStillDecodesAsAFrame() throws {
        var d = FrameDecoder()
        d.feed([0, 0, 0, 9, 0x7F, 0x01, 0, 0, 0, 0, 0, 4, 0xAB])
        let f = try XCTUnwrap(try d.next())
        XCTAssertEqual(f.type.rawValue, 0x7F01)
        XCTAssertNil(MessageRegistry.entry(for: f.type))
        XCTAssertNil(try MessageRegistry.decode(f))
    }

    func testFrameAtExactlyTheMaximumIsAccepted() throws {
        let payload = [UInt8](repeating: 1, count: 1000 - Frame.headerLength)
        var d = FrameDecoder(maxLength: 1000)
        d.feed(Frame(type: .ok, requestID: 1, payload: payload).encoded())
        XCTAssertEqual(try d.next()?.payload.count, payload.count)
        var d2 = FrameDecoder(maxLength: 999)
        d2.feed(Frame(type: .ok, requestID: 1, payload: payload).encoded())
        XCTAssertThrowsError(try d2.next())
    }
}
