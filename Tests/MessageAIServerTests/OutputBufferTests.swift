import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The output queue's frame-edge bookkeeping and the limiters, without sockets.
final class OutputBufferTests: XCTestCase {
    func testDroppingUnstartedFramesKeepsTheStreamWhole() throws {
        for written in [0, 1, 11, 12, 13, 700, 1_000, 2_999] {
            var buffer = OutputBuffer()
            var starts: [Int] = []
            var offset = 0
            for i in 0..<10 {
                for frame in [Ping().frame(requestID: UInt32(i)), Hello(capabilities: [], client: String(repeating: "x", count: 280)).frame(requestID: 99)] {
                    buffer.append(frame)
                    starts.append(offset)
                    offset += frame.encoded().count
                }
            }
            var wire: [UInt8] = []
            buffer.drain { bytes in
                let n = min(written, bytes.count)
                wire += bytes.prefix(n)
                return n
            }
            buffer.dropUnstartedFrames()
            buffer.append(ErrorFrame(.outputOverflow, "full").frame(requestID: 0))
            buffer.drain { bytes in wire += bytes; return bytes.count }
            XCTAssertTrue(buffer.isEmpty)

            var decoder = FrameDecoder()
            decoder.feed(wire)
            var frames: [Frame] = []
            while let f = try decoder.next() { frames.append(f) }
            XCTAssertEqual(decoder.bufferedByteCount, 0, "after \(written) bytes: no half frame left")
            XCTAssertEqual(frames.last?.type, .error, "after \(written) bytes")
            XCTAssertEqual(frames.count - 1, starts.filter { $0 < written }.count, "frames started survive whole, the rest is dropped")
        }
    }

    func testRateLimiterRefillsOverTheWindow() {
        var limiter = RateLimiter(limit: 3, windowSeconds: 3)
        XCTAssertNil(limiter.take(user: 1, now: 0))
        XCTAssertNil(limiter.take(user: 1, now: 0))
        XCTAssertNil(limiter.take(user: 1, now: 0))
        XCTAssertEqual(limiter.take(user: 1, now: 0), 1_000)
        XCTAssertNil(limiter.take(user: 2, now: 0), "buckets are per user")
        XCTAssertNil(limiter.take(user: 1, now: 1_000))
        XCTAssertNotNil(limiter.take(user: 1, now: 1_000))
    }

    func testLoginThrottleSlidesItsWindow() {
        var throttle = LoginThrottle(limit: 2, windowMillis: 1_000)
        throttle.recordFailure("k", now: 0)
        XCTAssertNil(throttle.retryAfter("k", now: 10))
        throttle.recordFailure("k", now: 100)
        XCTAssertEqual(throttle.retryAfter("k", now: 200), 800)
        XCTAssertNil(throttle.retryAfter("k", now: 1_001))
        XCTAssertNil(throttle.retryAfter("other", now: 200))
    }

    func testPasswordHashVerifiesAndRefusesWeakParameters() {
        let hash = PasswordHasher.hash("open sesame")
        XCTAssertTrue(PasswordHasher.verify("open sesame", against: hash))
        XCTAssertFalse(PasswordHasher.verify("open sesamE", against: hash))
        let weak = hash.replacingOccurrences(of: "$600000$", with: "$1000$")
        XCTAssertFalse(PasswordHasher.verify("open sesame", against: weak), "a stored hash with too few rounds is refused")
        XCTAssertNotEqual(PasswordHasher.hash("open sesame"), hash, "salted")
    }
}
