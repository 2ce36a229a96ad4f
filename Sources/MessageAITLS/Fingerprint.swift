@preconcurrency import CSSL

/// A certificate's SHA-256 fingerprint, written as `openssl x509 -noout -fingerprint -sha256`
/// writes it (upper-case hex pairs with colons) so an admin can check it with that command.
public enum Fingerprint {
    /// The ALPN protocol name both sides offer (also in `shim.h`).
    public static let alpn = "messageai/1"

    /// SHA-256 of the certificate's DER encoding.
    public static func sha256(of certificate: OpaquePointer) -> String {
        _ = openSSLLibrary
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return format(digest.prefix(Int(length)))
    }

    static func format<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits = Array("0123456789ABCDEF")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: ":")
    }

    /// Accepts what people paste: with or without colons, any case, an optional `SHA256:` or
    /// `sha256 Fingerprint=` prefix. Nil unless it is 32 bytes of hex.
    public static func normalize(_ text: String) -> String? {
        var s = text.trimmingPrefixCaseInsensitive("sha256 fingerprint=")
        s = s.trimmingPrefixCaseInsensitive("sha256:")
        let hex = s.filter { $0 != ":" && !$0.isWhitespace }.uppercased()
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else { return nil }
        var pairs: [String] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            pairs.append(String(hex[i..<j]))
            i = j
        }
        return pairs.joined(separator: ":")
    }
}

extension String {
    func trimmingPrefixCaseInsensitive(_ prefix: String) -> String {
        lowercased().hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
